import type { Job } from '../api/contract';
import { formatTimeLeft, secondsLeft } from '../lib/throughput';
import { useApp } from '../store';
import { jobFraction } from '../store/jobs-slice';

/** A running job's progress: the bar, the percentage, and the time left at the speed measured so far. */
export function JobProgress({ job }: { job: Job }) {
  const samples = useApp((s) => s.jobProgress[job.job_id]);
  const { done, total } = job.progress;
  const percent = Math.floor(jobFraction(job) * 100);
  const left = samples ? secondsLeft(samples, total) : null;
  const label = done === 0 ? 'Queued' : `${percent}%${left === null ? '' : ` · ${formatTimeLeft(left)} left`}`;
  return (
    <div className="job-progress">
      <progress
        max={1}
        value={jobFraction(job)}
        aria-label="Progress"
        aria-valuetext={label}
        data-done={done}
        title={`${done} of ${total} chunks`}
      />
      <span className="muted small job-progress-label" data-testid="job-progress">
        {label}
      </span>
    </div>
  );
}
