import type { JobEvent } from '../api/client';
import type { Job } from '../api/contract';
import type { ProgressSample } from '../lib/throughput';
import { jobActions } from './job-actions';
import { jobListActions } from './job-list-actions';
import type { JobOrder } from './job-order';
import { newJobTracking } from './job-tracking';
import type { SliceCreator } from './types';

export interface JobsSlice {
  jobs: Record<string, Job>;
  /** How the list stays current: an event stream, or polling when events are not available. */
  jobsSync: 'off' | 'live' | 'polling';
  jobsError: string | null;
  /** Where the next (older) page of the list starts; null when everything is loaded. */
  jobsCursor: string | null;
  /** Per-job action errors, shown on the job's row. */
  jobErrors: Record<string, string>;
  /** Progress of running jobs as seen arriving, to measure their throughput (lib/throughput.ts). */
  jobProgress: Record<string, ProgressSample[]>;
  /** The list's search (titles and text, on the gateway) and order. */
  jobSearch: string;
  jobOrder: JobOrder;
  setJobsSync(mode: JobsSlice['jobsSync']): void;
  /** Changes the search or order and loads the list again. */
  setJobQuery(query: { search?: string; order?: JobOrder }): Promise<void>;
  /**
   * Reads the first page of the list and merges it in by revision (store/job-merge.ts); resolves
   * to the revision it was read at, or null when it was not read or a newer search won.
   */
  loadJobs(): Promise<number | null>;
  loadOlderJobs(): Promise<void>;
  /** A state of a job, kept only if it is later than the one known (a higher revision). */
  upsertJob(job: Job): void;
  /**
   * A job event from the stream: a deleted job leaves the list; any other is applied, unless a
   * search is on and the job is not in its results.
   */
  applyJobEvent(event: Pick<JobEvent, 'type' | 'job'>): void;
  refreshJob(id: string): Promise<void>;
  /** Actions on one job resolve to whether they succeeded; an error shows on the job's row. */
  renameJob(id: string, title: string): Promise<boolean>;
  cancelJob(id: string): Promise<boolean>;
  deleteJob(id: string): Promise<boolean>;
  /** Resolves to the id of the new job that replaces the failed one, or null. */
  retryJob(id: string): Promise<string | null>;
}

export const createJobsSlice: SliceCreator<JobsSlice> = (set, get) => {
  const tracking = newJobTracking();
  return {
    jobs: {},
    jobsSync: 'off',
    jobsError: null,
    jobsCursor: null,
    jobErrors: {},
    jobProgress: {},
    jobSearch: '',
    jobOrder: 'newest',

    setJobsSync: (jobsSync) => set({ jobsSync }),
    ...jobListActions(set, get, tracking),
    ...jobActions(set, get, tracking),
  };
};

/** Part done, 0 to 1; a queued job with no chunks yet is 0. */
export function jobFraction(job: Job): number {
  if (job.status === 'done') return 1;
  return job.progress.total > 0 ? job.progress.done / job.progress.total : 0;
}

/** The job's title from the gateway (the start of its text); a placeholder for a job with none. */
export function jobTitle(job: Pick<Job, 'title'>): string {
  return job.title.trim() || 'Untitled';
}
