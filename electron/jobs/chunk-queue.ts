import type { Pcm } from '../audio/pcm';
import type { ChunkRow, JobRow } from './rows';

/**
 * Where a job's chunks are synthesized. The runner admits jobs, persists chunk audio, assembles
 * and fails jobs; a chunk queue only decides which chunk runs when and where, and hands each
 * chunk's audio (or its failure) back through a ChunkHandler. The embedded queue runs chunks on
 * this process's engines (LocalChunkQueue); another backend (worker hosts behind a shared queue)
 * is another implementation of this interface.
 */
export interface ChunkQueue {
  /** Throws (an ApiError) when no one can synthesize chunks of this voice now; the embedded queue always can. */
  assertServes?(voice: string): Promise<void>;
  /** Takes up a job whose unfinished chunks are pending in the store. */
  add(job: JobRow): void;
  /** Hands out no more of the job's chunks and aborts those in flight; resolves once they stopped. */
  remove(jobId: string): Promise<void>;
  /** Forgets a job whose chunks are all done. */
  forget(jobId: string): void;
  /** Starts handing out chunks; nothing runs before, so that a failed start synthesizes nothing. */
  start(): void;
  /** Holds back new chunks (chunks in flight finish); jobs stay queued. */
  pause(): void;
  resume(): void;
  readonly isPaused: boolean;
  /** No new chunks; chunks in flight get `graceMs` to finish and be handed back, then are aborted. */
  stop(graceMs: number): Promise<void>;
}

/** The runner's side of the seam: what a chunk queue reports. */
export interface ChunkHandler {
  /** A chunk of the job is about to be synthesized. */
  starting(jobId: string): void;
  /**
   * A chunk's audio is back; resolves once it is saved (a stop waits for that). `signal` aborts
   * when the job is removed meanwhile: then the chunk is not recorded. `canWait`: nothing waits on
   * the answer (the embedded queue's slot is free already), so a chunk a little ahead of its turn
   * may wait in memory for it rather than be saved to its file (assembler.ts).
   */
  completed(jobId: string, chunk: ChunkRow, pcm: Pcm, signal: AbortSignal, canWait?: boolean): Promise<void>;
  /** A chunk failed for good: the job fails. */
  failed(jobId: string, error: unknown): void;
}
