import { Type, type Static } from 'typebox';
import { OUTPUT_FORMATS, RequestFormat } from './formats';
import { OPTION_RANGES, type OptionName } from './synthesis';
import { TITLE_MAX_CHARS } from './jobs';
import { EXPORT_LIMITS, ExportOptions } from './exports';
import { Chapter, ChapterState } from './chapters';

/** Bounds of projects (docs/projects.md); the manuscript's length is the max_text_length setting. */
export const PROJECT_LIMITS = {
  /** Projects in one data folder. */
  projects: 200,
  /** Chapters of one project: as many as one export takes, each chapter a job of the book. */
  chapters: EXPORT_LIMITS.jobs,
  /** Title, author and chapter titles (code points). */
  titleChars: TITLE_MAX_CHARS,
  /** A manuscript's file name (code points). */
  fileNameChars: 255,
} as const;

/**
 * Bounds of reading a manuscript file, which happens on a thread of its own (docs/projects.md,
 * "Reading files safely"). Measured on a 150,000-word book made by pandoc: its DOCX inflates to
 * 2 MB and mammoth needs 50–100 MB of heap and 2 s of CPU; its EPUB far less.
 */
export const DOCUMENT_LIMITS = {
  /** What a zipped manuscript's files may inflate to together, counted as they are unpacked (MB). */
  inflatedMb: 64,
  /** Files in a zipped manuscript. */
  zipFiles: 10_000,
  /** The reading thread's JavaScript heap (MB): five times a Word book's need. */
  heapMb: 512,
  /** Time to read one manuscript (s), counted from when the thread takes it. */
  seconds: 60,
  /** Manuscripts waiting for the thread, which reads one at a time; one more is refused with 429. */
  waiting: 4,
} as const;

/** Manuscript files the gateway reads, by extension: text files come as their text, others as base64 `data`. */
export const MANUSCRIPT_EXTENSIONS = ['txt', 'md', 'markdown', 'epub', 'docx'] as const;
/** The ones sent as bytes (base64 `data`) rather than text. */
export const BINARY_MANUSCRIPTS: readonly string[] = ['epub', 'docx'];

/** A prosody field of a saved setting (projects, compare sessions): its range and default. */
export const prosody = (name: OptionName) =>
  Type.Number({ minimum: OPTION_RANGES[name].min, maximum: OPTION_RANGES[name].max, default: OPTION_RANGES[name].default });

const Title = Type.String({ minLength: 1, description: `1 to ${PROJECT_LIMITS.titleChars} characters, one line` });
const Author = Type.String({ description: `0 to ${PROJECT_LIMITS.titleChars} characters, one line` });
const Format = RequestFormat("The chapters' job format (opus: ogg)");

/** The settings a project renders with; every one optional in a change. */
const settingFields = {
  title: Type.Optional(Title),
  author: Type.Optional(Author),
  voice: Type.Optional(Type.String({ description: 'Voice id, e.g. "espeak-ng:en-us"; default: the default voice' })),
  rate: Type.Optional(prosody('rate')),
  pitch: Type.Optional(prosody('pitch')),
  volume: Type.Optional(prosody('volume')),
  format: Type.Optional(Format),
};

export const ManuscriptFile = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      description: `The file's name; its extension says how it is cut: ${MANUSCRIPT_EXTENSIONS.map((e) => `.${e}`).join(', ')}`,
    }),
    text: Type.Optional(Type.String({ description: "A text file's text (.txt, .md); at most max_text_length characters" })),
    data: Type.Optional(Type.String({ description: 'An .epub or .docx file, base64; its text at most max_text_length characters' })),
  },
  { additionalProperties: false },
);
export type ManuscriptFile = Static<typeof ManuscriptFile>;

export const ProjectCreate = Type.Object(
  { ...settingFields, manuscript: ManuscriptFile },
  { additionalProperties: false, description: 'A new project; the title defaults to the file name' },
);
export type ProjectCreate = Static<typeof ProjectCreate>;

export const ProjectPatch = Type.Object(settingFields, { additionalProperties: false });
export type ProjectPatch = Static<typeof ProjectPatch>;

export const ProjectParams = Type.Object({ id: Type.String() });
export const ChapterEditParams = Type.Object({
  id: Type.String(),
  index: Type.String({ description: "The chapter's index, from 0" }),
  n: Type.String({ description: "The edit's index in the chapter's edits, from 0" }),
});
export const ChapterParams = Type.Object({ id: Type.String(), index: Type.String({ description: "The chapter's index, from 0" }) });

export const ChapterPatch = Type.Object(
  {
    title: Type.Optional(
      Type.String({
        minLength: 1,
        description: `1 to ${PROJECT_LIMITS.titleChars} characters, one line: the name in the chapter list and the export's chapter marks; what is said does not change`,
      }),
    ),
    excluded: Type.Optional(Type.Boolean({ description: 'Left out of render and export (its audio, if any, is kept)' })),
  },
  { additionalProperties: false },
);
export type ChapterPatch = Static<typeof ChapterPatch>;

export const ChapterSplit = Type.Object(
  {
    paragraph: Type.Integer({
      minimum: 1,
      description: "The paragraph (from 0, as the chapter's text is cut at blank lines) that starts the new chapter; at least 1",
    }),
    title: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'The new chapter\'s title; default: its first paragraph when short, else "<title> (continued)"',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ChapterSplit = Static<typeof ChapterSplit>;

/** What an import made of a manuscript file (docs/projects.md, "The book's structure"). */
export const ImportReport = Type.Object({
  summary: Type.String({ description: 'In words: "15 chapters, 2 parts, front matter: title page, dedication"' }),
  chapters: Type.Integer({ description: 'Chapters, front matter not counted' }),
  parts: Type.Array(Type.String(), { description: "The parts' titles" }),
  front_matter: Type.Array(Type.String(), {
    description: 'What the front matter holds: "title page", "dedication", "epigraph", "copyright", "contents", "front matter"',
  }),
  scene_headings: Type.Integer({ description: 'Headings below the chapter level, kept as text in their chapters' }),
  empty_headings: Type.Array(
    Type.Object({
      level: Type.Integer({ description: 'Its heading level; 0: a line' }),
      after: Type.Union([Type.String(), Type.Null()], { description: 'The heading before it' }),
    }),
    { description: 'Headings with no words: left out, never spoken' },
  ),
  metadata: Type.Object(
    {
      title: Type.Optional(Type.String()),
      author: Type.Optional(Type.String()),
      language: Type.Optional(Type.String()),
      cover: Type.Boolean({ description: "A cover image was taken (JPEG or PNG, within the export's cover limit)" }),
    },
    { description: "What the file says of itself (DOCX core properties, EPUB package metadata, a Markdown file's YAML)" },
  ),
  voice: Type.Optional(
    Type.Object(
      {
        id: Type.String(),
        name: Type.String(),
        reason: Type.String({ description: 'Why, in words: "the book\'s language, de-DE"' }),
      },
      { description: "The voice the project was given when it was made without one: one of the book's language when installed" },
    ),
  ),
  notes: Type.Array(Type.String(), {
    description: "What a narrator should know: headings left out, a cover not taken, no voice of the book's language",
  }),
});
export type ImportReport = Static<typeof ImportReport>;

const projectFields = {
  project_id: Type.String(),
  title: Type.String(),
  author: Type.String(),
  voice: Type.String(),
  rate: Type.Number(),
  pitch: Type.Number(),
  volume: Type.Number(),
  format: Type.Enum(OUTPUT_FORMATS),
  source_name: Type.String({ description: 'The name of the manuscript file' }),
  language: Type.String({ description: 'The book\'s language as its file gives it (BCP 47, e.g. "en-GB"); empty when it gives none' }),
  has_cover: Type.Boolean({
    description: "The book's own cover image was read from its file; a project export uses it when no cover is sent",
  }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
};

/** Where a project's render stands, as its Render button says it. */
export const PROJECT_RENDER_STATES = ['up_to_date', 'needs_render', 'rendering', 'paused'] as const;
export type ProjectRenderState = (typeof PROJECT_RENDER_STATES)[number];

export const ProjectProgress = Type.Object(
  {
    state: Type.Enum(PROJECT_RENDER_STATES, {
      description:
        '"rendering": a chapter is queued or running; "paused": chapters are paused and none renders; ' +
        '"needs_render": a render would synthesize a chapter; "up_to_date": every chapter is done and up to date',
    }),
    chapters_done: Type.Integer({ description: 'Chapters done and up to date' }),
    chapters_total: Type.Integer(),
    chunks_done: Type.Integer({ description: 'Chunks synthesized of the chapters done or under way (queued, running, paused)' }),
    chunks_total: Type.Integer({ description: 'Chunks of those chapters: what is left of the render is the difference' }),
  },
  { description: "The project's render as a whole" },
);
export type ProjectProgress = Static<typeof ProjectProgress>;

/**
 * A project's render without its chapters' texts: what the studio reads each second while a book
 * renders (a 15-hour book's project is a megabyte of JSON, this a few kilobytes).
 */
export const ProjectRenderProgress = Type.Object({
  render: ProjectProgress,
  chapters: Type.Array(ChapterState),
});
export type ProjectRenderProgress = Static<typeof ProjectRenderProgress>;

export const Project = Type.Object({
  ...projectFields,
  import_report: Type.Optional(ImportReport),
  render: ProjectProgress,
  chapters: Type.Array(Chapter),
});
export type Project = Static<typeof Project>;

export const ProjectSummary = Type.Object({ ...projectFields, chapter_count: Type.Integer() });
export type ProjectSummary = Static<typeof ProjectSummary>;

export const ProjectList = Type.Object({ projects: Type.Array(ProjectSummary) });
export type ProjectList = Static<typeof ProjectList>;

export const RenderResult = Type.Object({
  queued: Type.Array(
    Type.Object({
      index: Type.Integer(),
      job_id: Type.String(),
      continued: Type.Boolean({ description: 'A cancelled chapter taken up again from its finished chunks (same job)' }),
    }),
    { description: 'Chapters synthesized again' },
  ),
  unchanged: Type.Array(Type.Integer(), { description: 'Indexes of chapters whose audio stands' }),
  excluded: Type.Array(Type.Integer(), { description: 'Indexes of chapters left out of render and export' }),
  project: Project,
});
export type RenderResult = Static<typeof RenderResult>;

/**
 * An audiobook of a project: the export's options; the jobs, their order and chapter titles, the
 * title and the author are the project's.
 */
export const ProjectExportBody = ExportOptions;
export type ProjectExportBody = ExportOptions;

/** What a project's audio takes on disk, estimated before it is made (docs/projects.md#disk). */
export const ProjectDisk = Type.Object({
  free_bytes: Type.Integer({
    description: "What may still be written on the data folder's disk: its free space less the minimum that must stay free",
  }),
  book_seconds: Type.Number({ description: 'The book: its rendered chapters as measured, the others estimated from their text (upper)' }),
  render: Type.Object(
    { chapters: Type.Integer(), bytes: Type.Integer() },
    { description: 'What a render now would write at most: the chapters it would synthesize, in the project’s format' },
  ),
  // the formats themselves: `opus` is another name of ogg, not a format of its own
  formats: Type.Record(Type.Enum(OUTPUT_FORMATS), Type.Integer(), {
    description: 'The whole book rendered in each output format, upper estimate (a chapter in another format than WAV keeps its WAV too)',
  }),
});
export type ProjectDisk = Static<typeof ProjectDisk>;
