import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { ApiError } from '../contract';
import { applyGain } from '../audio/gain';
import { durationSeconds, pcmBytes, WAV_HEADER_BYTES } from '../audio/wav';
import type { EngineRegistry, ResolvedVoice } from '../engines/registry';
import { assembleWav } from './assemble';
import { chunkText, codePoints } from './chunker';
import { JobFiles, PARTIAL } from './files';
import type { ChunkRow, JobRow, JobStore } from './store';

export interface JobOptions {
  rate: number;
  pitch: number;
  volume: number;
}

export interface RunnerOptions {
  store: JobStore;
  registry: EngineRegistry;
  dataDir: string;
  /** Chunks synthesized at once, over all jobs. */
  concurrency: number;
  /** Jobs waiting or running before new ones are refused. */
  maxQueuedJobs: number;
}

export type JobEvent = { type: 'progress' | 'done' | 'failed'; job: JobRow };

/** One chunk try: a failing chunk is tried once more before its job fails. */
const MAX_ATTEMPTS = 2;

interface ActiveJob {
  row: JobRow;
  pending: ChunkRow[];
  abort: AbortController;
}

/**
 * Runs queued jobs: chunks of all active jobs are handed out round-robin to a fixed number of
 * concurrent slots (the worker pool's batch lane), finished chunks are persisted at once, and a
 * job's WAV is assembled when its last chunk is in. Emits "job" events (JobEvent).
 */
export class JobRunner extends EventEmitter<{ job: [JobEvent] }> {
  private readonly active = new Map<string, ActiveJob>();
  private readonly files: JobFiles;
  private running = 0;
  private turn = 0;
  private stopped = false;

  constructor(private readonly options: RunnerOptions) {
    super();
    this.files = new JobFiles(options.dataDir);
  }

  get jobFiles(): JobFiles {
    return this.files;
  }

  /** Resumes jobs left queued or running by the last run (a stop or a crash). */
  async start(): Promise<void> {
    await mkdir(this.files.audioDir(), { recursive: true });
    const { store } = this.options;
    for (const id of store.idsInStates(['running'])) store.transition(id, 'queued');
    for (const id of store.idsInStates(['queued'])) this.activate(id);
    this.pump();
  }

  enqueue(resolved: ResolvedVoice, text: string, options: JobOptions): JobRow {
    const { store, maxQueuedJobs } = this.options;
    if (store.countInStates(['queued', 'running']) >= maxQueuedJobs) {
      throw new ApiError('queue_full', `The queue holds ${maxQueuedJobs} unfinished jobs; try again later.`, { 'retry-after': '30' });
    }
    const id = randomUUID();
    const chunks = chunkText(text, resolved.voice.language);
    store.insert(
      {
        id,
        engine: resolved.adapter.id,
        voice: resolved.voice.id,
        local_voice: resolved.localName,
        ...options,
        characters: codePoints(text),
        created_at: new Date().toISOString(),
      },
      chunks,
    );
    this.activate(id);
    this.pump();
    return store.get(id)!;
  }

  /** Stops handing out chunks and aborts those in flight; their jobs resume on the next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const job of this.active.values()) job.abort.abort();
    this.active.clear();
  }

  private activate(id: string): void {
    const row = this.options.store.get(id)!;
    this.active.set(id, { row, pending: this.options.store.pendingChunks(id), abort: new AbortController() });
  }

  /** Fills free slots with chunks, taking jobs in turn so that no job starves another. */
  private pump(): void {
    while (!this.stopped && this.running < this.options.concurrency) {
      const jobs = [...this.active.values()].filter((j) => j.pending.length > 0);
      if (jobs.length === 0) return;
      const job = jobs[this.turn++ % jobs.length]!;
      const chunk = job.pending.shift()!;
      this.running++;
      void this.runChunk(job, chunk).finally(() => {
        this.running--;
        this.pump();
      });
    }
  }

  private async runChunk(job: ActiveJob, chunk: ChunkRow): Promise<void> {
    const { store, registry } = this.options;
    try {
      if (job.row.state === 'queued') {
        store.transition(job.row.id, 'running');
        job.row = store.get(job.row.id)!;
      }
      const adapter = registry.resolve({ voice: job.row.voice }).adapter;
      const pcm = await this.synthesizeWithRetry(job, chunk, adapter);
      if (job.abort.signal.aborted) return;
      if (!adapter.capabilities.volume) applyGain(pcm.samples, job.row.volume);
      const file = this.files.chunkFile(job.row.id, chunk.idx);
      await mkdir(this.files.chunkDir(job.row.id), { recursive: true });
      await writeFile(file + PARTIAL, pcmBytes(pcm.samples));
      await rename(file + PARTIAL, file);
      if (job.abort.signal.aborted) return;
      const done = store.chunkDone(job.row.id, chunk.idx, pcm.samples.length, pcm.sampleRate);
      job.row = store.get(job.row.id)!;
      this.emit('job', { type: 'progress', job: job.row });
      if (done === job.row.chunks_total) await this.finish(job);
    } catch (error) {
      if (!job.abort.signal.aborted) this.fail(job, toApiError(error));
    }
  }

  private async synthesizeWithRetry(job: ActiveJob, chunk: ChunkRow, adapter: ResolvedVoice['adapter']) {
    const request = { text: chunk.text, voice: job.row.local_voice, rate: job.row.rate, pitch: job.row.pitch, volume: job.row.volume };
    for (let attempt = 1; ; attempt++) {
      this.options.store.countAttempt(job.row.id, chunk.idx);
      try {
        return await adapter.synthesize(request, { lane: 'batch', signal: job.abort.signal });
      } catch (error) {
        if (attempt >= MAX_ATTEMPTS || job.abort.signal.aborted) throw error;
      }
    }
  }

  private async finish(job: ActiveJob): Promise<void> {
    const { store } = this.options;
    const id = job.row.id;
    const chunks = store.chunks(id);
    const bytes = await assembleWav(this.files.audioFile(id), job.row.sample_rate!, chunks, (idx) => this.files.chunkFile(id, idx));
    store.transition(id, 'done', {
      finished_at: new Date().toISOString(),
      audio_bytes: bytes,
      duration_s: durationSeconds(job.row.sample_rate!, bytes - WAV_HEADER_BYTES),
    });
    this.active.delete(id);
    await rm(this.files.chunkDir(id), { recursive: true, force: true });
    this.emit('job', { type: 'done', job: store.get(id)! });
  }

  private fail(job: ActiveJob, error: ApiError): void {
    const { store } = this.options;
    job.abort.abort();
    this.active.delete(job.row.id);
    store.transition(job.row.id, 'failed', { finished_at: new Date().toISOString(), error_code: error.code, error_message: error.message });
    void rm(this.files.chunkDir(job.row.id), { recursive: true, force: true });
    this.emit('job', { type: 'failed', job: store.get(job.row.id)! });
  }
}

function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError('engine_error', `The engine failed: ${(error as Error).message ?? String(error)}`);
}
