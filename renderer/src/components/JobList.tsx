import { useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { Job } from '../api/contract';
import { useApp } from '../store';
import { sortedJobs } from '../store/job-order';
import { DeleteJobDialog } from './DeleteJobDialog';
import { ExportDialog } from './ExportDialog';
import { UndoDeleteToast } from './UndoDeleteToast';
import { JobListTools } from './JobListTools';
import { JobRow } from './JobRow';
import { useListFocus } from './use-list-focus';
import './jobs.css';

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
  const deleteWithUndo = useApp((s) => s.deleteWithUndo);
  const hasOlder = useApp((s) => s.jobsCursor !== null);
  const loadOlderJobs = useApp((s) => s.loadOlderJobs);
  const now = useNow(15_000);
  const running = jobs.filter((j) => j.status === 'running').length;
  const search = useApp((s) => s.jobSearch.trim());
  const [deleting, setDeleting] = useState<Job | null>(null);
  const [exporting, setExporting] = useState<Job | null>(null);
  const { heading, moveFocusTo } = useListFocus();
  const openedFrom = useRef<HTMLElement | null>(null);

  const askDelete = (job: Job) => {
    openedFrom.current = document.activeElement as HTMLElement | null;
    setDeleting(job);
  };
  const answerDelete = async (confirmed: boolean) => {
    const job = deleting;
    setDeleting(null);
    if (!job) return;
    if (!confirmed) {
      openedFrom.current?.focus();
      return;
    }
    // Focus moves on to the next row (the one before, at the end), never to the page itself.
    const at = jobs.findIndex((j) => j.job_id === job.job_id);
    const neighbour = jobs[at + 1] ?? jobs[at - 1];
    moveFocusTo(neighbour?.job_id ?? 'heading');
    await deleteWithUndo(job);
  };

  return (
    <section className="card jobs" aria-labelledby="jobs-title">
      <div className="jobs-head">
        <h2 id="jobs-title" ref={heading} tabIndex={-1}>
          Jobs
        </h2>
        <span className="muted small" role="status">
          {running > 0 ? `${running} running` : search ? `${jobs.length} found` : `${jobs.length} total`}
        </span>
      </div>
      <JobListTools />
      {error && (
        <p className="error" role="alert">
          {error}{' '}
          <button type="button" className="link" onClick={() => void loadJobs()}>
            Try again
          </button>
        </p>
      )}
      {jobs.length === 0 && !error ? (
        <p className="empty">
          {search
            ? `No job has “${search}” in its title or text.`
            : 'Long texts become jobs. They appear here, and keep running while you work on something else.'}
        </p>
      ) : (
        <ul className="job-list" aria-label="Jobs">
          {jobs.map((job) => (
            <JobRow key={job.job_id} job={job} now={now} onDelete={askDelete} onRetried={moveFocusTo} onExport={setExporting} />
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
      <UndoDeleteToast onUndone={moveFocusTo} />
      <DeleteJobDialog job={deleting} onAnswer={(confirmed) => void answerDelete(confirmed)} />
      <ExportDialog job={exporting} onClose={() => setExporting(null)} />
    </section>
  );
}
