import type { OratorClient } from '../api/client';
import { ApiError, type Job } from '../api/contract';
import { describeError } from '../lib/format';
import { addSample, type ProgressSample } from '../lib/throughput';
import { JOB_ORDERS, type JobOrder } from './job-order';
import type { SliceCreator } from './types';

const PAGE = 100;

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
  loadJobs(): Promise<void>;
  loadOlderJobs(): Promise<void>;
  upsertJob(job: Job): void;
  /** A job event from the stream: applied, unless a search is on and the job is not in its results. */
  applyJobEvent(job: Job): void;
  refreshJob(id: string): Promise<void>;
  /** Actions on one job resolve to whether they succeeded; an error shows on the job's row. */
  renameJob(id: string, title: string): Promise<boolean>;
  cancelJob(id: string): Promise<boolean>;
  deleteJob(id: string): Promise<boolean>;
  /** Resolves to the id of the new job that replaces the failed one, or null. */
  retryJob(id: string): Promise<string | null>;
}

export const createJobsSlice: SliceCreator<JobsSlice> = (set, get) => {
  const actionError = (id: string, error: unknown) => {
    if (get().noteAuthError(error)) return;
    set({ jobErrors: { ...get().jobErrors, [id]: describeError(error) } });
  };
  const clearActionError = (id: string) => {
    if (!(id in get().jobErrors)) return;
    const { [id]: _, ...rest } = get().jobErrors;
    set({ jobErrors: rest });
  };
  /** The next page of the list as it is searched and ordered now. */
  const page = (client: OratorClient, cursor?: string) => {
    const { sort, order } = JOB_ORDERS[get().jobOrder];
    const q = get().jobSearch.trim();
    return client.listJobs({ limit: PAGE, sort, order, ...(q ? { q } : {}), ...(cursor ? { cursor } : {}) });
  };
  const forget = (id: string) => {
    const { [id]: _job, ...jobs } = get().jobs;
    const { [id]: _progress, ...jobProgress } = get().jobProgress;
    set({ jobs, jobProgress });
    clearActionError(id);
    const current = get().current;
    if (current?.kind === 'job' && current.jobId === id) get().closePlayer();
  };
  /**
   * Runs an action on one job: a job that no longer exists leaves the list, other errors show on
   * its row. Resolves to whether the action succeeded.
   */
  const onJob = async (id: string, action: (client: OratorClient) => Promise<void>): Promise<boolean> => {
    const client = get().client;
    if (!client) return false;
    clearActionError(id);
    try {
      await action(client);
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.code === 'job_not_found') forget(id);
      else actionError(id, error);
      return false;
    }
  };

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

    async setJobQuery({ search = get().jobSearch, order = get().jobOrder }) {
      set({ jobSearch: search, jobOrder: order });
      await get().loadJobs();
    },

    /** The first page (again, after a reconnect or a new search); later pages load on request. */
    async loadJobs() {
      const client = get().client;
      if (!client) return;
      const asked = { search: get().jobSearch, order: get().jobOrder };
      try {
        const first = await page(client);
        // a newer search or order has been asked for meanwhile: its answer wins
        if (asked.search !== get().jobSearch || asked.order !== get().jobOrder) return;
        set({ jobs: Object.fromEntries(first.jobs.map((j) => [j.job_id, j])), jobsCursor: first.next_cursor ?? null, jobsError: null });
      } catch (error) {
        if (!get().noteAuthError(error)) set({ jobsError: describeError(error) });
      }
    },

    async loadOlderJobs() {
      const { client, jobsCursor } = get();
      if (!client || !jobsCursor) return;
      try {
        const next = await page(client, jobsCursor);
        set({ jobs: { ...get().jobs, ...Object.fromEntries(next.jobs.map((j) => [j.job_id, j])) }, jobsCursor: next.next_cursor ?? null });
      } catch (error) {
        if (!get().noteAuthError(error)) set({ jobsError: describeError(error) });
      }
    },

    upsertJob(job) {
      const id = job.job_id;
      const { [id]: samples = [], ...otherProgress } = get().jobProgress;
      const jobProgress =
        job.status === 'running'
          ? { ...otherProgress, [id]: addSample(samples, { at: Date.now(), done: job.progress.done }) }
          : otherProgress;
      set({ jobs: { ...get().jobs, [id]: job }, jobProgress });
    },

    applyJobEvent(job) {
      if (get().jobSearch.trim() && !(job.job_id in get().jobs)) return;
      get().upsertJob(job);
    },

    async refreshJob(id) {
      await onJob(id, async (client) => {
        get().upsertJob(await client.job(id));
      });
    },

    renameJob: (id, title) =>
      onJob(id, async (client) => {
        get().upsertJob(await client.renameJob(id, title));
      }),

    /** A running job is cancelled (it stays, failed with "cancelled"). */
    cancelJob: (id) =>
      onJob(id, async (client) => {
        const job = await client.deleteJob(id);
        if (job) get().upsertJob(job);
        else await get().refreshJob(id);
      }),

    /** A finished job is deleted with its audio. */
    deleteJob: (id) =>
      onJob(id, async (client) => {
        await client.deleteJob(id);
        forget(id);
      }),

    /** Queues a failed job again; the new job replaces it (the gateway deletes the failed one). */
    async retryJob(id) {
      let replacement: string | null = null;
      await onJob(id, async (client) => {
        replacement = (await client.retryJob(id)).job_id;
        forget(id);
        await get().refreshJob(replacement);
      });
      return replacement;
    },
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
