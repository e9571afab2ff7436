import { Type, type Static } from 'typebox';
import { OUTPUT_FORMATS } from './formats';
import { OPTION_RANGES, type OptionName } from './synthesis';
import { TITLE_MAX_CHARS } from './jobs';
import { ExportRequest } from './exports';

/** Bounds of projects (docs/projects.md); the manuscript's length is the max_text_length setting. */
export const PROJECT_LIMITS = {
  /** Projects in one data folder. */
  projects: 200,
  /** Chapters of one project. */
  chapters: 500,
  /** Title, author and chapter titles (code points). */
  titleChars: TITLE_MAX_CHARS,
  /** A manuscript's file name (code points). */
  fileNameChars: 255,
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
const Format = Type.Enum(OUTPUT_FORMATS, { description: "The chapters' job format" });

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

/** Where a chapter's audio stands, from its job. */
export const CHAPTER_STATUSES = ['not_rendered', 'queued', 'running', 'done', 'failed', 'expired'] as const;
export const ChapterStatus = Type.Enum(CHAPTER_STATUSES, {
  description: '"not_rendered": no job (never rendered, its text changed, or its job was deleted); "expired": done, but its audio is gone',
});
export type ChapterStatus = (typeof CHAPTER_STATUSES)[number];

export const Chapter = Type.Object({
  index: Type.Integer({ description: 'From 0, in reading order' }),
  title: Type.String(),
  text: Type.String({ description: 'The text spoken, its heading first' }),
  characters: Type.Integer(),
  status: ChapterStatus,
  progress: Type.Object({ done: Type.Integer(), total: Type.Integer() }, { description: "The job's chunks" }),
  job_id: Type.Optional(Type.String()),
  needs_render: Type.Boolean({ description: 'A render would synthesize it: no usable job, or its text as spoken or settings changed' }),
  error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() })),
});
export type Chapter = Static<typeof Chapter>;

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
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
};

export const Project = Type.Object({ ...projectFields, chapters: Type.Array(Chapter) });
export type Project = Static<typeof Project>;

export const ProjectSummary = Type.Object({ ...projectFields, chapter_count: Type.Integer() });
export type ProjectSummary = Static<typeof ProjectSummary>;

export const ProjectList = Type.Object({ projects: Type.Array(ProjectSummary) });
export type ProjectList = Static<typeof ProjectList>;

export const RenderResult = Type.Object({
  queued: Type.Array(Type.Object({ index: Type.Integer(), job_id: Type.String() }), { description: 'Chapters synthesized again' }),
  unchanged: Type.Array(Type.Integer(), { description: 'Indexes of chapters whose audio stands' }),
  project: Project,
});
export type RenderResult = Static<typeof RenderResult>;

/**
 * An audiobook of a project: the export's options; the jobs, their order and chapter titles, the
 * title and the author are the project's.
 */
export const ProjectExportBody = Type.Omit(ExportRequest, ['job_ids', 'title', 'author', 'chapters'], { additionalProperties: false });
export type ProjectExportBody = Static<typeof ProjectExportBody>;
