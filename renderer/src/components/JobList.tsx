import { useEffect, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useApp } from '../store';
import { sortedJobs } from '../store/jobs-slice';
import { JobRow } from './JobRow';

/** Re-renders every few seconds so that ages ("2 minutes ago") stay true. */
function useNow(intervalMs: number): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(id);
  }, [intervalMs]);
  return now;
}

export function JobList() {
  const jobs = useApp(useShallow(sortedJobs));
  const error = useApp((s) => s.jobsError);
  const loadJobs = useApp((s) => s.loadJobs);
  const hasOlder = useApp((s) => s.jobsCursor !== null);
  const loadOlderJobs = useApp((s) => s.loadOlderJobs);
  const now = useNow(15_000);
  const running = jobs.filter((j) => j.status === 'running').length;

  return (
    <section className="card jobs" aria-labelledby="jobs-title">
      <div className="jobs-head">
        <h2 id="jobs-title">Jobs</h2>
        <span className="muted small">{running > 0 ? `${running} running` : `${jobs.length} total`}</span>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}{' '}
          <button type="button" className="link" onClick={() => void loadJobs()}>
            Try again
          </button>
        </p>
      )}
      {jobs.length === 0 && !error ? (
        <p className="empty">Long texts become jobs. They appear here, and keep running while you work on something else.</p>
      ) : (
        <ul className="job-list" aria-label="Jobs">
          {jobs.map((job) => (
            <JobRow key={job.job_id} job={job} now={now} />
          ))}
          {hasOlder && (
            <li className="job-more">
              <button type="button" className="small ghost" onClick={() => void loadOlderJobs()}>
                Show older jobs
              </button>
            </li>
          )}
        </ul>
      )}
    </section>
  );
}
