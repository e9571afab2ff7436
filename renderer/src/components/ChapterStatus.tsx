import type { Chapter } from '../api/contract';

const STATUS_LABEL: Record<Chapter['status'], string> = {
  not_rendered: 'Not rendered',
  queued: 'Queued',
  running: 'Rendering',
  paused: 'Paused',
  cancelled: 'Cancelled',
  done: 'Done',
  failed: 'Failed',
  expired: 'Audio expired',
};

/** Statuses whose chunks synthesized so far are shown (a cancelled chapter keeps them for the next render). */
const WITH_PROGRESS: readonly Chapter['status'][] = ['running', 'paused', 'cancelled'];

/**
 * Where a chapter's audio stands. "changed" marks audio that stands but is out of date (its text,
 * edits, lexicon or settings changed); a cancelled or failed chapter says so by itself.
 */
export function ChapterStatus({ chapter }: { chapter: Chapter }) {
  const { done, total } = chapter.progress;
  const label = STATUS_LABEL[chapter.status];
  const stale = chapter.edits.filter((e) => e.stale).length;
  return (
    <span className="chapter-status" title={chapter.error?.message}>
      {WITH_PROGRESS.includes(chapter.status) && total > 0 ? (
        <>
          {label} <progress value={done} max={total} aria-label={`${chapter.title}: ${done} of ${total} chunks`} />
        </>
      ) : (
        label
      )}
      {chapter.needs_render && chapter.status === 'done' && <span className="tag">changed</span>}
      {chapter.edits.length > stale && (
        <span className="tag" title="Sentences said otherwise than the manuscript has them">
          edited
        </span>
      )}
      {stale > 0 && (
        <span className="tag warn" title="The manuscript changed under a sentence edit">
          edit to check
        </span>
      )}
    </span>
  );
}
