import { useEffect, useRef, useState } from 'react';
import { API, jobAudioFileName, type Job, type OutputFormat } from '../api/contract';
import { saveBlob } from '../lib/download';
import { describeError, formatAge, formatBytes, formatClock, formatCount } from '../lib/format';
import { useApp } from '../store';
import { voiceLabel } from '../store/engines-slice';
import { jobTitle } from '../store/jobs-slice';
import { JobProgress } from './JobProgress';
import { JobRenameForm } from './JobRenameForm';

const STATUS_LABEL = { running: 'Running', done: 'Done', failed: 'Failed' } as const;

interface Props {
  job: Job;
  now: number;
  /** Delete was pressed: the list asks first. */
  onDelete?(job: Job): void;
  /** The job was retried: `replacement` took its place. */
  onRetried?(replacement: string): void;
  /** Export audiobook was pressed: the list opens the export dialog with this job chosen. */
  onExport?(job: Job): void;
}

export function JobRow({ job, now, onDelete, onRetried, onExport }: Props) {
  const id = job.job_id;
  const voice = useApp((s) => voiceLabel(s, job.voice));
  const title = jobTitle(job);
  // The title tells chapters apart; the voice tells takes of one chapter apart.
  const name = `“${title}”, ${voice}`;
  const actionError = useApp((s) => s.jobErrors[id]);
  const playing = useApp((s) => s.current?.kind === 'job' && s.current.jobId === id);
  // the client through the hook: a new key (settings) reaches the row's download at once
  const client = useApp((s) => s.client);
  const { playJob, cancelJob, retryJob } = useApp.getState();
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const [renaming, setRenaming] = useState(false);
  const renameButton = useRef<HTMLButtonElement>(null);
  const cancelled = job.error?.code === 'cancelled';
  const [format, setFormat] = useState<OutputFormat | undefined>();
  const ownFormat = job.audio?.format;
  const chosen = format ?? ownFormat;
  // the stored file's size; another format is encoded at download, its size unknown until then
  const size = job.audio && chosen === ownFormat ? formatBytes(job.audio.bytes) : '';

  const download = async () => {
    if (!client) return;
    setDownloadError(null);
    try {
      const other = chosen === ownFormat ? undefined : chosen;
      saveBlob(await client.blob(API.getJobAudio, { params: { id: id }, query: { format: other } }), jobAudioFileName(id, chosen));
    } catch (error) {
      setDownloadError(describeError(error));
    }
  };
  const retry = async () => {
    const replacement = await retryJob(id);
    if (replacement) onRetried?.(replacement);
  };
  // Focus goes back to Rename once the form is gone and the button enabled again: after React's
  // commit, not a frame later (under load the frame came first and focus hit a disabled button).
  const refocusRename = useRef(false);
  useEffect(() => {
    if (renaming || !refocusRename.current) return;
    refocusRename.current = false;
    renameButton.current?.focus();
  }, [renaming]);
  const closeRename = () => {
    refocusRename.current = true;
    setRenaming(false);
  };

  return (
    <li
      className={`job job-${job.status}${playing ? ' job-playing' : ''}`}
      aria-label={`Job ${name}, ${cancelled ? 'Cancelled' : STATUS_LABEL[job.status]}`}
      data-job-id={id}
      data-status={job.status}
      tabIndex={-1}
    >
      <div className="job-line">
        <span className={`badge badge-${cancelled ? 'cancelled' : job.status}`}>{cancelled ? 'Cancelled' : STATUS_LABEL[job.status]}</span>
        {renaming ? (
          <JobRenameForm job={job} onClose={closeRename} />
        ) : (
          <span className="job-title" title={title}>
            {title}
          </span>
        )}
      </div>

      <div className="job-meta muted">
        <span className="job-voice" title={job.voice}>
          {voice}
        </span>
        <span>{formatCount(job.characters)} chars</span>
        {job.audio && <span>{formatClock(job.audio.duration_s)}</span>}
        <time className="job-age" dateTime={job.created_at} title={new Date(job.created_at).toLocaleString()}>
          {formatAge(job.created_at, now)}
        </time>
        {job.audio && job.expires_at && (
          <time
            className="job-expiry"
            dateTime={job.expires_at}
            title={`The audio is deleted on ${new Date(job.expires_at).toLocaleString()} (Settings: Keep job audio)`}
          >
            expires {formatAge(job.expires_at, now)}
          </time>
        )}
      </div>

      {job.status === 'running' && <JobProgress job={job} />}

      {job.status === 'failed' && job.error && !cancelled && (
        <p className="error small" role="note">
          {job.error.message}
        </p>
      )}
      {job.audio_unavailable && (
        <p className="muted small" role="note">
          {job.audio_unavailable.message}
        </p>
      )}
      {(actionError || downloadError) && (
        <p className="error small" role="alert">
          {actionError ?? downloadError}
        </p>
      )}

      <div className="job-actions">
        {job.audio && (
          <>
            <button type="button" className="small secondary" onClick={() => playJob(job)} aria-label={`Play job ${name}`}>
              Play
            </button>
            {job.audio.formats.length > 1 && (
              <select
                className="small"
                value={chosen}
                onChange={(event) => setFormat(event.target.value as OutputFormat)}
                aria-label={`Download format of job ${name}`}
              >
                {job.audio.formats.map((f) => (
                  <option key={f} value={f}>
                    {f.toUpperCase()}
                  </option>
                ))}
              </select>
            )}
            <button
              type="button"
              className="small ghost"
              onClick={() => void download()}
              aria-label={`Download job ${name}, ${chosen!.toUpperCase()}${size ? `, ${size}` : ', encoded now'}`}
              title={`${jobAudioFileName(id, chosen)}${size ? `, ${size}` : ''}`}
            >
              <DownloadIcon />
              {size || chosen!.toUpperCase()}
            </button>
          </>
        )}
        {job.audio && onExport && (
          <button type="button" className="small ghost" onClick={() => onExport(job)} aria-label={`Export job ${name} as an audiobook`}>
            Export
          </button>
        )}
        {job.status === 'running' && (
          <button type="button" className="small ghost" onClick={() => void cancelJob(id)} aria-label={`Cancel job ${name}`}>
            Cancel
          </button>
        )}
        {job.status === 'failed' && (
          <button type="button" className="small secondary" onClick={() => void retry()} aria-label={`Retry job ${name}`}>
            Retry
          </button>
        )}
        <button
          ref={renameButton}
          type="button"
          className="small ghost"
          onClick={() => setRenaming(true)}
          disabled={renaming}
          aria-label={`Rename job ${name}`}
        >
          Rename
        </button>
        {job.status !== 'running' && (
          <button type="button" className="small ghost danger" onClick={() => onDelete?.(job)} aria-label={`Delete job ${name}`}>
            Delete
          </button>
        )}
      </div>
    </li>
  );
}

const DownloadIcon = () => (
  <svg
    viewBox="0 0 24 24"
    width="15"
    height="15"
    aria-hidden="true"
    fill="none"
    stroke="currentColor"
    strokeWidth="2"
    strokeLinecap="round"
  >
    <path d="M12 4v11M7 10l5 5 5-5M5 20h14" />
  </svg>
);
