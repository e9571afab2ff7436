import type { Job } from '../api/contract';
import type { StoreGet, StoreSet } from './types';

/**
 * What the jobs slice keeps beside its state, shared by its list reads (job-list-actions.ts) and
 * its actions on one job (job-actions.ts).
 */
export interface JobTracking {
  /** Jobs deleted (here or, as events said, elsewhere): an older list or event cannot bring them back. */
  gone: Set<string>;
  /** For each page of the list being read, the events heard meanwhile, the latest per job. */
  listening: Set<Map<string, Job>>;
}

export const newJobTracking = (): JobTracking => ({ gone: new Set(), listening: new Set() });

/** Takes the error off a job's row, if it shows one. */
export function clearJobError(set: StoreSet, get: StoreGet, id: string): void {
  if (!(id in get().jobErrors)) return;
  const { [id]: _, ...rest } = get().jobErrors;
  set({ jobErrors: rest });
}

/** A job deleted: it leaves the list for good, with its progress and error, and the player if it plays there. */
export function forgetJob(set: StoreSet, get: StoreGet, tracking: JobTracking, id: string): void {
  tracking.gone.add(id);
  const { [id]: _job, ...jobs } = get().jobs;
  const { [id]: _progress, ...jobProgress } = get().jobProgress;
  set({ jobs, jobProgress });
  clearJobError(set, get, id);
  const current = get().current;
  if (current?.kind === 'job' && current.jobId === id) get().closePlayer();
}
