import type { Job } from '../api/contract';
import { formatAge, formatClock, formatCount } from '../lib/format';

/** A job's facts under its title: voice, size, length, age, and when its audio expires. */
export function JobMeta({ job, voice, now }: { job: Job; voice: string; now: number }) {
  return (
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
  );
}
