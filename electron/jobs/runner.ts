import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { mkdir } from 'node:fs/promises';
import { ApiError } from '../contract';
import { applyGain } from '../audio/gain';
import { durationSeconds, WAV_HEADER_BYTES } from '../audio/wav';
import type { EngineAdapter } from '../engines/engine';
import type { EngineRegistry, ResolvedVoice } from '../engines/registry';
import { PRIVATE_DIR_MODE } from '../storage/private-files';
import { assertQueueRoom, estimateAudioBytes, type QueueBounds } from './admission';
import { assembleWav, wavDataBytes } from './assemble';
import { chunkText, codePoints, titleOf, type Chunk } from './chunker';
import type { DiskBudget } from './disk-budget';
import { JobFiles } from './files';
import { isDiskFull, toJobError, type JobError } from './job-error';
import type { ChunkRow, JobRow, JobStore } from './store';

export interface JobOptions {
  rate: number;
  pitch: number;
  volume: number;
}

export interface RunnerOptions extends QueueBounds {
  store: JobStore;
  registry: EngineRegistry;
  dataDir: string;
  /** Chunks synthesized at once, over all jobs. */
  concurrency: number;
  disk: DiskBudget;
}

export type JobEvent = { type: 'progress' | 'done' | 'failed'; job: JobRow };

/** A failing chunk is tried once more before its job fails. */
const MAX_ATTEMPTS = 2;

interface ActiveJob {
  row: JobRow;
  /**
   * Chunks not yet handed out; their text stays in SQLite until one is dispatched, so a queue
   * of hundreds of long jobs costs a few numbers per job in memory, not its text.
   */
  undispatched: number;
  /** Chunks before this index have been handed out. */
  nextIdx: number;
  abort: AbortController;
  /** Its chunks in flight: their files must be written before the job's folder can go. */
  running: Set<Promise<void>>;
}

/**
 * Runs queued jobs: chunks of all active jobs are handed out round-robin to a fixed number of
 * concurrent slots (the worker pool's batch lane), each finished chunk is persisted at once (so a
 * restart never synthesizes it again), and a job's WAV is assembled when its last chunk is in.
 * Emits "job" events (JobEvent).
 */
export class JobRunner extends EventEmitter<{ job: [JobEvent] }> {
  readonly files: JobFiles;
  private readonly active = new Map<string, ActiveJob>();
  private readonly inFlight = new Set<Promise<void>>();
  /** Chunks being synthesized; a chunk frees its slot as soon as its audio is back, not after it is saved. */
  private synthesizing = 0;
  private turn = 0;
  private started = false;
  private paused = false;
  private stopped = false;

  constructor(private readonly options: RunnerOptions) {
    super();
    this.setMaxListeners(0); // one listener per open event stream
    this.files = new JobFiles(options.dataDir);
  }

  /** Takes up the jobs left queued or running by the last run (a stop or a crash), without running them yet. */
  async recover(): Promise<void> {
    await mkdir(this.files.audioDir(), { recursive: true, mode: PRIVATE_DIR_MODE });
    const { store } = this.options;
    for (const id of store.idsInStates(['running'])) store.transition(id, 'queued');
    for (const id of store.idsInStates(['queued'])) this.activate(id);
  }

  /** Starts synthesizing; the gateway calls it once it listens, so that a failed start synthesizes nothing. */
  start(): void {
    this.started = true;
    this.pump();
  }

  enqueue(resolved: ResolvedVoice, text: string, options: JobOptions, expiresAt: string | null = null): Promise<JobRow> {
    const job = { title: titleOf(text), characters: codePoints(text), ...options };
    return this.insert(resolved, chunkText(text, resolved.voice.language), job, expiresAt);
  }

  /** A new job with the text and settings of an earlier one. */
  retry(row: JobRow, resolved: ResolvedVoice, expiresAt: string | null): Promise<JobRow> {
    const chunks = this.options.store.chunks(row.id).map((c) => ({ text: c.text, pauseMs: c.pause_ms }));
    return this.insert(resolved, chunks, row, expiresAt);
  }

  /** Stops a running job for good: it fails with the code "cancelled". */
  cancel(id: string): void {
    const job = this.active.get(id);
    if (job) this.fail(job, { code: 'cancelled', message: 'The job was cancelled.' });
  }

  /** Deletes a finished job with its audio. */
  async delete(id: string): Promise<void> {
    this.options.store.delete(id);
    await this.files.removeOutputs(id);
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /** Holds back new chunks (chunks in flight finish); jobs stay queued. */
  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.pump();
  }

  /**
   * Stops for a shutdown: no new chunks; chunks in flight get `graceMs` to finish and be saved,
   * then the rest are aborted. Unfinished jobs resume from their saved chunks on the next start.
   */
  async stop(graceMs = 5000): Promise<void> {
    this.stopped = true;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([Promise.allSettled([...this.inFlight]), grace]);
    clearTimeout(timer);
    for (const job of this.active.values()) job.abort.abort();
    await Promise.allSettled([...this.inFlight]);
    this.active.clear();
  }

  private async insert(
    resolved: ResolvedVoice,
    chunks: Chunk[],
    job: JobOptions & Pick<JobRow, 'title' | 'characters'>,
    expiresAt: string | null,
  ): Promise<JobRow> {
    const { store, disk } = this.options;
    await disk.assertRoomForJob(estimateAudioBytes(job.characters, job.rate, resolved.voice.sampleRate));
    // after the wait: the queue is checked and the job inserted in one go
    assertQueueRoom(store, this.options, job.characters);
    const id = randomUUID();
    const { title, characters, rate, pitch, volume } = job;
    const voice = { engine: resolved.adapter.id, voice: resolved.voice.id, local_voice: resolved.localName };
    store.insert(
      { id, title, characters, rate, pitch, volume, ...voice, created_at: new Date().toISOString(), expires_at: expiresAt },
      chunks,
    );
    this.activate(id);
    this.pump();
    return store.get(id)!;
  }

  private activate(id: string): void {
    const row = this.options.store.get(id)!;
    const undispatched = row.chunks_total - row.chunks_done;
    this.active.set(id, { row, undispatched, nextIdx: 0, abort: new AbortController(), running: new Set() });
  }

  /** The job's next chunk not yet handed out, read from SQLite now. */
  private dispatch(job: ActiveJob): ChunkRow | undefined {
    const chunk = this.options.store.nextPendingChunk(job.row.id, job.nextIdx);
    job.undispatched = chunk ? job.undispatched - 1 : 0;
    if (chunk) job.nextIdx = chunk.idx + 1;
    return chunk;
  }

  /** Fills free slots with chunks, taking jobs in turn so that no job starves another. */
  private pump(): void {
    while (this.started && !this.stopped && !this.paused && this.synthesizing < this.options.concurrency) {
      const jobs = [...this.active.values()].filter((j) => j.undispatched > 0);
      if (jobs.length === 0) return;
      const job = jobs[this.turn++ % jobs.length]!;
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
      const run = this.runChunk(job, chunk, releaseSlot)
        .catch((error: Error) => console.error(`Orator: a chunk of job ${job.row.id} broke the runner:`, error))
        .finally(() => {
          releaseSlot();
          this.inFlight.delete(run);
          job.running.delete(run);
        });
      this.inFlight.add(run);
      job.running.add(run);
    }
  }

  private async runChunk(job: ActiveJob, chunk: ChunkRow, releaseSlot: () => void): Promise<void> {
    const { store } = this.options;
    const id = job.row.id;
    try {
      if (job.row.state === 'queued') {
        store.transition(id, 'running');
        job.row = store.get(id)!;
      }
      const adapter = this.adapterOf(job.row);
      const pcm = await this.synthesizeWithRetry(job, chunk, adapter).finally(releaseSlot);
      if (job.abort.signal.aborted) return;
      if (!adapter.capabilities.volume) applyGain(pcm.samples, job.row.volume);
      await this.options.disk.assertRoomToWrite(pcm.samples.byteLength);
      await this.files.writeChunk(id, chunk.idx, pcm.samples);
      if (job.abort.signal.aborted) return;
      const done = store.chunkDone(id, chunk.idx, pcm.samples.length, pcm.sampleRate);
      job.row = store.get(id)!;
      if (job.row.sample_rate !== pcm.sampleRate) throw new ApiError('engine_error', 'The engine changed its sample rate within one job.');
      this.emit('job', { type: 'progress', job: job.row });
      if (done === job.row.chunks_total) await this.finish(job);
    } catch (error) {
      if (!job.abort.signal.aborted) this.fail(job, toJobError(error));
    }
  }

  /** The job's engine, or a clear failure when it is gone (uninstalled since the job was queued). */
  private adapterOf(row: JobRow): EngineAdapter {
    try {
      return this.options.registry.resolve({ voice: row.voice }).adapter;
    } catch (error) {
      throw new ApiError(
        'engine_unavailable',
        `The engine of this job (${row.engine}) is not available any more: ${(error as Error).message}`,
      );
    }
  }

  private async synthesizeWithRetry(job: ActiveJob, chunk: ChunkRow, adapter: EngineAdapter) {
    const { local_voice: voice, rate, pitch, volume } = job.row;
    for (let attempt = 1; ; attempt++) {
      this.options.store.countAttempt(job.row.id, chunk.idx);
      try {
        return await adapter.synthesize({ text: chunk.text, voice, rate, pitch, volume }, { lane: 'batch', signal: job.abort.signal });
      } catch (error) {
        if (attempt >= MAX_ATTEMPTS || job.abort.signal.aborted) throw error;
      }
    }
  }

  private async finish(job: ActiveJob): Promise<void> {
    const { store } = this.options;
    const id = job.row.id;
    const sampleRate = job.row.sample_rate!;
    const target = { wav: this.files.audioFile(id), peaks: this.files.peaksFile(id) };
    const layout = store.chunkLayout(id);
    await this.options.disk.assertRoomToWrite(wavDataBytes(layout, sampleRate));
    const { bytes } = await assembleWav(target, sampleRate, layout, (idx) => this.files.chunkFile(id, idx));
    store.transition(id, 'done', {
      finished_at: new Date().toISOString(),
      audio_bytes: bytes,
      duration_s: durationSeconds(sampleRate, bytes - WAV_HEADER_BYTES),
    });
    this.active.delete(id);
    this.emit('job', { type: 'done', job: store.get(id)! });
    await this.files.removeChunks(id);
  }

  /** Ends a job as failed; a job that has already ended (two chunks failing at once) stays as it is. */
  private fail(job: ActiveJob, error: JobError): void {
    const { store } = this.options;
    const id = job.row.id;
    if (this.active.get(id) !== job) return;
    job.abort.abort();
    this.active.delete(id);
    // the disk ran out: its reserve makes room for SQLite to record why
    if (isDiskFull(error)) this.options.disk.releaseReserve();
    try {
      store.transition(id, 'failed', { finished_at: new Date().toISOString(), error_code: error.code, error_message: error.message });
    } catch (dbError) {
      // e.g. the disk is too full for SQLite too: the job stays unfinished and resumes on the next start
      console.error(`Orator could not record that job ${id} failed (${error.message}):`, dbError);
      return;
    }
    this.emit('job', { type: 'failed', job: store.get(id)! });
    void this.removeWorkFiles(job);
  }

  /**
   * Removes a failed job's files once its chunks in flight have stopped: chunk audio, partial
   * files, and the WAV and peaks if it was cancelled while they were being assembled.
   */
  private async removeWorkFiles(job: ActiveJob): Promise<void> {
    await Promise.allSettled([...job.running]);
    await this.files.removeWork(job.row.id);
  }
}
