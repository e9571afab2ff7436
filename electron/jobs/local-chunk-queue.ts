import type { Pcm } from '../audio/pcm';
import type { ChunkHandler, ChunkQueue } from './chunk-queue';
import type { ChunkRow, JobRow, JobStore } from './store';

/** Synthesizes one chunk of a job; rejects on failure (after its own retries). */
export type ChunkSynthesizer = (jobId: string, chunk: ChunkRow, signal: AbortSignal) => Promise<Pcm>;

interface QueuedJob {
  id: string;
  /**
   * Chunks not yet handed out; their text stays in SQLite until one is dispatched, so a queue
   * of hundreds of long jobs costs a few numbers per job in memory, not its text.
   */
  undispatched: number;
  /** Chunks before this index have been handed out. */
  nextIdx: number;
  abort: AbortController;
  /** Its chunks in flight: removing the job waits for them. */
  running: Set<Promise<void>>;
}

/**
 * The embedded chunk queue: chunks of all its jobs are handed out round-robin to a fixed number of
 * concurrent slots on this machine's engines (the worker pool's batch lane). A chunk frees its slot
 * as soon as its audio is back, before it is saved, so saving never holds an engine idle.
 */
export class LocalChunkQueue implements ChunkQueue {
  private readonly jobs = new Map<string, QueuedJob>();
  private readonly inFlight = new Set<Promise<void>>();
  private synthesizing = 0;
  private turn = 0;
  private started = false;
  private paused = false;
  private stopped = false;

  constructor(
    private readonly store: JobStore,
    /** Chunks synthesized at once, over all jobs. */
    private readonly concurrency: number,
    private readonly synthesize: ChunkSynthesizer,
    private readonly handler: ChunkHandler,
  ) {}

  add(row: JobRow): void {
    const undispatched = row.chunks_total - row.chunks_done;
    this.jobs.set(row.id, { id: row.id, undispatched, nextIdx: 0, abort: new AbortController(), running: new Set() });
    this.pump();
  }

  async remove(jobId: string): Promise<void> {
    const job = this.jobs.get(jobId);
    if (!job) return;
    this.jobs.delete(jobId);
    job.abort.abort();
    await Promise.allSettled([...job.running]);
  }

  forget(jobId: string): void {
    this.jobs.delete(jobId);
  }

  start(): void {
    this.started = true;
    this.pump();
  }

  get isPaused(): boolean {
    return this.paused;
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.pump();
  }

  async stop(graceMs: number): Promise<void> {
    this.stopped = true;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([Promise.allSettled([...this.inFlight]), grace]);
    clearTimeout(timer);
    for (const job of this.jobs.values()) job.abort.abort();
    await Promise.allSettled([...this.inFlight]);
    this.jobs.clear();
  }

  /** The job's next chunk not yet handed out, read from SQLite now. */
  private dispatch(job: QueuedJob): ChunkRow | undefined {
    const chunk = this.store.nextPendingChunk(job.id, job.nextIdx);
    job.undispatched = chunk ? job.undispatched - 1 : 0;
    if (chunk) job.nextIdx = chunk.idx + 1;
    return chunk;
  }

  /** Fills free slots with chunks, taking jobs in turn so that no job starves another. */
  private pump(): void {
    while (this.started && !this.stopped && !this.paused && this.synthesizing < this.concurrency) {
      const waiting = [...this.jobs.values()].filter((j) => j.undispatched > 0);
      if (waiting.length === 0) return;
      const job = waiting[this.turn++ % waiting.length]!;
      const chunk = this.dispatch(job);
      if (!chunk) continue;
      this.synthesizing++;
      let released = false;
      const releaseSlot = () => {
        if (released) return;
        released = true;
        this.synthesizing--;
        this.pump();
      };
      const run = this.run(job, chunk, releaseSlot)
        .catch((error: Error) => console.error(`Orator: a chunk of job ${job.id} broke the queue:`, error))
        .finally(() => {
          releaseSlot();
          this.inFlight.delete(run);
          job.running.delete(run);
        });
      this.inFlight.add(run);
      job.running.add(run);
    }
  }

  private async run(job: QueuedJob, chunk: ChunkRow, releaseSlot: () => void): Promise<void> {
    const { signal } = job.abort;
    try {
      this.handler.starting(job.id);
      const pcm = await this.synthesize(job.id, chunk, signal).finally(releaseSlot);
      if (signal.aborted) return;
      await this.handler.completed(job.id, chunk, pcm, signal);
    } catch (error) {
      if (!signal.aborted) this.handler.failed(job.id, error);
    }
  }
}
