import type { OratorClient } from '../api/client';
import { API, ApiError } from '../api/contract';
import { describeError } from '../lib/format';
import { clearJobError, forgetJob, type JobTracking } from './job-tracking';
import type { JobsSlice } from './jobs-slice';
import type { StoreGet, StoreSet } from './types';

type OneJobActions = Pick<JobsSlice, 'refreshJob' | 'renameJob' | 'cancelJob' | 'deleteJob' | 'retryJob'>;

/** Actions on one job, each through the gateway; an error shows on the job's row. */
export function jobActions(set: StoreSet, get: StoreGet, tracking: JobTracking): OneJobActions {
  /**
   * Runs an action on one job: a job that no longer exists leaves the list, other errors show on
   * its row. Resolves to whether the action succeeded.
   */
  const onJob = async (id: string, action: (client: OratorClient) => Promise<void>): Promise<boolean> => {
    const client = get().client;
    if (!client) return false;
    clearJobError(set, get, id);
    try {
      await action(client);
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.code === 'job_not_found') forgetJob(set, get, tracking, id);
      else set({ jobErrors: { ...get().jobErrors, [id]: describeError(error) } });
      return false;
    }
  };

  return {
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
        forgetJob(set, get, tracking, id);
      }),

    /** Queues a failed job again; the new job replaces it (the gateway deletes the failed one). */
    async retryJob(id) {
      let replacement: string | null = null;
      await onJob(id, async (client) => {
        replacement = (await client.call(API.retryJob, { params: { id: id } })).job_id;
        forgetJob(set, get, tracking, id);
        await get().refreshJob(replacement);
      });
      return replacement;
    },
  };
}
