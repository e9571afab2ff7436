import type { OratorClient } from '../api/client';
import { API, type Job } from '../api/contract';
import { describeError } from '../lib/format';
import { addSample } from '../lib/throughput';
import { latest, mergeFirstPage, mergeLaterPage } from './job-merge';
import { JOB_ORDERS } from './job-order';
import { forgetJob, type JobTracking } from './job-tracking';
import type { JobsSlice } from './jobs-slice';
import type { Store, StoreGet, StoreSet } from './types';

const PAGE = 100;

/** Reads a page, collecting what events say meanwhile. */
async function readPage<T>(listening: JobTracking['listening'], read: () => Promise<T>): Promise<{ result: T; heard: Map<string, Job> }> {
  const heard = new Map<string, Job>();
  listening.add(heard);
  try {
    return { result: await read(), heard };
  } finally {
    listening.delete(heard);
  }
}

/** The next page of the list as it is searched and ordered now. */
function listPage(client: OratorClient, state: Pick<Store, 'jobOrder' | 'jobSearch'>, cursor?: string) {
  const { sort, order } = JOB_ORDERS[state.jobOrder];
  const q = state.jobSearch.trim();
  return client.call(API.listJobs, { query: { limit: PAGE, sort, order, ...(q ? { q } : {}), ...(cursor ? { cursor } : {}) } });
}

type ListActions = Pick<JobsSlice, 'setJobQuery' | 'loadJobs' | 'loadOlderJobs' | 'upsertJob' | 'applyJobEvent'>;

/** The job list read page by page and kept current by events, merged by revision (job-merge.ts). */
export function jobListActions(set: StoreSet, get: StoreGet, tracking: JobTracking): ListActions {
  const { gone, listening } = tracking;
  return {
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
        const { result: first, heard } = await readPage(listening, () => listPage(client, get()));
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
        const { result: next, heard } = await readPage(listening, () => listPage(client, get(), jobsCursor));
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
      if (type === 'deleted') return forgetJob(set, get, tracking, id);
      if (get().jobSearch.trim() && !(id in get().jobs)) return;
      get().upsertJob(job);
    },
  };
}
