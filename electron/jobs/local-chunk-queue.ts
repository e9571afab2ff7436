import type { Pcm } from '../audio/pcm';
import type { ChunkHandler, ChunkQueue } from './chunk-queue';
import type { ChunkRow, JobRow } from './rows';
import type { JobStore } from './store';

/** Synthesizes consecutive chunks of a job, audio for each; rejects on failure (after its own retries). */
export type ChunkSynthesizer = (jobId: string, chunks: ChunkRow[], signal: AbortSignal) => Promise<Pcm[]>;

/** Characters of a job's consecutive chunks handed out together (its engine's batch size); 0 for one at a time. */
export type UnitSize = (jobId: string) => number;

interface QueuedJob {
  id: string;
  /** Jobs of one series share a turn; the others each have their own. */
  lane: string;
  /** Its place in its series (0 for a job of none). */
  order: number;
  /**
   * Chunks not yet handed out; their text stays in SQLite until one is dispatched, so a queue
   * of hundreds of long jobs costs a few numbers per job in memory, not its text.
   */
  undispatched: number;
  /** Chunks before this index have been handed out. */
  nextIdx: number;
  /** Characters of chunks handed out together at most (UnitSize). */
  unitChars: number;
  abort: AbortController;
  /** Its chunks in flight: removing the job waits for them. */
  running: Set<Promise<void>>;
}

/**
 * The embedded chunk queue: chunks are handed out to a fixed number of concurrent slots on this
 * machine's engines (the worker pool's batch lane), one at a time or, for engines that take
 * batches, as many consecutive ones as fit the job's unit size. A unit frees its slot as soon as
 * its audio is back, before it is saved, so saving never holds an engine idle.
 *
 * Turns go round-robin between lanes: each job is a lane, but the jobs of a series (a book's
 * chapters, JobSeries) are one lane, served in their order. So a book renders as it is read,
 * its first chapter done first, and takes one turn among the other clients' jobs whatever its
 * number of chapters, neither starving them nor starved (docs/projects.md).
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
    private readonly unitSize: UnitSize = () => 0,
  ) {}

  add(row: JobRow): void {
    const undispatched = row.chunks_total - row.chunks_done;
    const unitChars = this.unitSize(row.id);
    const lane = row.series === null ? `job:${row.id}` : `series:${row.series}`;
    const order = row.series_idx ?? 0;
    const job = {
      id: row.id,
      lane,
      order,
      undispatched,
      nextIdx: 0,
      unitChars,
      abort: new AbortController(),
      running: new Set<Promise<void>>(),
    };
    this.jobs.set(row.id, job);
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

  /** The job's next chunks not yet handed out (one, or a unit of them), read from SQLite now. */
  private dispatch(job: QueuedJob): ChunkRow[] {
    const unit: ChunkRow[] = [];
    let chars = 0;
    for (;;) {
      const chunk = this.store.nextPendingChunk(job.id, job.nextIdx);
      if (!chunk) {
        job.undispatched = 0;
        return unit;
      }
      chars += chunk.text.length;
      if (unit.length > 0 && chars > job.unitChars) return unit;
      unit.push(chunk);
      job.undispatched--;
      job.nextIdx = chunk.idx + 1;
      if (job.undispatched === 0) return unit;
    }
  }

  /** The job whose chunks come next: lanes in turn; in a series' lane, its first job with chunks left. */
  private nextJob(): QueuedJob | undefined {
    const heads = new Map<string, QueuedJob>();
    for (const job of this.jobs.values()) {
      if (job.undispatched === 0) continue;
      const head = heads.get(job.lane);
      if (!head || job.order < head.order) heads.set(job.lane, job);
    }
    if (heads.size === 0) return undefined;
    return [...heads.values()][this.turn++ % heads.size];
  }

  /** Fills free slots with chunks, taking lanes in turn so that none starves another. */
  private pump(): void {
    while (this.started && !this.stopped && !this.paused && this.synthesizing < this.concurrency) {
      const job = this.nextJob();
      if (!job) return;
      const unit = this.dispatch(job);
      if (unit.length === 0) continue;
      this.synthesizing++;
      let released = false;
      const releaseSlot = () => {
        if (released) return;
        released = true;
        this.synthesizing--;
        this.pump();
      };
      const run = this.run(job, unit, releaseSlot)
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

  private async run(job: QueuedJob, unit: ChunkRow[], releaseSlot: () => void): Promise<void> {
    const { signal } = job.abort;
    try {
      this.handler.starting(job.id);
      const pcms = await this.synthesize(job.id, unit, signal).finally(releaseSlot);
      for (const [i, chunk] of unit.entries()) {
        if (signal.aborted) return;
        await this.handler.completed(job.id, chunk, pcms[i]!, signal, true);
      }
    } catch (error) {
      if (!signal.aborted) this.handler.failed(job.id, error);
    }
  }
}
