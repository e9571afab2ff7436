import { Type, type Static } from 'typebox';
import { OUTPUT_FORMATS } from './formats';
import { NON_BLANK_PATTERN } from './synthesis';
import { codePoints } from './text';

const Format = Type.Enum(OUTPUT_FORMATS);

/** A job waiting in the queue is "running" too. */
export const JobStatus = Type.Union([Type.Literal('running'), Type.Literal('done'), Type.Literal('failed')]);
export type JobStatus = Static<typeof JobStatus>;

export const Job = Type.Object({
  job_id: Type.String(),
  title: Type.String({
    description: 'The title given with PATCH /jobs/{id}; else the start of the text, at most 80 characters, to tell jobs apart',
  }),
  status: JobStatus,
  paused: Type.Optional(
    Type.Literal(true, {
      description: 'A running job held back with its project (docs/projects.md): it goes on when the project is resumed',
    }),
  ),
  progress: Type.Object({ done: Type.Integer(), total: Type.Integer() }),
  engine: Type.String(),
  voice: Type.String(),
  characters: Type.Integer(),
  format: Type.Enum(OUTPUT_FORMATS, { description: 'The format its audio is stored in' }),
  bitrate_kbps: Type.Optional(Type.Integer({ description: 'The bitrate of a lossy format' })),
  keep_wav: Type.Boolean({ description: 'Whether its WAV is kept beside audio in another format' }),
  created_at: Type.String({ format: 'date-time' }),
  finished_at: Type.Optional(Type.String({ format: 'date-time' })),
  expires_at: Type.Optional(
    Type.String({ format: 'date-time', description: 'When the audio is deleted (the retention_hours setting when the job was made)' }),
  ),
  audio: Type.Optional(
    Type.Object({
      url: Type.String(),
      format: Format,
      content_type: Type.String(),
      duration_s: Type.Number(),
      bytes: Type.Integer({ description: 'The size of the file in its format' }),
      formats: Type.Array(Format, {
        description: 'The formats `url` gives with ?format=: every one while the job has its WAV, else its own',
      }),
    }),
  ),
  error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() })),
  revision: Type.Integer({
    minimum: 1,
    description:
      "The number of the job's last change, from one counter over all jobs: a higher number is a later state. It is the id of the event that carried this state",
  }),
  audio_unavailable: Type.Optional(
    Type.Object(
      { code: Type.String(), message: Type.String() },
      {
        description:
          'A done job whose audio is gone: "audio_expired" (past its retention) or "audio_missing" (its file was removed outside Orator)',
      },
    ),
  ),
});
export type Job = Static<typeof Job>;

export const JobParams = Type.Object({ id: Type.String() });

/** Longest title a job can be given (code points, after trimming). */
export const TITLE_MAX_CHARS = 200;

export const JobPatch = Type.Object(
  {
    title: Type.String({
      description: `A new title: 1 to ${TITLE_MAX_CHARS} characters after trimming, one line, no control characters`,
    }),
  },
  { additionalProperties: false },
);
export type JobPatch = Static<typeof JobPatch>;

export const SentenceParams = Type.Object({
  id: Type.String(),
  n: Type.String({ description: "The sentence's index in the job's timings, from 0 (anything else: 404)" }),
});

/** Longest new text of one sentence (code points): one chunk's bound, so the edit stays one chunk. */
export const SENTENCE_MAX_CHARS = 500;

export const SentenceEdit = Type.Object(
  {
    text: Type.String({
      pattern: NON_BLANK_PATTERN,
      description: `The sentence's new text, 1 to ${SENTENCE_MAX_CHARS} characters; its chunk is synthesized again and spliced in`,
    }),
  },
  { additionalProperties: false },
);
export type SentenceEdit = Static<typeof SentenceEdit>;

/** Control characters and line or paragraph separators: a title is one line of visible text. */
const NOT_IN_TITLE = /[\p{Cc}\u2028\u2029]/u;

/**
 * A title as it is stored: trimmed, checked. Returns the title, or why it cannot be one; the
 * gateway answers that reason with 400, the studio shows it before sending.
 */
export function checkTitle(raw: string): { title: string } | { problem: string } {
  const title = raw.trim();
  if (!title) return { problem: 'A title needs at least one visible character.' };
  if (NOT_IN_TITLE.test(title)) return { problem: 'A title is one line: no control characters or line breaks.' };
  const length = codePoints(title);
  if (length > TITLE_MAX_CHARS) return { problem: `A title has at most ${TITLE_MAX_CHARS} characters; this one has ${length}.` };
  return { title };
}

export const JobList = Type.Object({
  jobs: Type.Array(Job),
  /** Pass as `cursor` for the next (older) page; absent on the last page. */
  next_cursor: Type.Optional(Type.String()),
  revision: Type.Integer({
    minimum: 0,
    description:
      'The number of the latest change of any job when the page was read: every change after it reaches GET /events opened with Last-Event-ID set to it',
  }),
});
export type JobList = Static<typeof JobList>;

/** Longest search of the job list (code points). */
export const JOB_SEARCH_MAX_CHARS = 200;

/** Jobs per page of GET /jobs. */
export const JOB_PAGE = { min: 1, max: 200, default: 50 } as const;

/** The job list's page, filters, search and order: by creation (newest first), title (A to Z) or duration (longest first). */
export const JobListQuery = Type.Object({
  limit: Type.Optional(
    Type.Integer({
      minimum: JOB_PAGE.min,
      maximum: JOB_PAGE.max,
      default: JOB_PAGE.default,
      description: `Jobs per page, ${JOB_PAGE.min} to ${JOB_PAGE.max}`,
    }),
  ),
  cursor: Type.Optional(Type.String({ description: '`next_cursor` of the previous page' })),
  status: Type.Optional(JobStatus),
  q: Type.Optional(
    Type.String({
      description: `Jobs whose title or text holds this, ignoring case (ASCII letters) and runs of whitespace; up to ${JOB_SEARCH_MAX_CHARS} characters`,
    }),
  ),
  sort: Type.Optional(
    Type.Union([Type.Literal('created'), Type.Literal('title'), Type.Literal('duration')], {
      description: '"created" (default, newest first), "title" (A to Z), "duration" (longest first; jobs without audio last)',
    }),
  ),
  order: Type.Optional(
    Type.Union([Type.Literal('asc'), Type.Literal('desc')], {
      description: 'Direction; default "desc" for created and duration, "asc" for title',
    }),
  ),
});
export type JobListQuery = Static<typeof JobListQuery>;
export type JobSort = NonNullable<JobListQuery['sort']>;

/** Precomputed waveform peaks, so a player can draw hours of audio without decoding it. */
export const JobPeaks = Type.Object({
  duration_s: Type.Number(),
  sample_rate: Type.Integer(),
  /** 50 at full resolution; 50 / 4^k at the coarser levels `columns` picks. */
  peaks_per_second: Type.Number(),
  /** Where the first peak's window starts, in seconds (0 unless a span was asked for). */
  start_s: Type.Number(),
  /** Max absolute amplitude per window, 0 to 1. */
  peaks: Type.Array(Type.Number()),
});
export type JobPeaks = Static<typeof JobPeaks>;

/** A resolution and a span of a job's peaks: a player asks for what it can draw. */
export const JobPeaksQuery = Type.Object({
  columns: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 1_000_000,
      description:
        'Columns to draw: the answer has the coarsest resolution with at least this many peaks over the span (default: full resolution)',
    }),
  ),
  start_s: Type.Optional(Type.Number({ minimum: 0, description: 'Start of the span, in seconds (default 0)' })),
  end_s: Type.Optional(Type.Number({ minimum: 0, description: 'End of the span, in seconds (default: the end of the audio)' })),
});
export type JobPeaksQuery = Static<typeof JobPeaksQuery>;

/** One sentence of a finished job: when it is spoken and where it is in the job's text. */
export const SentenceTiming = Type.Object({
  start_s: Type.Number({ description: 'Seconds from the start of the audio' }),
  end_s: Type.Number(),
  text_start: Type.Integer({ description: "Offset in the job's text as it was sent, in code points" }),
  text_end: Type.Integer({ description: 'Exclusive' }),
  text: Type.String({ description: 'The sentence as spoken, each run of whitespace one space' }),
  paragraph_end: Type.Optional(Type.Boolean({ description: 'The last sentence of a paragraph (a blank line follows it)' })),
});
export type SentenceTiming = Static<typeof SentenceTiming>;

export const JobTimings = Type.Object({
  duration_s: Type.Number(),
  sentences: Type.Array(SentenceTiming),
});
export type JobTimings = Static<typeof JobTimings>;

/**
 * Server-Sent Events of GET /jobs/{id}/events and GET /events: the event name is the type, the
 * data a Job as JSON, the id the job's revision after the change. "added": the job was admitted;
 * "renamed": given a title (PATCH /jobs/{id}); "updated": changed otherwise (its audio expired or
 * was found missing, a sentence was re-rendered); "deleted": deleted, the data the job as it was,
 * with the revision of its deletion.
 */
export const JOB_EVENT_TYPES = ['added', 'progress', 'done', 'failed', 'renamed', 'updated', 'deleted'] as const;
export type JobEventType = (typeof JOB_EVENT_TYPES)[number];

/** One event of those streams: its name and the job after it. */
export interface JobEvent {
  type: JobEventType;
  job: Job;
}

/** The event ids of those streams (a revision), as Last-Event-ID gives them back. */
export const EVENT_ID_PATTERN = '^[0-9]{1,15}$';
