import type { JobStore } from '../jobs/store';
import type { JobService } from './jobs';

/** Cancels (if running) and deletes jobs that a project or a compare session no longer uses; a job already gone is skipped. */
export async function dropJobs(store: JobStore, jobs: JobService, ids: readonly (string | null)[]): Promise<void> {
  for (const id of ids) {
    if (id === null || !store.get(id)) continue;
    if ((await jobs.cancelOrDelete(id)) !== null) await jobs.cancelOrDelete(id);
  }
}
