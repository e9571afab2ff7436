import type { Job } from '../api/contract';

/**
 * How what the studio hears about jobs is merged, whatever order it arrives in: each job carries
 * its revision (one counter over every change of every job), so of two states of a job the one
 * with the higher revision is the later, and a list read at revision R is out of date, for any
 * job, only by changes numbered above R.
 */

/** The latest of the states of one job (a higher revision is later); undefined when none is known. */
export function latest(...states: (Job | undefined)[]): Job | undefined {
  let newest: Job | undefined;
  for (const state of states) if (state && (!newest || state.revision > newest.revision)) newest = state;
  return newest;
}

/** A page of the list as the gateway read it, with what the studio knows and heard while it was read. */
export interface PageMerge {
  known: Record<string, Job>;
  page: { jobs: Job[]; revision: number };
  /** Events that arrived while the page was being read, the latest per job: the page may be older. */
  heard: ReadonlyMap<string, Job>;
  /** Jobs known to be deleted: nothing brings them back. */
  gone: ReadonlySet<string>;
}

/**
 * The jobs after the first page of the list is read (again): each job of the page in its latest
 * state; of the other jobs known, only those changed after the page was read (a job added since).
 * The rest were deleted, left the search, or are on a later page, which loads again when asked for.
 * With a search on, only the page's jobs stay: whether another job matches is the gateway's to say.
 */
export function mergeFirstPage({ known, page, heard, gone }: PageMerge, searching: boolean): Record<string, Job> {
  const merged = withPage(known, page.jobs, heard, gone);
  if (searching) return merged;
  for (const job of Object.values(known)) {
    if (!(job.job_id in merged) && job.revision > page.revision) merged[job.job_id] = job;
  }
  return merged;
}

/** The jobs after a later page is read: its jobs added in their latest states, every job known kept. */
export function mergeLaterPage({ known, page, heard, gone }: PageMerge): Record<string, Job> {
  return { ...known, ...withPage(known, page.jobs, heard, gone) };
}

function withPage(known: Record<string, Job>, jobs: Job[], heard: ReadonlyMap<string, Job>, gone: ReadonlySet<string>) {
  const merged: Record<string, Job> = {};
  for (const job of jobs) {
    const id = job.job_id;
    if (!gone.has(id)) merged[id] = latest(job, known[id], heard.get(id))!;
  }
  return merged;
}
