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

/** A job that would take the disk below what must stay free: it fails with this code. */
export class DiskFull extends Error {
  readonly code = 'disk_full';
}

/**
 * The data dir's disk as the job queue sees it. Audio is never written into the last `minFreeBytes`
 * of free space: a job is refused (507) when its estimate does not fit, and a running job fails
 * (disk_full) before a chunk or its WAV would cross that line. A reserve file of RESERVE_BYTES
 * in the data dir is deleted when the disk runs out anyway (another program filled it), so that
 * the failure can be recorded; it is made again once there is room.
 */
export class DiskBudget {
  private readonly reserveFile: string;
  private measured?: { free: number; at: number };

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

  /** Refuses a job whose audio (estimated) would not fit above the free minimum: 507 insufficient_storage. */
  async assertRoomForJob(estimatedBytes: number): Promise<void> {
    await this.restoreReserve();
    const free = await this.free();
    if (free - estimatedBytes < this.minFreeBytes) {
      throw new ApiError(
        'insufficient_storage',
        `This job needs up to ${mb(estimatedBytes)} MB of disk for its audio, and ${mb(free)} MB are free, of which ` +
          `${mb(this.minFreeBytes)} MB must stay free. Free some space, delete finished jobs, or send a shorter text.`,
      );
    }
  }

  /**
   * Throws DiskFull unless `bytes` can be written with the free minimum left over. The disk is
   * asked again when its last answer is old, or no longer leaves room for `bytes`.
   */
  async assertRoomToWrite(bytes: number): Promise<void> {
    const now = performance.now();
    let known = this.measured;
    if (!known || now - known.at > FREE_SPACE_TTL_MS || known.free - bytes < this.minFreeBytes) {
      known = this.measured = { free: await this.free(), at: now };
    }
    if (known.free - bytes < this.minFreeBytes) {
      throw new DiskFull(
        `The disk is nearly full (${mb(known.free)} MB free; Orator keeps ${mb(this.minFreeBytes)} MB free): free some space and retry the job.`,
      );
    }
    known.free -= bytes;
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
