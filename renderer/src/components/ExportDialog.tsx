import { useCallback, useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { API, exportSeconds, type ExportRequest, type Job } from '../api/contract';
import { describeError, formatClock } from '../lib/format';
import { useApp } from '../store';
import { jobTitle } from '../store/jobs-slice';
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
  const done = useApp(
    useShallow((s) =>
      Object.values(s.jobs)
        .filter((j) => j.status === 'done' && j.audio)
        .sort((a, b) => a.created_at.localeCompare(b.created_at)),
    ),
  );
  const [chosen, setChosen] = useState<string[]>([]);
  const [title, setTitle] = useState('');
  const [author, setAuthor] = useState('');
  const [chapters, setChapters] = useState<'auto' | 'jobs'>('auto');
  const { choices, change, body: options } = useExportChoices();
  const [error, setError] = useState<string | null>(null);
  const failed = useCallback((e: unknown) => setError(describeError(e)), []);
  const { made, running, follow, download, subtitles, forget } = useExport(failed);
  const picked = done.filter((j) => chosen.includes(j.job_id));

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (job && !element.open) {
      setChosen([job.job_id]);
      setTitle(jobTitle(job));
      forget();
      setError(null);
      element.showModal();
    } else if (!job && element.open) element.close();
  }, [job, forget]);

  const start = async () => {
    if (!client) return;
    setError(null);
    try {
      const body: ExportRequest = {
        job_ids: picked.map((j) => j.job_id),
        ...(await options()),
        chapters,
        ...(title.trim() ? { title: title.trim() } : {}),
        ...(author.trim() ? { author: author.trim() } : {}),
      };
      const accepted = await client.call(API.createExport, { body: body });
      await follow(accepted.export_id);
    } catch (e) {
      setError(describeError(e));
    }
  };
  const toggle = (id: string, on: boolean) => setChosen((ids) => (on ? [...ids, id] : ids.filter((x) => x !== id)));

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
        <ul className="export-jobs">
          {done.map((j) => (
            <li key={j.job_id}>
              <label>
                <input type="checkbox" checked={chosen.includes(j.job_id)} onChange={(e) => toggle(j.job_id, e.target.checked)} />{' '}
                {jobTitle(j)} <span className="muted small">{formatClock(j.audio!.duration_s)}</span>
              </label>
            </li>
          ))}
        </ul>
        <label>
          Title <input value={title} maxLength={200} onChange={(e) => setTitle(e.target.value)} />
        </label>
        <label>
          Author <input value={author} maxLength={200} onChange={(e) => setAuthor(e.target.value)} />
        </label>
        <label>
          Chapters{' '}
          <select value={chapters} onChange={(e) => setChapters(e.target.value as 'auto' | 'jobs')}>
            <option value="auto">From headings and jobs</option>
            <option value="jobs">One per job</option>
          </select>
        </label>
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
          <button type="button" onClick={() => void start()} disabled={chosen.length === 0 || running !== null}>
            Export
          </button>
        )}
      </div>
    </dialog>
  );
}
