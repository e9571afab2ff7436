import { Type, type Static } from 'typebox';
import { OUTPUT_FORMATS } from './formats';

const Format = Type.Enum(OUTPUT_FORMATS);

/** A job waiting in the queue is "running" too. */
export const JobStatus = Type.Union([Type.Literal('running'), Type.Literal('done'), Type.Literal('failed')]);
export type JobStatus = Static<typeof JobStatus>;

export const Job = Type.Object({
  job_id: Type.String(),
  title: Type.String({ description: 'The start of the text, at most 80 characters, to tell jobs apart' }),
  status: JobStatus,
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

export const JobList = Type.Object({
  jobs: Type.Array(Job),
  /** Pass as `cursor` for the next (older) page; absent on the last page. */
  next_cursor: Type.Optional(Type.String()),
});
export type JobList = Static<typeof JobList>;

/** Jobs per page of GET /jobs. */
export const JOB_PAGE = { min: 1, max: 200, default: 50 } as const;

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
});
export type JobListQuery = Static<typeof JobListQuery>;

/** Precomputed waveform peaks, so a player can draw hours of audio without decoding it. */
export const JobPeaks = Type.Object({
  duration_s: Type.Number(),
  sample_rate: Type.Integer(),
  peaks_per_second: Type.Integer(),
  /** Max absolute amplitude per window, 0 to 1. */
  peaks: Type.Array(Type.Number()),
});
export type JobPeaks = Static<typeof JobPeaks>;

/**
 * Server-Sent Events of GET /jobs/{id}/events and GET /events: the event name is the type,
 * the data a Job as JSON.
 */
export const JOB_EVENT_TYPES = ['progress', 'done', 'failed'] as const;
export type JobEventType = (typeof JOB_EVENT_TYPES)[number];

/** One event of those streams: its name and the job after it. */
export interface JobEvent {
  type: JobEventType;
  job: Job;
}
