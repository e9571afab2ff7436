import { EventEmitter } from 'node:events';
import { mkdir } from 'node:fs/promises';
import { ApiError } from '../contract';
import type { EngineRegistry, Prosody, ResolvedVoice } from '../engines/registry';
import { PRIVATE_DIR_MODE } from '../storage/private-files';
import { unchanged, type Rewrite } from '../lexicon/rewrite';
import { admitJob, assertQueueRoom, jobDiskKey, unwrittenEstimate, type JobOutput, type NewJob, type QueueBounds } from './admission';
import { JobAssembler } from './assembler';
import { JobCompletion } from './completion';
import type { ChunkHandler, ChunkQueue } from './chunk-queue';
import { batchChars, synthesizeChunks } from './chunk-synthesis';
import { codePoints } from '../contract/text';
import { chunkText, sentenceChunks, titleOf } from './chunker';
import type { DiskBudget } from './disk-budget';
import type { JobChanges } from './events';
import { JobFiles } from './files';
import { LocalChunkQueue } from './local-chunk-queue';
import { sentenceSpansOrNull, spokenChunks } from './sentence-spans';
import type { ChunkRow, JobRow, JobSeries, NewChunk } from './rows';
import type { JobStore } from './store';
import type { BaseAudio, BaseSlices } from './base-audio/reuse';
import type { RenderCache } from './render-cache/cache';
import { cachedSynthesizer } from './render-cache/synthesizer';

export interface RunnerOptions extends QueueBounds {
  store: JobStore;
  registry: EngineRegistry;
  dataDir: string;
  /** Chunks synthesized at once, over all jobs. */
  concurrency: number;
  disk: DiskBudget;
  /** Makes the chunk queue (e.g. the Redis one of worker hosts); default: the embedded queue on this process's engines. */
  chunkQueue?: (handler: ChunkHandler) => ChunkQueue;
  /** Sentences' audio kept across renders: the embedded queue synthesizes only what it does not hold. */
  renderCache?: RenderCache;
  /** Takes what a chapter's earlier render holds (JobSeries.base) instead of synthesizing it. */
  baseAudio?: BaseAudio;
}

/**
 * The job engine: admits jobs, has their chunks synthesized by a chunk queue, saves each chunk's
 * audio as it arrives (so a restart never synthesizes it again) and has it joined, in order, into
 * the job's audio while later chunks are synthesized; its JobCompletion ends each job.
 * Emits a "job" event (JobChange) at every change.
 */
export class JobRunner extends EventEmitter<JobChanges> {
  readonly files: JobFiles;
  private readonly queue: ChunkQueue;
  private readonly assembler: JobAssembler;
  private readonly completion: JobCompletion;
  /** Jobs admitted and not yet ended nor paused. */
  private readonly active = new Set<string>();
  private stopping: Promise<void> | undefined;
  private started = false;

  constructor(private readonly options: RunnerOptions) {
    super();
    this.setMaxListeners(0); // one listener per open event stream
    this.files = new JobFiles(options.dataDir);
    // the assembler and the queue report to the completion, which reaches them once they are made
    this.completion = new JobCompletion({
      ...options,
      files: this.files,
      queue: () => this.queue,
      assembler: () => this.assembler,
      active: this.active,
      emit: (change) => this.emit('job', change),
    });
    this.assembler = new JobAssembler({ store: options.store, files: this.files, disk: options.disk }, this.completion);
    const engines = (jobId: string, chunks: ChunkRow[], signal: AbortSignal) => synthesizeChunks(options, jobId, chunks, signal);
    const { renderCache: cache } = options;
    const synthesize = cache ? cachedSynthesizer({ ...options, cache }, engines) : engines;
    const unitSize = (jobId: string) => batchChars(options.registry, options.store.get(jobId)!);
    this.queue =
      options.chunkQueue?.(this.completion) ??
      new LocalChunkQueue(options.store, options.concurrency, synthesize, this.completion, unitSize);
  }

  /** Takes up the jobs left queued or running by the last run (a stop or a crash), without running them yet. */
  async recover(): Promise<void> {
    await mkdir(this.files.audioDir(), { recursive: true, mode: PRIVATE_DIR_MODE });
    const { store } = this.options;
    for (const id of store.idsInStates(['running'])) store.transition(id, 'queued');
    for (const id of store.idsInStates(['queued'])) {
      await this.assembler.takeUp(id);
      const row = store.get(id)!;
      // accepted by an earlier run: its room is held again, without asking
      this.options.disk.hold(jobDiskKey(id), unwrittenEstimate(row, this.options.registry));
      this.activate(row);
    }
  }

  /**
   * Starts synthesizing, and writing the audio of the jobs taken up from their saved chunks; the
   * gateway calls it once it listens, so that a failed start touches no job.
   */
  start(): void {
    this.started = true;
    this.queue.start();
    for (const id of this.active) this.assembler.chunkSaved(id);
  }

  /**
   * `output`: the job's format (docs/formats.md). `spoken` turns each chunk's text into what the
   * engine reads (the pronunciation lexicon): the text is chunked as written, and the chunks are
   * stored as spoken, so a resumed or retried job sounds as it was queued. `series`: the series
   * and place the job takes (a project's chapter), whose chunks are its sentences (the render
   * cache's unit: a change re-renders the sentences it touches).
   */
  enqueue(
    resolved: ResolvedVoice,
    text: string,
    prosody: Prosody,
    expiresAt: string | null,
    output: JobOutput,
    spoken: Rewrite = unchanged,
    series: JobSeries | null = null,
  ): Promise<JobRow> {
    const job = { title: titleOf(text), characters: codePoints(text), ...prosody, expiresAt, output, series };
    const written = (series ? sentenceChunks : chunkText)(text, resolved.voice.language);
    const spans = sentenceSpansOrNull(text, written);
    return this.admit(resolved, spokenChunks(written, spans, spoken), job);
  }

  /**
   * A job whose chunks are made already, each with its own voice and prosody (SSML). With several
   * voices, `job.sampleRate` is the job's: chunks of other rates are brought to it. `base`: a done
   * job whose audio gives the chunks it has a slice for theirs (a job re-rendered, base-audio/).
   */
  enqueueChunks(resolved: ResolvedVoice, chunks: NewChunk[], job: NewJob, base?: BaseSlices): Promise<JobRow> {
    return this.admit(resolved, chunks, job, base);
  }

  /** A new job with the text and settings of an earlier one. */
  retry(row: JobRow, resolved: ResolvedVoice, expiresAt: string | null): Promise<JobRow> {
    const chunks = this.options.store.timings
      .layout(row.id)
      .map((c) => ({ text: c.text, pauseMs: c.pause_ms, sentences: c.sentences, own: c.own }));
    const { title, custom_title: customTitle, characters, rate, pitch, volume } = row;
    const output = { format: row.format, bitrateKbps: row.bitrate_kbps ?? undefined, keepWav: row.keep_wav === 1 };
    const sampleRate = chunks.some((c) => c.own && c.own.voice !== row.voice) ? row.sample_rate : null;
    return this.admit(resolved, chunks, { title, customTitle, characters, rate, pitch, volume, expiresAt, output, sampleRate });
  }

  /**
   * Stops an unfinished job for good: it fails with the code "cancelled". A job of a series keeps
   * its saved chunks and partial audio, for its series to continue it (`resumeJob`); another job's
   * work files are removed.
   */
  cancel(id: string): void {
    const row = this.options.store.get(id);
    if (row) this.completion.cancel(id, row.state === 'paused', row.series !== null);
  }

  /**
   * Holds an unfinished job back (a project paused): its chunks in flight are dropped, those
   * saved and its partial audio kept, and it stays unfinished until `resumeJob`. A job whose every
   * chunk is saved is finishing: it is left to finish (false).
   */
  async pauseJob(id: string): Promise<boolean> {
    const { store } = this.options;
    const row = store.get(id);
    if (!row || !this.active.has(id) || row.chunks_done === row.chunks_total) return false;
    this.active.delete(id);
    await Promise.all([this.queue.remove(id), this.assembler.drop(id)]);
    store.transition(id, 'paused');
    this.emit('job', { type: 'progress', job: store.get(id)! });
    return true;
  }

  /**
   * Takes a paused job up again, or continues a cancelled job of a series from its saved chunks
   * (it counts against the queue's bounds again), as a restart takes up an unfinished job.
   */
  async resumeJob(id: string): Promise<JobRow> {
    const { store } = this.options;
    const row = store.get(id)!;
    if (row.state === 'failed') {
      assertQueueRoom(store, this.options, row.characters);
      store.transition(id, 'queued', { finished_at: null, error_code: null, error_message: null });
    } else {
      store.transition(id, 'queued');
    }
    await this.assembler.takeUp(id);
    this.activate(store.get(id)!);
    // chunks saved before: written now, as at a start
    if (this.started) this.assembler.chunkSaved(id);
    const resumed = store.get(id)!;
    this.emit('job', { type: 'progress', job: resumed });
    return resumed;
  }

  /** Gives a job the user's title (checked by the caller). */
  rename(id: string, title: string): JobRow {
    const { store } = this.options;
    store.rename(id, title);
    const row = store.get(id)!;
    this.emit('job', { type: 'renamed', job: row });
    return row;
  }

  /** Deletes a finished job with its audio, and the work a cancelled job of a series kept. */
  async delete(id: string): Promise<void> {
    const deleted = this.options.store.delete(id);
    if (deleted) this.emit('job', { type: 'deleted', job: deleted });
    await this.files.removeWork(id);
  }

  /** Tells listeners of a change made to a job outside the runner (its audio expired or found missing, a sentence re-rendered). */
  changed(id: string): JobRow | undefined {
    const row = this.options.store.get(id);
    if (row) this.emit('job', { type: 'updated', job: row });
    return row;
  }

  /** The render cache its chapters' sentences go through; a sentence edit's too. */
  get renderCache(): RenderCache | undefined {
    return this.options.renderCache;
  }

  /** The disk ledger its jobs reserve in; whatever else writes a job's files (a sentence edit) asks it too. */
  get disk(): DiskBudget {
    return this.options.disk;
  }

  get isPaused(): boolean {
    return this.queue.isPaused;
  }

  /** Holds back new chunks (chunks in flight finish); jobs stay queued. */
  pause(): void {
    this.queue.pause();
  }

  resume(): void {
    this.queue.resume();
  }

  /**
   * Stops for a shutdown: no new chunks; chunks in flight get `graceMs` to finish and be saved,
   * then the rest are aborted. Unfinished jobs resume from their saved chunks on the next start.
   * A second call waits for the first stop.
   */
  stop(graceMs = 5000): Promise<void> {
    this.stopping ??= (async () => {
      await this.queue.stop(graceMs);
      await this.assembler.stopAll();
      this.active.clear();
    })();
    return this.stopping;
  }

  private async admit(resolved: ResolvedVoice, chunks: NewChunk[], job: NewJob, base?: BaseSlices): Promise<JobRow> {
    await this.queue.assertServes?.(resolved.voice.id);
    if (this.queue.assertServes && chunks.some((chunk) => chunk.own && chunk.own.voice !== resolved.voice.id)) {
      // worker hosts take a job's chunks by the job's voice (jobs/redis/)
      throw new ApiError('invalid_request', 'A job of several voices runs on the embedded queue only, not on worker hosts.');
    }
    const { store } = this.options;
    let row = await admitJob({ store, disk: this.options.disk, bounds: this.options }, resolved, chunks, job);
    if ((await this.takeBase(row.id, job, base)) > 0) row = store.get(row.id)!;
    // before it is queued, so that its "added" comes before any progress of it (BullMQ's "added")
    this.emit('job', { type: 'added', job: row });
    this.activate(row);
    // chunks it took from an earlier render: written now
    if (this.started && row.chunks_done > 0) this.assembler.chunkSaved(row.id);
    return row;
  }

  /** Chunks a new job takes from a done job's audio instead of synthesizing them: the slices given, or its chapter's last render aligned. */
  private async takeBase(jobId: string, job: NewJob, base: BaseSlices | undefined): Promise<number> {
    const { baseAudio } = this.options;
    if (!baseAudio) return 0;
    if (base) return baseAudio.take(jobId, base.jobId, base.slices);
    return job.series?.base ? baseAudio.reuse(jobId, job.series.base) : 0;
  }

  private activate(row: JobRow): void {
    this.active.add(row.id);
    this.queue.add(row);
  }
}
