import { ApiError } from '../../contract';
import type { Pcm } from '../../audio/pcm';
import type { ChunkHandler, ChunkQueue } from '../chunk-queue';
import type { ChunkRow, JobRow } from '../rows';
import type { JobStore } from '../store';
import type { FleetEngines } from './fleet-engines';
import { chunkTaskId, failureOf, TASK_OPTIONS, type ChunkTask } from './names';
import { VoiceQueues } from './voice-queues';

/** How often the gateway looks for what it may have missed: failures while it was down, tasks Redis lost. */
const RECONCILE_EVERY_MS = 10_000;
/** Chunk tasks added to Redis in one call. */
const ADD_BATCH = 500;

interface TrackedJob {
  id: string;
  voice: string;
  abort: AbortController;
  /** Chunk audio being saved: removing the job waits for it. */
  saving: Set<Promise<void>>;
  /** Its unfinished chunks are in Redis (false until added, or again once Redis lost them). */
  enqueued: boolean;
}

/** What became of a chunk's audio sent by a worker host. */
export type Receipt = 'saved' | 'duplicate';

/**
 * The chunk queue of worker hosts: each unfinished chunk is a BullMQ task in its voice's queue;
 * hosts take them, and send the audio back to the gateway (receive), which saves it through the
 * runner as the embedded queue would. BullMQ does the retries, the stalled-task detection (a dead
 * host's chunk goes back) and the rate limits; SQLite stays the record of the jobs, so a task is
 * added again whenever Redis has lost it, and a chunk already saved is never saved twice.
 */
export class RedisChunkQueue implements ChunkQueue {
  private readonly jobs = new Map<string, TrackedJob>();
  /** Task ids whose audio is being saved: a second copy (a host thought dead came back) waits. */
  private readonly receiving = new Set<string>();
  private readonly voices: VoiceQueues;
  private started = false;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  /**
   * Jobs' chunks are added to Redis one job after another, in the order the jobs came: hosts take
   * tasks first in, first out, so a project's chapters, queued in reading order, come in that
   * order (two jobs added at once had the second's chunks ahead of the first's).
   */
  private adding: Promise<unknown> = Promise.resolve();

  constructor(
    url: string,
    private readonly store: JobStore,
    private readonly handler: ChunkHandler,
    private readonly fleet: FleetEngines,
  ) {
    this.voices = new VoiceQueues(url, {
      active: (taskId) => this.tracked(taskId) && this.handler.starting(jobOf(taskId)),
      failed: (taskId, reason) => this.tracked(taskId) && this.handler.failed(jobOf(taskId), failureOf(reason)),
    });
  }

  async assertServes(voice: string): Promise<void> {
    if (await this.fleet.serves(voice)) return;
    throw new ApiError(
      'engine_unavailable',
      `No worker host serves the voice ${voice} now: start one that has it (docs/scale.md), or choose another voice.`,
      { retryAfterS: 30 },
    );
  }

  add(row: JobRow): void {
    const job = { id: row.id, voice: row.voice, abort: new AbortController(), saving: new Set<Promise<void>>(), enqueued: false };
    this.jobs.set(row.id, job);
    if (this.started) this.adding = this.adding.then(() => this.enqueue(job)).then(() => this.publishWanted());
  }

  async remove(jobId: string): Promise<void> {
    const job = this.jobs.get(jobId);
    if (!job) return;
    this.jobs.delete(jobId);
    job.abort.abort();
    await Promise.allSettled([...job.saving]);
    await this.withdraw(job).catch((error: Error) =>
      console.warn(`Orator could not withdraw the chunks of job ${jobId}: ${error.message}`),
    );
    await this.publishWanted();
  }

  forget(jobId: string): void {
    this.jobs.delete(jobId);
    void this.publishWanted();
  }

  start(): void {
    this.started = true;
    void this.voices
      .start()
      .then(() => this.reconcile())
      .catch((error: Error) => console.warn(`Orator: the Redis queue is not reachable yet: ${error.message}`));
    this.timer = setInterval(() => void this.reconcile(), RECONCILE_EVERY_MS);
    this.timer.unref();
  }

  get isPaused(): boolean {
    return this.voices.isPaused;
  }

  pause(): void {
    void this.voices.pause().catch((error: Error) => console.warn(`Orator could not pause the Redis queue: ${error.message}`));
  }

  resume(): void {
    void this.voices.resume().catch((error: Error) => console.warn(`Orator could not resume the Redis queue: ${error.message}`));
  }

  /** Worker hosts keep their chunks meanwhile and send them once a gateway listens again. */
  async stop(graceMs: number): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    const saving = [...this.jobs.values()].flatMap((job) => [...job.saving]);
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([Promise.allSettled(saving), grace]);
    clearTimeout(timer);
    for (const job of this.jobs.values()) job.abort.abort();
    await Promise.allSettled(saving);
    this.jobs.clear();
    await this.voices.close();
  }

  /**
   * A chunk's audio from a worker host: saved once. A chunk already saved is acknowledged and
   * dropped; a copy arriving while the first is being saved is refused for now (409), so that the
   * host asks again and then hears it is a duplicate. Throws job_gone for a job that ended.
   */
  async receive(jobId: string, idx: number, pcm: Pcm, attempts: number): Promise<Receipt> {
    const job = this.jobs.get(jobId);
    if (!job || this.stopped) throw jobGone(jobId);
    const chunk = this.store.chunk(jobId, idx);
    if (!chunk) throw new ApiError('not_found', `Job ${jobId} has no chunk ${idx}.`);
    if (chunk.done) return 'duplicate';
    const taskId = chunkTaskId(jobId, idx);
    if (this.receiving.has(taskId)) {
      throw new ApiError('chunk_in_progress', `Chunk ${idx} of job ${jobId} is being saved; ask again.`, { retryAfterS: 1 });
    }
    this.receiving.add(taskId);
    const { signal } = job.abort;
    const saving = (async () => {
      this.store.recordAttempts(jobId, idx, attempts);
      this.handler.starting(jobId);
      await this.handler.completed(jobId, chunk, pcm, signal);
    })();
    job.saving.add(saving);
    try {
      await saving;
    } catch (error) {
      if (!signal.aborted) this.handler.failed(jobId, error);
      throw error;
    } finally {
      job.saving.delete(saving);
      this.receiving.delete(taskId);
    }
    if (signal.aborted) throw jobGone(jobId);
    return 'saved';
  }

  private tracked(taskId: string): boolean {
    return this.jobs.has(jobOf(taskId));
  }

  /** Adds the job's unfinished chunks as tasks; those still in Redis stay as they are (same task ids). */
  private async enqueue(job: TrackedJob): Promise<void> {
    const row = this.store.get(job.id);
    if (!row) return;
    try {
      const queue = await this.voices.queue(job.voice);
      const pending = this.store.pendingChunks(job.id);
      for (let start = 0; start < pending.length; start += ADD_BATCH) {
        if (!this.jobs.has(job.id)) return;
        const tasks = pending.slice(start, start + ADD_BATCH).map((chunk) => {
          const data: ChunkTask = { job: job.id, idx: chunk.idx, text: chunk.text, ...taskVoice(row, chunk) };
          return { name: 'chunk', data, opts: { ...TASK_OPTIONS, jobId: chunkTaskId(job.id, chunk.idx) } };
        });
        await queue.addBulk(tasks);
      }
      job.enqueued = true;
    } catch (error) {
      console.warn(`Orator could not queue the chunks of job ${job.id} in Redis (tried again shortly): ${(error as Error).message}`);
    }
  }

  /** Takes the job's tasks out of Redis: waiting, delayed and failed ones; a task being synthesized is refused at upload. */
  private async withdraw(job: TrackedJob): Promise<void> {
    const queue = await this.voices.queue(job.voice);
    const pending = this.store.pendingChunks(job.id);
    await Promise.all(pending.map((chunk) => queue.remove(chunkTaskId(job.id, chunk.idx))));
  }

  /** Catches up with what happened while this gateway was not listening, or Redis forgot. */
  private async reconcile(): Promise<void> {
    if (this.stopped) return;
    try {
      if (!(await this.voices.epochKept())) {
        for (const job of this.jobs.values()) job.enqueued = false;
        await this.voices.markEpoch();
      }
      for (const job of [...this.jobs.values()]) if (!job.enqueued) await this.enqueue(job);
      await this.publishWanted();
      for (const task of await this.voices.failedTasks()) {
        if (this.tracked(task.id)) this.handler.failed(jobOf(task.id), failureOf(task.reason));
      }
    } catch (error) {
      console.warn(`Orator could not check the Redis queue: ${(error as Error).message}`);
    }
  }

  private publishWanted(): Promise<unknown> {
    if (!this.started || this.stopped) return Promise.resolve();
    return this.voices.setWanted(new Set([...this.jobs.values()].map((job) => job.voice)));
  }
}

/** The job's voice and prosody, or the chunk's own prosody (SSML; a job of several voices is refused here, runner.ts). */
function taskVoice(row: JobRow, chunk: ChunkRow): Omit<ChunkTask, 'job' | 'idx' | 'text'> {
  const { rate, pitch, volume } = chunk.rate === null ? row : { rate: chunk.rate, pitch: chunk.pitch!, volume: chunk.volume! };
  return { engine: row.engine, voice: row.voice, rate, pitch, volume };
}

function jobOf(taskId: string): string {
  return taskId.slice(0, taskId.lastIndexOf('.'));
}

function jobGone(jobId: string): ApiError {
  return new ApiError('job_gone', `Job ${jobId} is not running any more (cancelled, failed or deleted): its chunks are not needed.`);
}
