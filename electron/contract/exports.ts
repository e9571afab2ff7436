import { Type, type Static } from 'typebox';

/** Audiobook exports: finished jobs joined into one book with chapters (docs/audiobook.md). */
export const EXPORT_FORMATS = ['m4b', 'mp3', 'zip'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_MEDIA: Record<ExportFormat, { contentType: string; extension: string }> = {
  m4b: { contentType: 'audio/mp4', extension: 'm4b' },
  mp3: { contentType: 'audio/mpeg', extension: 'mp3' },
  zip: { contentType: 'application/zip', extension: 'zip' },
};

export const SUBTITLE_FORMATS = ['vtt', 'srt'] as const;
export type SubtitleFormat = (typeof SUBTITLE_FORMATS)[number];
export const SUBTITLE_MEDIA: Record<SubtitleFormat, string> = {
  vtt: 'text/vtt; charset=utf-8',
  srt: 'application/x-subrip; charset=utf-8',
};

export const EXPORT_LIMITS = {
  /** Jobs in one export: a project's chapters, each its own job (PROJECT_LIMITS.chapters). */
  jobs: 500,
  /** Chapters of one export: a project's, or headings found in the jobs. */
  chapters: 500,
  /** Hours of audio in one export: a day of speech, about 5 to 8 hours of passes on a busy 2-core machine. */
  hours: 24,
  /** The cover image, bytes (before base64). */
  coverBytes: 2 * 1024 * 1024,
  loudness: { min: -30, max: -10, default: -18 },
  truePeak: { min: -9, max: -1, default: -3 },
  roomToneMs: { min: 500, max: 1000, default: 750 },
} as const;

/** Silence between two jobs of a book: longer than a paragraph's pause (700 ms), as a chapter break is. */
export const EXPORT_JOB_GAP_MS = 1500;

/**
 * What a gap grows by on average so that the book's cuts fall on frames (M4B, MP3: up to a frame,
 * 1,152 samples, 52 ms at 22.05 kHz, the usual rate of a book; docs/audiobook.md, The book).
 */
const EXPORT_GAP_ALIGN_MS = 26;

/** A book's length from its jobs' (room tone at both ends, a gap between two jobs), for estimates. */
export const exportSeconds = (jobsSeconds: number, jobs: number, roomToneMs: number) =>
  jobsSeconds + (2 * roomToneMs + Math.max(0, jobs - 1) * (EXPORT_JOB_GAP_MS + EXPORT_GAP_ALIGN_MS)) / 1000;

/**
 * An export's bitrate when none is asked for. MP3 (and the ZIP's MP3s) at 64 kb/s; M4B at 96: at
 * 64 kb/s FFmpeg's AAC encoder, the one Orator has, makes frames whose decoded peaks pass the
 * true-peak ceiling by up to 2 dB whatever the limiter does, and at 96 it was not seen to
 * (docs/audiobook.md, "True peak after encoding").
 */
export const EXPORT_DEFAULT_KBPS: Readonly<Record<ExportFormat, number>> = { m4b: 96, mp3: 64, zip: 64 };

/**
 * Upper estimate of an export's file: containers and codecs overshoot a bitrate (FFmpeg's AAC gives
 * 75–80 kb/s for 64 asked), so 1.5 × it. What the gateway checks the disk with before an export,
 * and what the studio shows before one.
 */
export const estimateExportBytes = (seconds: number, kbps: number) => Math.ceil(((seconds * kbps * 1000) / 8) * 1.5);
/**
 * The disk an export of segments holds while it is made, at most: its file twice, once in the kept
 * segments and once joined (services/export-book.ts); what the studio checks before it asks.
 */
export const exportReserveBytes = (seconds: number, kbps: number) => 2 * estimateExportBytes(seconds, kbps);

const ExplicitChapter = Type.Object(
  {
    job_id: Type.String(),
    title: Type.String({ minLength: 1, maxLength: 200 }),
    text_offset: Type.Integer({
      minimum: 0,
      description: "Code points into the job's text; the chapter starts at the sentence holding it",
    }),
  },
  { additionalProperties: false },
);

/**
 * How a book is made, whatever its jobs: the options the Studio's export and a project's share
 * (one schema, one form in the studio: renderer/src/components/ExportOptionsFields.tsx).
 */
const exportOptionFields = {
  format: Type.Enum(EXPORT_FORMATS, {
    description: 'm4b (AAC with chapter marks), mp3 (ID3 chapters) or zip (one MP3 and its subtitles per chapter)',
  }),
  cover: Type.Optional(
    Type.String({
      maxLength: Math.ceil(EXPORT_LIMITS.coverBytes / 3) * 4,
      description: `A JPEG or PNG image, base64, at most ${EXPORT_LIMITS.coverBytes} bytes`,
    }),
  ),
  bitrate_kbps: Type.Optional(
    Type.Integer({
      description: `m4b: 16 to 256 (default ${EXPORT_DEFAULT_KBPS.m4b}; below 96 the true-peak ceiling may be passed); mp3 and zip: an MP3 bitrate (default ${EXPORT_DEFAULT_KBPS.mp3})`,
    }),
  ),
  loudness_target_lufs: Type.Optional(
    Type.Number({
      minimum: EXPORT_LIMITS.loudness.min,
      maximum: EXPORT_LIMITS.loudness.max,
      description: 'Integrated loudness (ITU-R BS.1770-4), default −18 (audiobooks); −23 for broadcast',
    }),
  ),
  true_peak_dbtp: Type.Optional(
    Type.Number({
      minimum: EXPORT_LIMITS.truePeak.min,
      maximum: EXPORT_LIMITS.truePeak.max,
      description: 'True-peak ceiling, default −3',
    }),
  ),
  room_tone_head_ms: Type.Optional(Type.Integer({ minimum: EXPORT_LIMITS.roomToneMs.min, maximum: EXPORT_LIMITS.roomToneMs.max })),
  room_tone_tail_ms: Type.Optional(Type.Integer({ minimum: EXPORT_LIMITS.roomToneMs.min, maximum: EXPORT_LIMITS.roomToneMs.max })),
};

export const ExportOptions = Type.Object(exportOptionFields, { additionalProperties: false });
export type ExportOptions = Static<typeof ExportOptions>;

export const ExportRequest = Type.Object(
  {
    job_ids: Type.Array(Type.String(), {
      minItems: 1,
      maxItems: EXPORT_LIMITS.jobs,
      description: `1 to ${EXPORT_LIMITS.jobs} finished jobs, in the order of the book`,
    }),
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    author: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    ...exportOptionFields,
    chapters: Type.Optional(
      Type.Union(
        [Type.Literal('auto'), Type.Literal('jobs'), Type.Array(ExplicitChapter, { minItems: 1, maxItems: EXPORT_LIMITS.chapters })],
        {
          description: '"auto" (default): headings in the text and one per job; "jobs": one per job; or the chapters themselves',
        },
      ),
    ),
  },
  { additionalProperties: false },
);
export type ExportRequest = Static<typeof ExportRequest>;

export const ExportStatus = Type.Union([Type.Literal('running'), Type.Literal('done'), Type.Literal('failed')]);
export type ExportStatus = Static<typeof ExportStatus>;

export const Export = Type.Object({
  export_id: Type.String(),
  status: ExportStatus,
  progress: Type.Number({ minimum: 0, maximum: 1, description: 'Fraction done, 0 to 1' }),
  format: Type.Enum(EXPORT_FORMATS),
  title: Type.String(),
  author: Type.Optional(Type.String()),
  job_ids: Type.Array(Type.String()),
  created_at: Type.String({ format: 'date-time' }),
  finished_at: Type.Optional(Type.String({ format: 'date-time' })),
  chapters: Type.Array(Type.Object({ title: Type.String(), start_s: Type.Number() })),
  file: Type.Optional(
    Type.Object({
      url: Type.String(),
      name: Type.String(),
      content_type: Type.String(),
      bytes: Type.Integer(),
      duration_s: Type.Number(),
    }),
  ),
  loudness: Type.Optional(
    Type.Object({
      target_lufs: Type.Number(),
      true_peak_ceiling_dbtp: Type.Number(),
      measured_lufs: Type.Number({ description: 'The speech as synthesized' }),
      gain_db: Type.Number(),
      integrated_lufs: Type.Number({ description: 'The export, measured after gain and limiting (before lossy encoding)' }),
      true_peak_dbtp: Type.Number(),
      limited: Type.Boolean({ description: 'Whether the peak limiter had to act' }),
    }),
  ),
  error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() })),
});
export type Export = Static<typeof Export>;

export const ExportList = Type.Object({ exports: Type.Array(Export) });
export type ExportList = Static<typeof ExportList>;

export const ExportAccepted = Type.Object({ export_id: Type.String(), poll: Type.String(), status: Type.Literal('running') });
export type ExportAccepted = Static<typeof ExportAccepted>;
export const ExportParams = Type.Object({ id: Type.String() });
export const SubtitleQuery = Type.Object({ format: Type.Optional(Type.Enum(SUBTITLE_FORMATS, { description: 'vtt (default) or srt' })) });
export type SubtitleQuery = Static<typeof SubtitleQuery>;
