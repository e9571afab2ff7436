import type { JobEvent, OratorClient } from '../api/client';
import { API, ApiError, type Job } from '../api/contract';
import { describeError } from '../lib/format';
import { addSample, type ProgressSample } from '../lib/throughput';
import { latest, mergeFirstPage, mergeLaterPage } from './job-merge';
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
  /** Jobs deleted (here or, as events said, elsewhere): an older list or event cannot bring them back. */
  const gone = new Set<string>();
  /** For each page of the list being read, the events heard meanwhile, the latest per job. */
  const listening = new Set<Map<string, Job>>();
  /** Reads a page, collecting what events say meanwhile. */
  const readPage = async <T>(read: () => Promise<T>): Promise<{ result: T; heard: Map<string, Job> }> => {
    const heard = new Map<string, Job>();
    listening.add(heard);
    try {
      return { result: await read(), heard };
    } finally {
      listening.delete(heard);
    }
  };
  const actionError = (id: string, error: unknown) => set({ jobErrors: { ...get().jobErrors, [id]: describeError(error) } });
  const clearActionError = (id: string) => {
    if (!(id in get().jobErrors)) return;
    const { [id]: _, ...rest } = get().jobErrors;
    set({ jobErrors: rest });
  };
  /** The next page of the list as it is searched and ordered now. */
  const page = (client: OratorClient, cursor?: string) => {
    const { sort, order } = JOB_ORDERS[get().jobOrder];
    const q = get().jobSearch.trim();
    return client.call(API.listJobs, { query: { limit: PAGE, sort, order, ...(q ? { q } : {}), ...(cursor ? { cursor } : {}) } });
  };
  const forget = (id: string) => {
    gone.add(id);
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
      if (!client) return null;
      const asked = { search: get().jobSearch, order: get().jobOrder };
      try {
        const { result: first, heard } = await readPage(() => page(client));
        // a newer search or order has been asked for meanwhile: its answer wins
        if (asked.search !== get().jobSearch || asked.order !== get().jobOrder) return null;
        const jobs = mergeFirstPage({ known: get().jobs, page: first, heard, gone }, asked.search.trim() !== '');
        set({ jobs, jobsCursor: first.next_cursor ?? null, jobsError: null });
        return first.revision;
      } catch (error) {
        set({ jobsError: describeError(error) });
        return null;
      }
    },

    async loadOlderJobs() {
      const { client, jobsCursor } = get();
      if (!client || !jobsCursor) return;
      try {
        const { result: next, heard } = await readPage(() => page(client, jobsCursor));
        set({ jobs: mergeLaterPage({ known: get().jobs, page: next, heard, gone }), jobsCursor: next.next_cursor ?? null });
      } catch (error) {
        set({ jobsError: describeError(error) });
      }
    },

    upsertJob(job) {
      const id = job.job_id;
      if (gone.has(id) || latest(get().jobs[id], job) !== job) return;
      const { [id]: samples = [], ...otherProgress } = get().jobProgress;
      const jobProgress =
        job.status === 'running'
          ? { ...otherProgress, [id]: addSample(samples, { at: Date.now(), done: job.progress.done }) }
          : otherProgress;
      set({ jobs: { ...get().jobs, [id]: job }, jobProgress });
    },

    applyJobEvent({ type, job }) {
      const id = job.job_id;
      for (const heard of listening) heard.set(id, latest(heard.get(id), job)!);
      if (type === 'deleted') return forget(id);
      if (get().jobSearch.trim() && !(id in get().jobs)) return;
      get().upsertJob(job);
    },

    async refreshJob(id) {
      await onJob(id, async (client) => {
        get().upsertJob(await client.call(API.getJob, { params: { id: id } }));
      });
    },

    renameJob: (id, title) =>
      onJob(id, async (client) => {
        get().upsertJob(await client.call(API.renameJob, { params: { id: id }, body: { title: title } }));
      }),

    /** A running job is cancelled (it stays, failed with "cancelled"). */
    cancelJob: (id) =>
      onJob(id, async (client) => {
        const job = await client.call(API.deleteJob, { params: { id: id } });
        if (job) get().upsertJob(job);
        else await get().refreshJob(id);
      }),

    /** A finished job is deleted with its audio. */
    deleteJob: (id) =>
      onJob(id, async (client) => {
        await client.call(API.deleteJob, { params: { id: id } });
        forget(id);
      }),

    /** Queues a failed job again; the new job replaces it (the gateway deletes the failed one). */
    async retryJob(id) {
      let replacement: string | null = null;
      await onJob(id, async (client) => {
        replacement = (await client.call(API.retryJob, { params: { id: id } })).job_id;
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
