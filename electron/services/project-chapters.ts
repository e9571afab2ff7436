import {
  codePoints,
  type Chapter,
  type ChapterState,
  type ChapterStatus,
  type ImportReport,
  type Project,
  type ProjectProgress,
} from '../contract';
import type { JobRow } from '../jobs/rows';
import { isExpired } from '../jobs/view';
import { editsInRendered } from '../projects/edits';
import type { ChapterRow, ProjectRow } from '../projects/store';

/** Where a chapter's audio stands, from its job's row (none: not rendered, or its job was deleted). */
export function chapterStatus(job: JobRow | undefined): ChapterStatus {
  if (!job) return 'not_rendered';
  if (job.state === 'failed') return isContinuable(job) ? 'cancelled' : 'failed';
  if (job.state !== 'done') return job.state;
  return isExpired(job) || job.audio_bytes === null || job.error_code === 'audio_missing' ? 'expired' : 'done';
}

/**
 * Whether a render would synthesize the chapter (never one left out): its key (`null`: its voice is gone) is not the
 * one it was rendered with, or its job is gone, failed, cancelled or its audio expired.
 */
export function needsRender(chapter: ChapterRow, key: string | null, job: JobRow | undefined): boolean {
  // a chapter left out is not rendered
  if (chapter.excluded) return false;
  if (key === null || chapter.render_key !== key || chapter.job_id === null) return true;
  const status = chapterStatus(job);
  return status === 'not_rendered' || status === 'failed' || status === 'cancelled' || status === 'expired';
}

/** A cancelled job of a series kept its finished chunks: a render continues it. */
export function isContinuable(job: JobRow): boolean {
  return job.state === 'failed' && job.error_code === 'cancelled' && job.series !== null;
}

/** Where a chapter's render stands (the fields a project's progress gives). */
export function chapterState(chapter: ChapterRow, job: JobRow | undefined, needsRender: boolean): ChapterState {
  const failed =
    job?.state === 'failed' ? { error: { code: job.error_code ?? 'failed', message: job.error_message ?? 'The job failed.' } } : {};
  return {
    index: chapter.idx,
    status: chapterStatus(job),
    progress: { done: job?.chunks_done ?? 0, total: job?.chunks_total ?? 0 },
    ...(job ? { job_id: job.id } : {}),
    needs_render: needsRender,
    ...failed,
    excluded: chapter.excluded,
  };
}

/** A chapter as the API shows it: its state, text and edits. */
export function chapterView(chapter: ChapterRow, state: ChapterState): Chapter {
  return {
    ...state,
    title: chapter.title,
    text: chapter.text,
    characters: codePoints(chapter.text),
    edits: editsInRendered(chapter.text, chapter.edits),
    ...(chapter.part === null ? {} : { part: chapter.part }),
    front_matter: chapter.front_matter,
  };
}

const UNDER_WAY: readonly ChapterStatus[] = ['queued', 'running', 'paused'];

/**
 * A project's render as a whole, from its chapters: chunks of the chapters done or under way, so
 * that the count only grows while a render runs (a time left is measured on it).
 */
export function projectProgress(all: readonly ChapterState[]): ProjectProgress {
  // chapters left out are neither rendered nor waited for
  const chapters = all.filter((c) => !c.excluded);
  const counted = chapters.filter((c) => c.status === 'done' || UNDER_WAY.includes(c.status));
  const has = (...statuses: ChapterStatus[]) => chapters.some((c) => statuses.includes(c.status));
  const state = has('queued', 'running')
    ? 'rendering'
    : has('paused')
      ? 'paused'
      : chapters.some((c) => c.needs_render)
        ? 'needs_render'
        : 'up_to_date';
  return {
    state,
    chapters_done: chapters.filter((c) => c.status === 'done' && !c.needs_render).length,
    chapters_total: chapters.length,
    chunks_done: counted.reduce((sum, c) => sum + c.progress.done, 0),
    chunks_total: counted.reduce((sum, c) => sum + c.progress.total, 0),
  };
}

/** A project's fields as the API shows them, its chapters aside. */
export function projectView(row: ProjectRow): Omit<Project, 'chapters' | 'render'> {
  const { id, import_report, ...rest } = row;
  return { project_id: id, ...rest, ...(import_report ? { import_report: JSON.parse(import_report) as ImportReport } : {}) };
}
