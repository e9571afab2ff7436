import { codePoints, type Chapter, type ChapterStatus } from '../contract';
import type { JobRow } from '../jobs/store';
import { isExpired } from '../jobs/view';
import type { ChapterRow } from '../projects/store';

/** Where a chapter's audio stands, from its job's row (none: not rendered, or its job was deleted). */
export function chapterStatus(job: JobRow | undefined): ChapterStatus {
  if (!job) return 'not_rendered';
  if (job.state !== 'done') return job.state;
  return isExpired(job) || job.audio_bytes === null || job.error_code === 'audio_missing' ? 'expired' : 'done';
}

/** A chapter as the API shows it. */
export function chapterView(chapter: ChapterRow, job: JobRow | undefined, needsRender: boolean): Chapter {
  const status = chapterStatus(job);
  const failed =
    job?.state === 'failed' ? { error: { code: job.error_code ?? 'failed', message: job.error_message ?? 'The job failed.' } } : {};
  return {
    index: chapter.idx,
    title: chapter.title,
    text: chapter.text,
    characters: codePoints(chapter.text),
    status,
    progress: { done: job?.chunks_done ?? 0, total: job?.chunks_total ?? 0 },
    ...(job ? { job_id: job.id } : {}),
    needs_render: needsRender,
    ...failed,
  };
}
