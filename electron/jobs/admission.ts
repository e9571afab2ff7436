import { randomUUID } from 'node:crypto';
import { PCM_SAMPLE_RATE } from '../audio/encode/formats';
import { ApiError, type OutputChoice } from '../contract';
import type { EngineRegistry, Prosody, ResolvedVoice } from '../engines/registry';
import type { DiskBudget } from './disk-budget';
import type { JobRow, JobSeries, NewChunk } from './rows';
import type { JobStore } from './store';

/** What the unfinished jobs (waiting or running) may add up to before new ones are refused. */
export interface QueueBounds {
  maxQueuedJobs: number;
  /** Characters of all unfinished jobs together. */
  maxQueuedChars: number;
}

/**
 * Upper estimate of speech per character, in seconds at rate 1. Measured on prose with every engine
 * installed here: 0.054 to 0.066 s, plus up to 0.005 s of pauses between sentences; the rest is room
 * for slower voices. Text that is mostly numbers reads slower (0.26 to 0.57 s per digit): the check
 * before each chunk is written stops such a job before the disk fills.
 */
export const SECONDS_PER_CHARACTER = 0.1;

/** What a job writes: its format, the bitrate of a lossy one, and whether its WAV stays beside it. */
export interface JobOutput extends OutputChoice {
  keepWav: boolean;
}

/**
 * Lossy formats may pass their bitrate: FFmpeg's AAC encoder gives 75–80 kbps for 64 asked at
 * 22.05 kHz, Opus is variable, containers add their headers (docs/formats.md).
 */
const LOSSY_MARGIN = 1.5;

/** Upper estimate of a job's file in its format, per second of speech. */
function encodedBytesPerSecond(output: JobOutput, sampleRate: number): number {
  switch (output.format) {
    case 'wav':
    case 'flac': // lossless compression never grows the samples (FLAC falls back to verbatim frames)
      return 2 * sampleRate;
    case 'pcm':
      return 2 * PCM_SAMPLE_RATE;
    default:
      return (LOSSY_MARGIN * output.bitrateKbps! * 1000) / 8;
  }
}

/** Upper estimate of the seconds of speech of a text at a speaking rate. */
export const speechSeconds = (characters: number, rate: number) => characters * (SECONDS_PER_CHARACTER / rate);

/** What a finished job keeps, per second of speech: its file in its format and, when kept beside it, its WAV. */
export function keptBytesPerSecond(output: JobOutput, sampleRate: number): number {
  const keptWav = output.keepWav && output.format !== 'wav' ? 2 * sampleRate : 0;
  return encodedBytesPerSecond(output, sampleRate) + keptWav;
}

/**
 * What a running job adds, per second of speech: for a job in another format than WAV, its chunk
 * files (16-bit samples at the voice's rate, kept until it is done: an encoder starts again from
 * the first chunk after a restart). A WAV job's chunks go into its WAV as they arrive in turn; the
 * few ahead of their turn wait in files, which every write's check of the free minimum covers
 * (docs/api.md#disk-space).
 */
export const runningBytesPerSecond = (output: JobOutput, sampleRate: number) => (output.format === 'wav' ? 0 : 2 * sampleRate);

/** The disk a job needs at most while it runs, for its characters at its speaking rate. */
export function estimateAudioBytes(characters: number, rate: number, sampleRate: number, output: JobOutput): number {
  return Math.ceil(speechSeconds(characters, rate) * (runningBytesPerSecond(output, sampleRate) + keptBytesPerSecond(output, sampleRate)));
}

/** A full queue drains by itself: clients are told to come back later. */
const RETRY_AFTER = { retryAfterS: 30 };

/** Throws unless a job of `characters` fits in the queue now (429 queue_full) or ever (413 text_too_long). */
export function assertQueueRoom(store: JobStore, bounds: QueueBounds, characters: number): void {
  const { maxQueuedJobs, maxQueuedChars } = bounds;
  if (characters > maxQueuedChars) {
    throw new ApiError('text_too_long', `text has ${characters} characters; the queue takes at most ${maxQueuedChars} characters.`);
  }
  const queued = store.unfinishedTotals();
  if (queued.jobs >= maxQueuedJobs) {
    throw new ApiError('queue_full', `The queue holds ${maxQueuedJobs} unfinished jobs; try again later.`, RETRY_AFTER);
  }
  if (queued.characters + characters > maxQueuedChars) {
    throw new ApiError(
      'queue_full',
      `The queue holds ${queued.characters} characters of unfinished jobs; ${characters} more would pass its limit of ${maxQueuedChars}. Try again later.`,
      RETRY_AFTER,
    );
  }
}

/** What a new job is, besides its chunks and voice. */
export interface NewJob extends Prosody {
  title: string;
  /** The user's title, kept when a job is retried. */
  customTitle?: string | null;
  characters: number;
  /** When its audio expires; null keeps it until deleted. */
  expiresAt: string | null;
  output: JobOutput;
  /** The job's sample rate, set at once for a job of several voices (SSML); else its first chunk's. */
  sampleRate?: number | null;
  series?: JobSeries | null;
}

/** The disk ledger's key of a job's reservation (disk-budget.ts). */
export const jobDiskKey = (jobId: string) => `job:${jobId}`;

const JOB_WORDING = { what: 'This job', advice: 'Free some space, delete finished jobs, or send a shorter text.' };

/**
 * Admits a job into the queue, or refuses it: its audio must fit on the disk beside what other
 * work has reserved (507; the room is reserved for it until it ends) and the queue must have room
 * for it (429, or 413 when it never will). Returns the stored job, queued.
 */
export async function admitJob(
  deps: { store: JobStore; disk: DiskBudget; bounds: QueueBounds },
  resolved: ResolvedVoice,
  chunks: NewChunk[],
  job: NewJob,
): Promise<JobRow> {
  const { store, disk, bounds } = deps;
  const id = randomUUID();
  const sampleRate = job.sampleRate ?? resolved.voice.sampleRate;
  await disk.reserve(jobDiskKey(id), estimateAudioBytes(job.characters, job.rate, sampleRate, job.output), JOB_WORDING);
  const { title, customTitle = null, characters, rate, pitch, volume, expiresAt, output } = job;
  const voice = { engine: resolved.adapter.id, voice: resolved.voice.id, local_voice: resolved.localName };
  const format = {
    format: output.format,
    bitrate_kbps: output.bitrateKbps ?? null,
    keep_wav: output.keepWav && output.format !== 'wav' ? 1 : 0,
  } as const;
  try {
    // after the wait: the queue is checked and the job inserted in one go
    assertQueueRoom(store, bounds, job.characters);
    store.insert(
      {
        id,
        title,
        custom_title: customTitle,
        characters,
        rate,
        pitch,
        volume,
        ...voice,
        ...format,
        created_at: new Date().toISOString(),
        expires_at: expiresAt,
        sample_rate: job.sampleRate ?? null,
        series: job.series?.id ?? null,
        series_idx: job.series?.idx ?? null,
      },
      chunks,
    );
  } catch (error) {
    disk.release(jobDiskKey(id));
    throw error;
  }
  return store.get(id)!;
}

/**
 * What a job taken up at start may still write: its estimate, less the share of its chunks
 * already done. Held without asking: the job was accepted by an earlier run.
 */
export function unwrittenEstimate(row: JobRow, registry: EngineRegistry): number {
  const output = { format: row.format, bitrateKbps: row.bitrate_kbps ?? undefined, keepWav: row.keep_wav === 1 };
  const left = row.chunks_total === 0 ? 0 : 1 - row.chunks_done / row.chunks_total;
  return estimateAudioBytes(row.characters, row.rate, sampleRateOf(row, registry), output) * left;
}

/** A job's sample rate, or its voice's until its first chunk sets it (48 kHz, more than any voice, if the voice is gone). */
function sampleRateOf(row: JobRow, registry: EngineRegistry): number {
  if (row.sample_rate !== null) return row.sample_rate;
  try {
    return registry.resolve({ voice: row.voice }).voice.sampleRate;
  } catch {
    return 48_000;
  }
}
