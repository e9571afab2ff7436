/** The rows of the jobs and chunks tables as the rest of the code reads them; store.ts holds their SQL. */
import type { OutputFormat } from '../contract';
import type { SampleRange } from '../audio/pauses';
import type { Chunk } from './chunker';
import type { SentenceSpan } from './sentence-spans';
import type { JobState } from './state';

export interface JobRow {
  id: string;
  /** The start of the text. */
  title: string;
  /** The title the user gave, shown instead; null for none. */
  custom_title: string | null;
  state: JobState;
  engine: string;
  voice: string;
  local_voice: string;
  rate: number;
  pitch: number;
  volume: number;
  characters: number;
  chunks_total: number;
  chunks_done: number;
  sample_rate: number | null;
  created_at: string;
  finished_at: string | null;
  /** Why a failed job failed; for a done job, why its audio is gone ("audio_missing"), if it is. */
  error_code: string | null;
  error_message: string | null;
  audio_bytes: number | null;
  duration_s: number | null;
  expires_at: string | null;
  /** The format its audio is stored in. */
  format: OutputFormat;
  /** Lossy formats: the bitrate it is encoded at. */
  bitrate_kbps: number | null;
  /** 1: a job in another format keeps its WAV beside it. */
  keep_wav: 0 | 1;
  /** A WAV job's first chunks already in its partial WAV (their chunk files are gone); 0 for other formats. */
  joined_chunks: number;
  /** The number of its last change, from one counter over all jobs (their deletions too): later changes have higher numbers. */
  revision: number;
  /** The series it belongs to (JobSeries), if any. */
  series: string | null;
  series_idx: number | null;
}

/**
 * Jobs made to be heard in order, as a book's chapters: the queue takes a series' jobs one after
 * another by `idx` (the series as a whole takes its turn among other jobs), and a cancelled job of
 * a series keeps its saved chunks, for the series to continue it.
 */
export interface JobSeries {
  id: string;
  idx: number;
  /** An earlier done job of the same place (the chapter's last render), whose audio the job takes where it says the same. */
  base?: string | null;
}

export interface ChunkRow {
  job_id: string;
  idx: number;
  text: string;
  pause_ms: number;
  done: number;
  samples: number | null;
  attempts: number;
  /** JSON of SentenceSpan[]; null for jobs made before sentence timings. */
  sentences: string | null;
  /** JSON of SampleRange[], one per sentence, from the chunk's start; null until synthesized. */
  sentence_samples: string | null;
  /** The chunk's own voice and prosody (SSML); null: the job's. */
  voice: string | null;
  local_voice: string | null;
  rate: number | null;
  pitch: number | null;
  volume: number | null;
}

/** A chunk's own voice (its id and the engine's name for it) and prosody, where it differs from its job's (SSML). */
export type ChunkVoice = { voice: string; local_voice: string } & Pick<JobRow, 'rate' | 'pitch' | 'volume'>;

/**
 * What joining a chunk's audio into its job's needs: everything but its text; `base_offset`: its
 * samples are in the job's base WAV from there (jobs/base-audio/), not in a chunk file.
 */
export type ChunkLayout = Pick<ChunkRow, 'idx' | 'pause_ms' | 'samples' | 'done'> & { base_offset: number | null };

/** A chunk to store: its text and pause, and where its sentences are in the job's text (absent or null: not known). */
export type NewChunk = Chunk & { sentences?: SentenceSpan[] | null; own?: ChunkVoice | null };

/** What a job's sentence timings are made of, per chunk, parsed. */
export interface ChunkTimingLayout extends ChunkLayout {
  text: string;
  own: ChunkVoice | null;
  sentences: SentenceSpan[] | null;
  sentence_samples: SampleRange[] | null;
}

export type NewJob = Pick<
  JobRow,
  | 'id'
  | 'title'
  | 'engine'
  | 'voice'
  | 'local_voice'
  | 'rate'
  | 'pitch'
  | 'volume'
  | 'characters'
  | 'created_at'
  | 'format'
  | 'bitrate_kbps'
  | 'keep_wav'
> & {
  expires_at?: string | null;
  custom_title?: string | null;
  /** Set at once for a job of several voices (SSML), whose chunks are brought to it; else the first chunk's. */
  sample_rate?: number | null;
  series?: string | null;
  series_idx?: number | null;
};

/** A chunk's stored sentence spans. */
export function parseSpans(json: string | null): SentenceSpan[] | null {
  return json === null ? null : (JSON.parse(json) as SentenceSpan[]);
}
