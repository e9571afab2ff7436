import { useEffect, useRef } from 'react';
import type { Job } from '../api/contract';
import { formatBytes, formatClock } from '../lib/format';
import { jobTitle } from '../store/jobs-slice';
import { UNDO_DELETE_MS } from '../store/undo-delete-slice';

/**
 * Asks before a job and its audio are deleted, naming what goes: a six-hour job is nearly a
 * gigabyte. Keep has the focus, so a second Enter keeps the job; a deletion can be undone for a
 * few seconds after (undo-delete-slice.ts).
 */
export function DeleteJobDialog({ job, onAnswer }: { job: Job | null; onAnswer(confirmed: boolean): void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const keep = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (job && !element.open) {
      element.showModal();
      keep.current?.focus();
    } else if (!job && element.open) element.close();
  }, [job]);

  return (
    <dialog
      ref={dialog}
      className="confirm-dialog"
      aria-labelledby="delete-job-title"
      aria-describedby="delete-job-what"
      onCancel={(e) => {
        e.preventDefault();
        onAnswer(false);
      }}
    >
      {job && (
        <>
          <h2 id="delete-job-title">Delete “{jobTitle(job)}”?</h2>
          <p id="delete-job-what">
            {job.audio
              ? `Its audio goes too: ${formatBytes(job.audio.bytes)}, ${formatClock(job.audio.duration_s)} of speech.`
              : 'It has no audio; only its entry goes.'}{' '}
            You can undo it for {UNDO_DELETE_MS / 1000} seconds.
          </p>
          <div className="confirm-actions">
            <button ref={keep} type="button" className="secondary" onClick={() => onAnswer(false)}>
              Keep
            </button>
            <button type="button" className="danger-solid" onClick={() => onAnswer(true)}>
              Delete{job.audio ? ` ${formatBytes(job.audio.bytes)}` : ''}
            </button>
          </div>
        </>
      )}
    </dialog>
  );
}
