import type { Job, JobSort } from '../api/contract';
import type { Store } from './types';

/** The orders the job list offers, each as the gateway sorts it (GET /jobs?sort=&order=). */
export const JOB_ORDERS = {
  newest: { label: 'Newest first', sort: 'created', order: 'desc' },
  oldest: { label: 'Oldest first', sort: 'created', order: 'asc' },
  title: { label: 'Title A–Z', sort: 'title', order: 'asc' },
  longest: { label: 'Longest first', sort: 'duration', order: 'desc' },
  shortest: { label: 'Shortest first', sort: 'duration', order: 'asc' },
} as const satisfies Record<string, { label: string; sort: JobSort; order: 'asc' | 'desc' }>;
export type JobOrder = keyof typeof JOB_ORDERS;

const byKey: Record<JobSort, (a: Job, b: Job) => number> = {
  created: (a, b) => a.created_at.localeCompare(b.created_at),
  title: (a, b) => compareText(a.title.toLowerCase(), b.title.toLowerCase()),
  duration: (a, b) => (a.audio?.duration_s ?? 0) - (b.audio?.duration_s ?? 0),
};

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The loaded jobs in the list's order, as the gateway pages them, so that jobs arriving live fall
 * into place: ties by id, and jobs without audio last when sorting by duration.
 */
export function sortedJobs(state: Pick<Store, 'jobs' | 'jobOrder' | 'deletionPending'>): Job[] {
  const { sort, order } = JOB_ORDERS[state.jobOrder];
  const sign = order === 'asc' ? 1 : -1;
  const hidden = state.deletionPending?.job_id;
  return Object.values(state.jobs)
    .filter((job) => job.job_id !== hidden)
    .sort((a, b) => {
      if (sort === 'duration' && !a.audio !== !b.audio) return a.audio ? -1 : 1;
      return sign * (byKey[sort](a, b) || compareText(a.job_id, b.job_id));
    });
}

/** The finished jobs with audio, oldest first: the order of a book made of them (the export dialog's). */
export function exportableJobs(state: Pick<Store, 'jobs'>): Job[] {
  return Object.values(state.jobs)
    .filter((j) => j.status === 'done' && j.audio)
    .sort((a, b) => a.created_at.localeCompare(b.created_at));
}
