import { useCallback, useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { API, exportSeconds, type ExportRequest, type Job } from '../api/contract';
import { describeError } from '../lib/format';
import { useApp } from '../store';
import { exportableJobs } from '../store/job-order';
import { jobTitle } from '../store/jobs-slice';
import { bookFields, ExportBookFields, NO_BOOK, type BookChoices } from './ExportBookFields';
import { ExportOptionsFields, useExportChoices } from './ExportOptionsFields';
import { ExportResult } from './ExportResult';
import { useExport } from './use-export';

/**
 * Exports finished jobs as one audiobook (docs/audiobook.md): which jobs, in which order (oldest
 * first), its title and chapters, and the export's options (format, loudness, true peak, room tone,
 * cover; the same as a project's); then its progress, like a job's, and the downloads.
 */
export function ExportDialog({ job, onClose }: { job: Job | null; onClose(): void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const client = useApp((s) => s.client);
  const done = useApp(useShallow(exportableJobs));
  const [book, setBook] = useState<BookChoices>(NO_BOOK);
  const { choices, change, body: options } = useExportChoices();
  const [error, setError] = useState<string | null>(null);
  const failed = useCallback((e: unknown) => setError(describeError(e)), []);
  const { made, running, follow, download, subtitles, forget } = useExport(failed);
  const picked = done.filter((j) => book.jobIds.includes(j.job_id));

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (job && !element.open) {
      setBook((b) => ({ ...b, jobIds: [job.job_id], title: jobTitle(job) }));
      forget();
      setError(null);
      element.showModal();
    } else if (!job && element.open) element.close();
  }, [job, forget]);

  const start = async () => {
    if (!client) return;
    setError(null);
    try {
      const body: ExportRequest = { job_ids: picked.map((j) => j.job_id), ...(await options()), ...bookFields(book) };
      const accepted = await client.call(API.createExport, { body: body });
      await follow(accepted.export_id);
    } catch (e) {
      setError(describeError(e));
    }
  };

  return (
    <dialog
      ref={dialog}
      className="confirm-dialog export-dialog"
      aria-labelledby="export-title"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2 id="export-title">Export audiobook</h2>
      <fieldset disabled={running !== null}>
        <legend>Jobs, in book order</legend>
        <ExportBookFields jobs={done} book={book} setBook={setBook} />
        <ExportOptionsFields
          choices={choices}
          onChange={change}
          bookSeconds={exportSeconds(
            picked.reduce((n, j) => n + j.audio!.duration_s, 0),
            picked.length,
            choices.roomToneMs,
          )}
        />
      </fieldset>

      {made && <ExportResult made={made} onDownload={download} onSubtitles={subtitles} />}
      {error && (
        <p className="error small" role="alert">
          {error}
        </p>
      )}
      <div className="confirm-actions">
        <button type="button" className="secondary" onClick={onClose}>
          Close
        </button>
        {made?.status !== 'done' && (
          <button type="button" onClick={() => void start()} disabled={book.jobIds.length === 0 || running !== null}>
            Export
          </button>
        )}
      </div>
    </dialog>
  );
}
