import { open, readFile, rm, stat, type FileHandle } from 'node:fs/promises';
import { int16View, WAV_HEADER_BYTES } from '../audio/wav';
import { JobAudioWriter, type WrittenAudio } from './audio-writer';
import type { DiskBudget } from './disk-budget';
import { PARTIAL, type JobFiles } from './files';
import { joinedEnds, pauseAfter } from './chunk-layout';
import { giveBack, HeldChunks, type Offer } from './held-chunks';
import type { ChunkLayout, JobRow } from './rows';
import type { JobStore } from './store';

/**
 * Jobs whose audio is written at once as their chunks arrive. Each holds open files and an
 * encoder (AAC and FLAC: a worker thread), and the queue runs the chunks of all its jobs in turn:
 * the others keep their chunk files and catch up, from those files, when a writer is free.
 */
export const MAX_OPEN_WRITERS = 4;

/**
 * Writers beyond those, for jobs whose every chunk is saved: such a job is written in one pass,
 * waiting on no engine, so it never waits for the jobs still being synthesized to end. Without
 * them a finished two-chunk chapter waited 21 s for one of four long chapters to end, and in a
 * big render, minutes (docs/projects.md, issue 34).
 */
export const MAX_FINISHING_WRITERS = 2;

export interface AssemblyEvents {
  /** The job's audio is complete and in place. */
  done(jobId: string, audio: WrittenAudio): Promise<void>;
  /** Writing failed (a full disk, an encoder error): the job fails. */
  failed(jobId: string, error: unknown): void;
}

interface Assembly {
  id: string;
  /** A WAV job: its joined chunks are recorded, their files go, and it resumes its WAV after them. */
  resumable: boolean;
  /** The first chunk not yet in the job's audio. */
  next: number;
  /** The chunk being appended, if one is. */
  appending?: number;
  writer?: JobAudioWriter;
  /** Which of the limits its writer counts against. */
  slot?: WriterSlot;
  /** Chunks handed over as they were synthesized, without a chunk file, waiting for their turn. */
  offers: Map<number, Offer>;
  /** The offered chunk being appended. */
  joining?: Offer;
  running?: Promise<void>;
  /** The job's base WAV, open while chunks are read from it (jobs/base-audio/). */
  base?: Promise<FileHandle>;
  /** A chunk was saved while the writing ran: look again before stopping. */
  again: boolean;
  stopped: boolean;
}

type WriterSlot = 'streaming' | 'finishing';

/**
 * Joins each job's chunks into its audio as they arrive, in order, with the pauses between them:
 * each chunk's samples go through the job's writer once, while later chunks are still being
 * synthesized, so finishing a job never reads its gigabytes again.
 *
 * A WAV job's chunk that arrives in its turn goes straight into the WAV, without a chunk file, and
 * so does one that arrives a little ahead of it (held in memory, within the bounds of held-chunks.ts); a chunk
 * further ahead waits in its chunk file, which goes once it is joined. The
 * job records how many of its first chunks its WAV holds (`joined_chunks`), and a job taken up
 * after a stop or crash resumes its WAV after them. A job in another format starts its audio again
 * from its first chunk (an encoder's state cannot be saved) and keeps every chunk file until done.
 */
export class JobAssembler {
  private readonly assemblies = new Map<string, Assembly>();
  private readonly openWriters: Record<WriterSlot, number> = { streaming: 0, finishing: 0 };
  private readonly held = new HeldChunks();

  constructor(
    private readonly deps: { store: JobStore; files: JobFiles; disk: DiskBudget },
    private readonly events: AssemblyEvents,
  ) {}

  /**
   * A job taken up after a stop or crash: keeps as much of its partial WAV as holds whole chunks
   * and their pauses (all it had joined, unless the file was cut short), to resume after them.
   */
  async takeUp(jobId: string): Promise<void> {
    const { store, files } = this.deps;
    const job = store.get(jobId)!;
    if (job.joined_chunks === 0) return;
    const size = await stat(files.audioFile(jobId, 'wav') + PARTIAL).then(
      (s) => s.size,
      () => 0,
    );
    const ends = joinedEnds(store.chunkLayouts(jobId, job.joined_chunks), job);
    const whole = ends.findLastIndex((end) => WAV_HEADER_BYTES + end <= size) + 1;
    if (whole < job.joined_chunks) store.unjoin(jobId, whole);
  }

  /**
   * A WAV job's chunk as it is synthesized: joined into the WAV and recorded (`record`) in its
   * turn, once the chunks before it are written. One ahead of its turn waits in memory for it,
   * within the held bounds, when the caller can wait (`wait`, until it aborts: the embedded queue,
   * whose engine slot is free meanwhile; not a worker host, which waits for the answer to go on).
   * Resolves false if it is not taken (held by none, the job stopped, `wait` aborted): it goes to
   * its chunk file then.
   */
  offer(jobId: string, idx: number, samples: Int16Array, record: () => void, wait?: AbortSignal): Promise<boolean> {
    const assembly = this.assemblyOf(jobId);
    const turn = assembly.appending !== undefined ? assembly.appending + 1 : assembly.next;
    const ahead = idx > turn;
    // only while its audio is being written: a job waiting for a writer may get one only once
    // every chunk is saved (a finishing writer), and a chunk held back would never be
    const holds = ahead && wait !== undefined && assembly.writer !== undefined && this.held.fits(assembly.offers.size, samples.byteLength);
    if (!assembly.resumable || assembly.stopped || wait?.aborted || assembly.offers.has(idx) || idx < turn || (ahead && !holds))
      return Promise.resolve(false);
    return new Promise((resolve) => {
      const abandon = () => waiting.settle(false);
      // the job's signal outlives its chunks: a listener left on it would keep their samples
      const waiting = this.held.hold(assembly.offers, { idx, samples, record }, (joined) => {
        wait?.removeEventListener('abort', abandon);
        resolve(joined);
      });
      wait?.addEventListener('abort', abandon, { once: true });
      if (!ahead) this.kick(assembly);
    });
  }

  /** A chunk of the job was saved to its file (or, with nothing, the job was taken up): writes what is now in order. */
  chunkSaved(jobId: string): void {
    this.kick(this.assemblyOf(jobId));
  }

  /** Stops writing a job's audio (it failed or was cancelled); resolves once its files are closed. */
  async drop(jobId: string): Promise<void> {
    const assembly = this.assemblies.get(jobId);
    if (assembly) await this.stop(assembly);
  }

  /** Stops writing every job's audio (a shutdown); the partial files stay until the job is taken up again. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.assemblies.values()].map((assembly) => this.stop(assembly)));
  }

  private assemblyOf(jobId: string): Assembly {
    let assembly = this.assemblies.get(jobId);
    if (!assembly) {
      const job = this.deps.store.get(jobId);
      const resumable = job?.format === 'wav';
      assembly = { id: jobId, resumable, next: resumable ? job.joined_chunks : 0, offers: new Map(), again: false, stopped: false };
      this.assemblies.set(jobId, assembly);
    }
    return assembly;
  }

  private kick(assembly: Assembly): void {
    if (assembly.stopped) return;
    if (assembly.running) {
      assembly.again = true;
      return;
    }
    assembly.running = this.run(assembly);
  }

  private async run(assembly: Assembly): Promise<void> {
    let broke = false;
    try {
      do {
        assembly.again = false;
        await this.writeReadyChunks(assembly);
      } while (assembly.again && !assembly.stopped);
    } catch (error) {
      broke = true;
      if (!assembly.stopped) this.events.failed(assembly.id, error);
    } finally {
      // at once, in the same turn as the last look for ready chunks: a chunk saved or offered
      // later starts a new run
      assembly.running = undefined;
      assembly.appending = undefined;
      assembly.joining?.settle(false);
      assembly.joining = undefined;
      // those ahead wait for their turn, unless the writing stopped or failed
      if (broke || assembly.stopped) giveBack(assembly.offers);
    }
  }

  /** Writes the chunks that are next in order and saved or offered; finishes the job after its last one. */
  private async writeReadyChunks(assembly: Assembly): Promise<void> {
    const { store, files } = this.deps;
    const job = store.get(assembly.id);
    if (!job) return;
    while (!assembly.stopped) {
      const chunk = assembly.next < job.chunks_total ? store.chunkLayout(assembly.id, assembly.next) : undefined;
      const offered = chunk && assembly.offers.get(chunk.idx);
      if (chunk && !chunk.done && !offered) return;
      // no writer free: those ahead go to their files, so that no engine's unit waits for one
      if (!assembly.writer && !(await this.openWriter(assembly, job))) return giveBack(assembly.offers);
      if (!chunk) return this.finish(assembly);
      // taken: the chunk after it may be offered while it is appended
      assembly.joining = offered;
      if (offered) assembly.offers.delete(chunk.idx);
      assembly.appending = chunk.idx;
      await assembly.writer!.append(offered?.samples ?? (await this.savedAudio(assembly, chunk)));
      const pause = pauseAfter(chunk.pause_ms, chunk.idx === job.chunks_total - 1, job.sample_rate!);
      if (pause > 0) await assembly.writer!.append(new Int16Array(pause));
      if (offered) {
        offered.record();
      } else if (assembly.resumable) {
        store.joined(assembly.id, chunk.idx + 1);
        if (chunk.base_offset === null) await rm(files.chunkFile(assembly.id, chunk.idx), { force: true });
      }
      assembly.next++;
      assembly.appending = undefined;
      assembly.joining = undefined;
      offered?.settle(true);
    }
  }

  /** A saved chunk's samples: its chunk file's, or those of the job's base WAV (jobs/base-audio/). */
  private async savedAudio(assembly: Assembly, chunk: ChunkLayout): Promise<Int16Array> {
    if (chunk.base_offset === null) return int16View(await readFile(this.deps.files.chunkFile(assembly.id, chunk.idx)));
    assembly.base ??= open(this.deps.files.baseFile(assembly.id), 'r');
    const bytes = Buffer.allocUnsafe(2 * chunk.samples!);
    const { bytesRead } = await (await assembly.base).read(bytes, 0, bytes.length, WAV_HEADER_BYTES + 2 * chunk.base_offset);
    if (bytesRead < bytes.length)
      throw new Error(`The earlier render that chunk ${chunk.idx} of job ${assembly.id} comes from is cut short.`);
    return int16View(bytes);
  }

  /** Opens the job's writer if a slot is free (false: it waits for one), resuming a WAV after its joined chunks. */
  private async openWriter(assembly: Assembly, job: JobRow): Promise<boolean> {
    const slot = this.freeSlot(job.id);
    if (!slot) return false;
    this.openWriters[slot]++;
    assembly.slot = slot;
    const joinedBytes = assembly.next > 0 ? joinedEnds(this.deps.store.chunkLayouts(job.id, assembly.next), job).at(-1)! : 0;
    try {
      assembly.writer = await JobAudioWriter.open(this.deps.files, job, job.sample_rate!, this.deps.disk, joinedBytes);
    } catch (error) {
      this.writerClosed(slot);
      throw error;
    }
    return true;
  }

  /** A streaming slot if one is free, else a finishing one for a job whose every chunk is saved. */
  private freeSlot(jobId: string): WriterSlot | null {
    if (this.openWriters.streaming < MAX_OPEN_WRITERS) return 'streaming';
    if (this.openWriters.finishing >= MAX_FINISHING_WRITERS) return null;
    const job = this.deps.store.get(jobId);
    return job && job.chunks_done === job.chunks_total ? 'finishing' : null;
  }

  private async finish(assembly: Assembly): Promise<void> {
    const audio = await assembly.writer!.finish();
    await closeBase(assembly);
    if (assembly.stopped) return; // cancelled meanwhile: whoever stopped it removes the files
    this.forget(assembly);
    await this.events.done(assembly.id, audio);
  }

  private async stop(assembly: Assembly): Promise<void> {
    assembly.stopped = true;
    giveBack(assembly.offers);
    await assembly.running;
    await assembly.writer?.close();
    await closeBase(assembly);
    this.forget(assembly);
  }

  /** The job's audio is finished or stopped: nothing more is written (a run that was told of a chunk meanwhile ends). */
  private forget(assembly: Assembly): void {
    assembly.stopped = true;
    if (this.assemblies.get(assembly.id) !== assembly) return;
    this.assemblies.delete(assembly.id);
    if (assembly.writer) {
      assembly.writer = undefined;
      this.writerClosed(assembly.slot!);
    }
  }

  /**
   * A writer's slot is free: the waiting jobs look again, oldest first; the first whose next chunk
   * is ready takes it (in the same turn), the others find none and wait on.
   */
  private writerClosed(slot: WriterSlot): void {
    this.openWriters[slot]--;
    for (const waiting of this.assemblies.values()) {
      if (!waiting.writer) this.kick(waiting);
    }
  }
}

async function closeBase(assembly: Assembly): Promise<void> {
  const base = assembly.base;
  assembly.base = undefined;
  await base?.then((handle) => handle.close()).catch(() => undefined);
}
