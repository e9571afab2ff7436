import { rmSync } from 'node:fs';
import { stat, statfs, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PRIVATE_FILE_MODE } from '../storage/private-files';
import { ApiError } from '../contract';

/** The file the gateway gives up when the disk runs out, so that SQLite can still record it. */
export const RESERVE_FILE = 'disk-reserve';
/** Recording a failure takes about 12 KiB of SQLite's write-ahead log (measured): room for hundreds. */
export const RESERVE_BYTES = 8 * 1024 * 1024;

const MB = 1024 * 1024;
/**
 * A measured free space stands, less what was written since, for the writes of the next moment:
 * a job writes its audio a piece at a time, and a statfs for each piece cost more than the write.
 */
const FREE_SPACE_TTL_MS = 250;

/** Work whose next write would take the disk below what must stay free: it fails with this code. */
export class DiskFull extends Error {
  readonly code = 'disk_full';
}

/** Disk that something holds only while nothing else needs it (the render cache), given back on demand. */
export interface Reclaimable {
  /** The ledger key its own writes use: they never take its room back from it. */
  key: string;
  /** Frees at least `bytes` if it can; resolves with what it freed, once freed. */
  reclaim(bytes: number): Promise<number>;
}

/** What a refusal says about the work refused: "This export", and what the person can do. */
export interface RefusalWording {
  what: string;
  advice: string;
}

/**
 * The data dir's disk as one ledger. Audio and text are never written into the last
 * `minFreeBytes` of free space. Each piece of work (a job, an export, a sentence edit, a project's
 * text) reserves what it will write before it writes: it is refused (507 insufficient_storage)
 * unless that fits above the free minimum with what every other accepted piece has reserved and
 * not yet written, so queued work counts. As it writes it asks before each write: within its
 * reservation the free minimum is checked, beyond it the others' reservations too, and a write
 * that does not fit fails that work (DiskFull, disk_full), never the next request of another.
 * What the render cache and the kept export segments hold is taken back first (`reclaimFrom`): it
 * is kept only while nothing else needs the disk. A reserve file of RESERVE_BYTES in the data dir is deleted when the disk
 * runs out anyway (another program filled it), so that the failure can be recorded; it is made
 * again once there is room.
 */
export class DiskBudget {
  private readonly reserveFile: string;
  private measured?: { free: number; at: number };
  /** Bytes reserved and not yet written, by the key of the work that reserved them. */
  private readonly unwritten = new Map<string, number>();
  private nowCount = 0;
  private reclaimables: Reclaimable[] = [];

  constructor(
    private readonly dataDir: string,
    readonly minFreeBytes: number,
  ) {
    this.reserveFile = path.join(dataDir, RESERVE_FILE);
  }

  /** Free bytes for this user on the data dir's disk. */
  async free(): Promise<number> {
    const { bavail, bsize } = await statfs(this.dataDir);
    return bavail * bsize;
  }

  /**
   * At start, before anything is written: with the disk below its free minimum, the reserve goes,
   * so that the lock, the database and the failures of the jobs that resume can be written.
   */
  async prepare(): Promise<void> {
    if ((await this.free()) < this.minFreeBytes) this.releaseReserve();
    else await this.restoreReserve();
  }

  /** Disk to take back before work is refused or a write fails for want of room (the render cache's). */
  /** Adds what can give disk back (in the order asked), or replaces the one of the same key. */
  reclaimFrom(reclaimable: Reclaimable): void {
    this.reclaimables = [...this.reclaimables.filter((r) => r.key !== reclaimable.key), reclaimable];
  }

  /**
   * Sets `bytes` aside for the work `key` (e.g. "job:<id>"), or refuses it with 507
   * insufficient_storage when they do not fit above the free minimum beside every other
   * reservation, even with what the reclaimable gives back. The work releases it when it ends.
   */
  async reserve(key: string, bytes: number, wording: RefusalWording): Promise<void> {
    await this.restoreReserve();
    // what others reserved is read anew after each wait, so that the last check and the hold run in
    // one turn: reservations asked for at the same moment each count the others
    const shortBy = (free: number) => this.minFreeBytes - (free - this.promised() - bytes);
    let free = await this.free();
    if (shortBy(free) > 0 && (await this.reclaim(key, shortBy(free)))) free = await this.free();
    const promised = this.promised();
    if (shortBy(free) > 0) {
      const others = promised > 0 ? ` and ${mb(promised)} MB are set aside for work already accepted` : '';
      throw new ApiError(
        'insufficient_storage',
        `${wording.what} needs up to ${mb(bytes)} MB of disk, and ${mb(free)} MB are free, of which ` +
          `${mb(this.minFreeBytes)} MB must stay free${others}. ${wording.advice}`,
      );
    }
    this.hold(key, bytes);
  }

  /** Sets `bytes` aside without asking: work accepted by an earlier run, taken up again at start. */
  hold(key: string, bytes: number): void {
    this.unwritten.set(key, (this.unwritten.get(key) ?? 0) + Math.max(0, Math.ceil(bytes)));
  }

  /**
   * Asks before the work `key` writes `bytes`: throws DiskFull unless they leave the free
   * minimum, and, past what the work reserved, also what others reserved. The disk is asked
   * again when its last answer is old, or no longer leaves room for `bytes`.
   */
  async write(key: string, bytes: number): Promise<void> {
    // read anew after each wait, like reserve's: others may reserve or write meanwhile
    const others = () => {
      const own = this.unwritten.get(key) ?? 0;
      return bytes > own ? this.promised() - own : 0;
    };
    const shortBy = (free: number) => this.minFreeBytes - (free - bytes - others());
    const now = performance.now();
    let known = this.measured;
    if (!known || now - known.at > FREE_SPACE_TTL_MS || shortBy(known.free) > 0) {
      known = this.measured = { free: await this.free(), at: now };
    }
    if (shortBy(known.free) > 0 && (await this.reclaim(key, shortBy(known.free)))) {
      known = this.measured = { free: await this.free(), at: performance.now() };
    }
    if (shortBy(known.free) > 0) {
      throw new DiskFull(
        `The disk is nearly full (${mb(known.free)} MB free; Orator keeps ${mb(this.minFreeBytes)} MB free): free some space and try again.`,
      );
    }
    known.free -= bytes;
    const own = this.unwritten.get(key);
    if (own !== undefined) this.unwritten.set(key, Math.max(0, own - bytes));
  }

  /**
   * Runs work answered at once (a sentence edit, a manuscript stored) with `bytes` reserved for
   * it: 507 before it starts when they do not fit, and 507 when one of its writes (each asked
   * through `write`) would not; released when it ends.
   */
  async withRoom<T>(bytes: number, wording: RefusalWording, work: (write: (bytes: number) => Promise<void>) => T | Promise<T>): Promise<T> {
    const key = `now:${++this.nowCount}`;
    await this.reserve(key, bytes, wording);
    try {
      return await work((written) => this.write(key, written));
    } catch (error) {
      if (error instanceof DiskFull) throw new ApiError('insufficient_storage', error.message);
      throw error;
    } finally {
      this.release(key);
    }
  }

  /** The work `key` ended: what it did not write is free for others again. */
  release(key: string): void {
    this.unwritten.delete(key);
  }

  /** Asks the reclaimables, one after another, for `bytes` on behalf of the work `key`; true when any freed some. */
  private async reclaim(key: string, bytes: number): Promise<boolean> {
    let freed = 0;
    for (const reclaimable of this.reclaimables) {
      if (reclaimable.key === key || freed >= bytes) continue;
      freed += await reclaimable.reclaim(Math.ceil(bytes - freed));
    }
    return freed > 0;
  }

  /** Bytes reserved by all work and not yet written. */
  private promised(): number {
    let sum = 0;
    for (const bytes of this.unwritten.values()) sum += bytes;
    return sum;
  }

  /** Gives the reserve back to the disk at once (synchronously: the next statement may need the room). */
  releaseReserve(): void {
    try {
      rmSync(this.reserveFile, { force: true });
    } catch (error) {
      console.warn(`Orator could not release its disk reserve: ${(error as Error).message}`);
    }
  }

  /** Makes the reserve file when it is missing and the disk has room for it above the free minimum. */
  private async restoreReserve(): Promise<void> {
    const size = await stat(this.reserveFile).then(
      (s) => s.size,
      () => 0,
    );
    if (size >= RESERVE_BYTES || (await this.free()) - (RESERVE_BYTES - size) < this.minFreeBytes) return;
    // written, not sparse: the blocks must really be taken, to be given back later
    await writeFile(this.reserveFile, Buffer.alloc(RESERVE_BYTES), { mode: PRIVATE_FILE_MODE }).catch((error: Error) => {
      this.releaseReserve();
      console.warn(`Orator could not make its disk reserve: ${error.message}`);
    });
  }
}

function mb(bytes: number): string {
  return (bytes / MB).toFixed(1);
}
