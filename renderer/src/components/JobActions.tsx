import type { RefObject } from 'react';
import { jobAudioFileName, type Job, type OutputFormat } from '../api/contract';
import { useApp } from '../store';
import type { JobDownload } from './use-job-download';

interface Props {
  job: Job;
  /** What the buttons' labels call the job: its title and voice. */
  name: string;
  download: JobDownload;
  /** The job's title is being edited: Rename waits. */
  renaming: boolean;
  onRename(): void;
  /** Rename itself: focus goes back to it when the edit ends. */
  renameButton: RefObject<HTMLButtonElement | null>;
  onDelete?(job: Job): void;
  onRetried?(replacement: string): void;
  onExport?(job: Job): void;
}

/** A job's buttons: play, download (in a format chosen), export, cancel, retry, rename, delete, as its state allows. */
export function JobActions({ job, name, download, renaming, onRename, renameButton, onDelete, onRetried, onExport }: Props) {
  const id = job.job_id;
  const { playJob, cancelJob, retryJob } = useApp.getState();
  const { chosen, size } = download;
  const retry = async () => {
    const replacement = await retryJob(id);
    if (replacement) onRetried?.(replacement);
  };

  return (
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
              onChange={(event) => download.choose(event.target.value as OutputFormat)}
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
            onClick={() => void download.save()}
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
        onClick={onRename}
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
