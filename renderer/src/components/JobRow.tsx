import { useState } from 'react';
import { jobAudioFileName, type Job } from '../api/contract';
import { saveBlob } from '../lib/download';
import { describeError, formatAge, formatBytes, formatClock, formatCount } from '../lib/format';
import { useApp } from '../store';
import { voiceLabel } from '../store/engines-slice';
import { jobFraction, jobTitle } from '../store/jobs-slice';

const STATUS_LABEL = { running: 'Running', done: 'Done', failed: 'Failed' } as const;

export function JobRow({ job, now }: { job: Job; now: number }) {
  const id = job.job_id;
  const voice = useApp((s) => voiceLabel(s, job.voice));
  const title = jobTitle(job);
  // The title tells chapters apart; the voice tells takes of one chapter apart.
  const name = `“${title}”, ${voice}`;
  const actionError = useApp((s) => s.jobErrors[id]);
  const playing = useApp((s) => s.current?.kind === 'job' && s.current.jobId === id);
  const { playJob, cancelJob, deleteJob, retryJob, client } = useApp.getState();
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const fraction = jobFraction(job);
  const cancelled = job.error?.code === 'cancelled';

  const download = async () => {
    if (!client) return;
    setDownloadError(null);
    try {
      saveBlob(await client.jobAudio(id), jobAudioFileName(id, job.audio?.format));
    } catch (error) {
      setDownloadError(describeError(error));
    }
  };

  return (
    <li
      className={`job job-${job.status}${playing ? ' job-playing' : ''}`}
      aria-label={`Job ${name}, ${cancelled ? 'Cancelled' : STATUS_LABEL[job.status]}`}
      data-job-id={id}
      data-status={job.status}
    >
      <div className="job-line">
        <span className={`badge badge-${cancelled ? 'cancelled' : job.status}`}>{cancelled ? 'Cancelled' : STATUS_LABEL[job.status]}</span>
        <span className="job-title" title={title}>
          {title}
        </span>
      </div>

      <div className="job-meta muted">
        <span className="job-voice" title={job.voice}>
          {voice}
        </span>
        <span>{formatCount(job.characters)} chars</span>
        {job.audio && <span>{formatClock(job.audio.duration_s)}</span>}
        {job.audio && <span>{formatBytes(job.audio.bytes)}</span>}
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

      {job.status === 'running' && (
        <div className="job-progress">
          <progress max={1} value={fraction} aria-label="Progress" data-done={job.progress.done} />
          <span className="muted small">{job.progress.total > 0 ? `${job.progress.done} / ${job.progress.total}` : 'Queued'}</span>
        </div>
      )}

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
            <button type="button" className="small ghost" onClick={() => void download()} aria-label={`Download job ${name}`}>
              Download
            </button>
          </>
        )}
        {job.status === 'running' && (
          <button type="button" className="small ghost" onClick={() => void cancelJob(id)} aria-label={`Cancel job ${name}`}>
            Cancel
          </button>
        )}
        {job.status === 'failed' && (
          <button type="button" className="small secondary" onClick={() => void retryJob(id)} aria-label={`Retry job ${name}`}>
            Retry
          </button>
        )}
        {job.status !== 'running' && (
          <button type="button" className="small ghost danger" onClick={() => void deleteJob(id)} aria-label={`Delete job ${name}`}>
            Delete
          </button>
        )}
      </div>
    </li>
  );
}
