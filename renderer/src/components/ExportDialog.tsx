import { useCallback, useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { EXPORT_LIMITS, type ExportFormat, type ExportRequest, type Job } from '../api/contract';
import { base64Of } from '../lib/base64';
import { describeError, formatClock } from '../lib/format';
import { useApp } from '../store';
import { jobTitle } from '../store/jobs-slice';
import { useExport } from './use-export';

const FORMATS: Record<ExportFormat, string> = {
  m4b: 'M4B audiobook (chapter marks)',
  mp3: 'MP3 (ID3 chapters)',
  zip: 'ZIP, one MP3 per chapter',
};

/**
 * Exports finished jobs as one audiobook (docs/audiobook.md): which jobs, in which order (oldest
 * first), the format and the loudness; then its progress, like a job's, and the download.
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
  const [format, setFormat] = useState<ExportFormat>('m4b');
  const [title, setTitle] = useState('');
  const [author, setAuthor] = useState('');
  const [loudness, setLoudness] = useState<number>(EXPORT_LIMITS.loudness.default);
  const [chapters, setChapters] = useState<'auto' | 'jobs'>('auto');
  const [cover, setCover] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const failed = useCallback((e: unknown) => setError(describeError(e)), []);
  const { made, running, follow, download, forget } = useExport(failed);

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
        job_ids: done.filter((j) => chosen.includes(j.job_id)).map((j) => j.job_id),
        format,
        loudness_target_lufs: loudness,
        chapters,
        ...(title.trim() ? { title: title.trim() } : {}),
        ...(author.trim() ? { author: author.trim() } : {}),
        ...(cover ? { cover: await base64Of(cover) } : {}),
      };
      const accepted = await client.createExport(body);
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
          Format{' '}
          <select value={format} onChange={(e) => setFormat(e.target.value as ExportFormat)}>
            {Object.entries(FORMATS).map(([id, label]) => (
              <option key={id} value={id}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Loudness{' '}
          <select value={loudness} onChange={(e) => setLoudness(Number(e.target.value))}>
            <option value={-18}>Audiobook, −18 LUFS</option>
            <option value={-23}>Broadcast, −23 LUFS</option>
          </select>
        </label>
        <label>
          Chapters{' '}
          <select value={chapters} onChange={(e) => setChapters(e.target.value as 'auto' | 'jobs')}>
            <option value="auto">From headings and jobs</option>
            <option value="jobs">One per job</option>
          </select>
        </label>
        <label>
          Cover <input type="file" accept="image/jpeg,image/png" onChange={(e) => setCover(e.target.files?.[0] ?? null)} />
        </label>
      </fieldset>

      {made && (
        <div className="export-progress" role="status">
          {made.status === 'running' && <progress max={1} value={made.progress} aria-label="Export progress" />}
          <span className="small">
            {made.status === 'running' && `${Math.floor(made.progress * 100)}%`}
            {made.status === 'done' &&
              `Done: ${made.chapters.length} chapters, ${formatClock(made.file!.duration_s)}, ${made.loudness?.integrated_lufs} LUFS`}
            {made.status === 'failed' && made.error?.message}
          </span>
        </div>
      )}
      {error && (
        <p className="error small" role="alert">
          {error}
        </p>
      )}
      <div className="confirm-actions">
        <button type="button" className="secondary" onClick={onClose}>
          Close
        </button>
        {made?.status === 'done' ? (
          <button type="button" onClick={download}>
            Download {made.file!.name}
          </button>
        ) : (
          <button type="button" onClick={() => void start()} disabled={chosen.length === 0 || running !== null}>
            Export
          </button>
        )}
      </div>
    </dialog>
  );
}
