import type { Job } from '../api/contract';
import { useApp } from '../store';
import { voiceLabel } from '../store/engines-slice';
import { jobTitle } from '../store/jobs-slice';
import { JobActions } from './JobActions';
import { JobMeta } from './JobMeta';
import { JobProgress } from './JobProgress';
import { JobRenameForm } from './JobRenameForm';
import { JobRerender } from './JobRerender';
import { useJobDownload } from './use-job-download';
import { useJobRename } from './use-job-rename';

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
  const download = useJobDownload(job);
  const { renaming, open: openRename, close: closeRename, button: renameButton } = useJobRename();
  const cancelled = job.error?.code === 'cancelled';

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

      <JobMeta job={job} voice={voice} now={now} />

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
      {(actionError || download.error) && (
        <p className="error small" role="alert">
          {actionError ?? download.error}
        </p>
      )}

      <JobActions
        job={job}
        name={name}
        download={download}
        renaming={renaming}
        onRename={openRename}
        renameButton={renameButton}
        onDelete={onDelete}
        onRetried={onRetried}
        onExport={onExport}
      />
      {job.status === 'done' && job.audio && <JobRerender job={job} name={name} />}
    </li>
  );
}
