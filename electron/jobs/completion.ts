import { resampleWhole } from '../audio/encode/resampler';
import type { Pcm } from '../audio/pcm';
import { jobDiskKey } from './admission';
import type { AssemblyEvents, JobAssembler } from './assembler';
import type { WrittenAudio } from './audio-writer';
import type { ChunkHandler, ChunkQueue } from './chunk-queue';
import type { DiskBudget } from './disk-budget';
import type { JobChange } from './events';
import type { JobFiles } from './files';
import { JobFinisher } from './finisher';
import { toJobError, type JobError } from './job-error';
import { parseSpans, type ChunkRow } from './rows';
import { sentenceSamples } from './sentence-spans';
import type { JobStore } from './store';

export interface CompletionDeps {
  store: JobStore;
  disk: DiskBudget;
  files: JobFiles;
  /** The two report to the completion, so they are made after it. */
  queue(): ChunkQueue;
  assembler(): JobAssembler;
  /** The runner's jobs admitted and not yet ended nor paused: a job leaves it as it ends. */
  active: Set<string>;
  emit(change: JobChange): void;
}

/**
 * The runner's finishing path: records each chunk's audio as the chunk queue hands it back, and
 * ends each job: done once the assembler has its audio complete, or its failure recorded and its
 * work files removed.
 */
export class JobCompletion implements ChunkHandler, AssemblyEvents {
  private readonly finisher: JobFinisher;

  constructor(private readonly deps: CompletionDeps) {
    this.finisher = new JobFinisher(deps);
  }

  /** The job starts running at its first chunk. */
  starting(id: string): void {
    const { store } = this.deps;
    if (store.get(id)?.state === 'queued') store.transition(id, 'running');
  }

  /**
   * Records a chunk's audio, at the job's rate where the job has one already (a chunk of another
   * voice in SSML), and hands it to the job's audio: straight into a WAV job's WAV when it is the
   * next in turn, else through its chunk file. The last chunk's audio ends the job.
   */
  async completed(id: string, chunk: ChunkRow, produced: Pcm, signal: AbortSignal, canWait = false): Promise<void> {
    const { store, disk, files } = this.deps;
    const assembler = this.deps.assembler();
    // a read once the job has its rate; the write only until then
    const jobRate = store.get(id)?.sample_rate ?? store.claimSampleRate(id, produced.sampleRate);
    const pcm = { sampleRate: jobRate, samples: await resampleWhole(produced.samples, produced.sampleRate, jobRate) };
    const audio = {
      samples: pcm.samples.length,
      sampleRate: pcm.sampleRate,
      sentences: sentenceSamples(chunk.text, parseSpans(chunk.sentences), pcm),
    };
    const record = (joined: boolean) => {
      store.chunkDone(id, chunk.idx, audio, joined);
      this.deps.emit({ type: 'progress', job: store.get(id)! });
    };
    const wait = canWait ? signal : undefined;
    if (signal.aborted || (await assembler.offer(id, chunk.idx, pcm.samples, () => record(true), wait))) return;
    if (signal.aborted) return; // stopped while it waited for its turn
    await disk.write(jobDiskKey(id), pcm.samples.byteLength);
    await files.writeChunk(id, chunk.idx, pcm.samples);
    if (signal.aborted) return;
    record(false);
    assembler.chunkSaved(id);
  }

  /** The job's audio is complete: it is done, and its chunk files go. */
  async done(id: string, audio: WrittenAudio): Promise<void> {
    const { active, disk, files } = this.deps;
    if (!active.has(id)) return; // cancelled as its audio was finished: its files are being removed
    const finished = this.finisher.recordDone(id, audio);
    disk.release(jobDiskKey(id));
    active.delete(id);
    this.deps.queue().forget(id);
    this.deps.emit({ type: 'done', job: finished });
    await files.removeChunks(id);
  }

  /** A chunk failed for good, or writing the job's audio did: the job fails. */
  failed(id: string, error: unknown): void {
    this.fail(id, toJobError(error));
  }

  /**
   * Stops an unfinished job for good: it fails with the code "cancelled". `keepWork`: its saved
   * chunks and partial audio stay (a job of a series); else its work files are removed.
   */
  cancel(id: string, paused: boolean, keepWork: boolean): void {
    const error = { code: 'cancelled', message: 'The job was cancelled.' };
    if (!paused) return this.fail(id, error, keepWork);
    const failed = this.finisher.recordFailure(id, error);
    if (failed) this.deps.emit({ type: 'failed', job: failed });
    if (!keepWork) void this.deps.files.removeWork(id);
  }

  /** Ends a job as failed; a job that has already ended (two chunks failing at once) stays as it is. */
  private fail(id: string, error: JobError, keepWork = false): void {
    const { active, disk, files } = this.deps;
    if (!active.delete(id)) return;
    disk.release(jobDiskKey(id));
    // its chunks in flight and its audio writer stop before its files go: chunk audio, partial
    // files, and its audio and peaks if it was cancelled as they were being finished
    const stopped = Promise.all([this.deps.queue().remove(id), this.deps.assembler().drop(id)]);
    const row = this.finisher.recordFailure(id, error);
    if (!row) return;
    this.deps.emit({ type: 'failed', job: row });
    if (!keepWork) void stopped.then(() => files.removeWork(id));
  }
}
