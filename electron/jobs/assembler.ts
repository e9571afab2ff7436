import { readFile } from 'node:fs/promises';
import { int16View } from '../audio/wav';
import { JobAudioWriter, type WrittenAudio } from './audio-writer';
import type { DiskBudget } from './disk-budget';
import type { JobFiles } from './files';
import type { JobStore } from './store';

/**
 * Jobs whose audio is written at once. Each holds open files and an encoder (AAC and FLAC: a
 * worker thread), and the queue runs the chunks of all its jobs in turn: the others keep their
 * chunk files and catch up, from those files, when a job ahead of them finishes.
 */
export const MAX_OPEN_WRITERS = 4;

export interface AssemblyEvents {
  /** The job's audio is complete and in place. */
  done(jobId: string, audio: WrittenAudio): Promise<void>;
  /** Writing failed (a full disk, an encoder error): the job fails. */
  failed(jobId: string, error: unknown): void;
}

interface Assembly {
  id: string;
  /** The first chunk not yet written. */
  next: number;
  writer?: JobAudioWriter;
  /** The samples of chunk `next` if they were just saved, to spare reading them back. */
  fresh?: { idx: number; samples: Int16Array };
  running?: Promise<void>;
  /** A chunk was saved while the writing ran: look again before stopping. */
  again: boolean;
  stopped: boolean;
}

/** Silence after a chunk, in samples: none after the last. Timings (timings.ts) follow this join. */
export function pauseAfter(pauseMs: number, last: boolean, sampleRate: number): number {
  return last ? 0 : Math.round((pauseMs / 1000) * sampleRate);
}

/**
 * Joins each job's chunks into its audio as they arrive, in order, with the pauses between them:
 * each chunk's samples go through the job's writer once, while later chunks are still being
 * synthesized, so finishing a job never reads its gigabytes again. Chunks that arrive ahead of
 * their turn wait in their chunk files. A job taken up after a stop or crash starts its audio
 * again from its first chunk: an encoder's state cannot be saved, its chunk files can.
 */
export class JobAssembler {
  private readonly assemblies = new Map<string, Assembly>();
  private openWriters = 0;

  constructor(
    private readonly deps: { store: JobStore; files: JobFiles; disk: DiskBudget },
    private readonly events: AssemblyEvents,
  ) {}

  /** A chunk of the job was saved (or, with nothing, the job was taken up): writes what is now in order. */
  chunkSaved(jobId: string, fresh?: { idx: number; samples: Int16Array }): void {
    let assembly = this.assemblies.get(jobId);
    if (!assembly) {
      assembly = { id: jobId, next: 0, again: false, stopped: false };
      this.assemblies.set(jobId, assembly);
    }
    if (fresh?.idx === assembly.next) assembly.fresh = fresh;
    this.kick(assembly);
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

  private kick(assembly: Assembly): void {
    if (assembly.stopped) return;
    if (assembly.running) {
      assembly.again = true;
      return;
    }
    assembly.running = this.run(assembly);
  }

  private async run(assembly: Assembly): Promise<void> {
    try {
      do {
        assembly.again = false;
        await this.writeReadyChunks(assembly);
      } while (assembly.again && !assembly.stopped);
    } catch (error) {
      if (!assembly.stopped) this.events.failed(assembly.id, error);
    } finally {
      // at once, in the same turn as the last look for ready chunks: a chunk saved later starts a new run
      assembly.running = undefined;
    }
  }

  /** Writes the chunks that are next in order and saved; finishes the job after its last one. */
  private async writeReadyChunks(assembly: Assembly): Promise<void> {
    const { store, files, disk } = this.deps;
    const job = store.get(assembly.id);
    if (!job) return;
    while (!assembly.stopped) {
      if (assembly.next === job.chunks_total) return this.finish(assembly);
      const chunk = store.chunkLayout(assembly.id, assembly.next);
      if (!chunk?.done) return;
      if (!assembly.writer) {
        if (this.openWriters >= MAX_OPEN_WRITERS) {
          assembly.fresh = undefined; // a waiting job reads its chunks back when its turn comes
          return;
        }
        this.openWriters++;
        try {
          assembly.writer = await JobAudioWriter.open(files, job, job.sample_rate!, disk);
        } catch (error) {
          this.writerClosed();
          throw error;
        }
      }
      const fresh = assembly.fresh?.idx === chunk.idx ? assembly.fresh.samples : undefined;
      assembly.fresh = undefined;
      await assembly.writer.append(fresh ?? int16View(await readFile(files.chunkFile(assembly.id, chunk.idx))));
      const pause = pauseAfter(chunk.pause_ms, chunk.idx === job.chunks_total - 1, job.sample_rate!);
      if (pause > 0) await assembly.writer.append(new Int16Array(pause));
      assembly.next++;
    }
  }

  private async finish(assembly: Assembly): Promise<void> {
    const audio = await assembly.writer!.finish();
    if (assembly.stopped) return; // cancelled meanwhile: whoever stopped it removes the files
    this.forget(assembly);
    await this.events.done(assembly.id, audio);
  }

  private async stop(assembly: Assembly): Promise<void> {
    assembly.stopped = true;
    await assembly.running;
    await assembly.writer?.close();
    this.forget(assembly);
  }

  private forget(assembly: Assembly): void {
    if (this.assemblies.get(assembly.id) !== assembly) return;
    this.assemblies.delete(assembly.id);
    if (assembly.writer) {
      assembly.writer = undefined;
      this.writerClosed();
    }
  }

  /**
   * A writer's slot is free: the waiting jobs look again, oldest first; the first whose next chunk
   * is ready takes it (in the same turn), the others find none and wait on.
   */
  private writerClosed(): void {
    this.openWriters--;
    for (const waiting of this.assemblies.values()) {
      if (!waiting.writer) this.kick(waiting);
    }
  }
}
