/** A project's chapters as the API shows them: their render's state, their text and edits (docs/projects.md). */
import { Type, type Static } from 'typebox';

/** Where a chapter's audio stands, from its job. */
export const CHAPTER_STATUSES = ['not_rendered', 'queued', 'running', 'paused', 'cancelled', 'done', 'failed', 'expired'] as const;
export const ChapterStatus = Type.Enum(CHAPTER_STATUSES, {
  description:
    '"not_rendered": no job (never rendered, its text changed, or its job was deleted); "paused": held back with the project; ' +
    '"cancelled": stopped, its finished chunks kept (a render continues it); "expired": done, but its audio is gone',
});
export type ChapterStatus = (typeof CHAPTER_STATUSES)[number];

/** A sentence of a chapter said otherwise than the manuscript has it (docs/projects.md#sentence-edits). */
export const ChapterEdit = Type.Object({
  original: Type.String({ description: "The manuscript's text the edit replaces" }),
  text: Type.String({ description: 'What is said instead' }),
  stale: Type.Boolean({ description: 'The manuscript changed under it: its original is no longer in the chapter, and it is not applied' }),
  text_start: Type.Optional(
    Type.Integer({
      description: "Where `text` starts in the chapter's text as rendered (its edits applied), in code points, as timings count",
    }),
  ),
  text_end: Type.Optional(Type.Integer({ description: 'Where it ends (exclusive); both absent for a stale edit' })),
});
export type ChapterEdit = Static<typeof ChapterEdit>;

/** Where a chapter's render stands: what changes while a project renders (ProjectRenderProgress). */
const chapterStateFields = {
  index: Type.Integer({ description: 'From 0, in reading order' }),
  status: ChapterStatus,
  progress: Type.Object({ done: Type.Integer(), total: Type.Integer() }, { description: "The job's chunks synthesized" }),
  job_id: Type.Optional(Type.String()),
  needs_render: Type.Boolean({ description: 'A render would synthesize it: no usable job, or its text as spoken or settings changed' }),
  error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() })),
  excluded: Type.Boolean({ description: 'Left out of render and export' }),
};
export const ChapterState = Type.Object(chapterStateFields);
export type ChapterState = Static<typeof ChapterState>;

export const Chapter = Type.Object({
  ...chapterStateFields,
  title: Type.String(),
  text: Type.String({ description: 'The text spoken, its heading first' }),
  characters: Type.Integer(),
  edits: Type.Array(ChapterEdit, {
    description: 'Its sentence edits (PUT /jobs/{job_id}/sentences/{n}), applied ones in reading order, then stale ones',
  }),
  part: Type.Optional(Type.String({ description: 'The part of the book it belongs to; its first chapter says the part title first' })),
  front_matter: Type.Boolean({ description: 'The text before the first chapter: title page, dedication, copyright' }),
});
export type Chapter = Static<typeof Chapter>;
