import type { JobEventType } from '../contract';
import type { JobRow } from './rows';

/** A change of one job, as the runner reports it: the event's name and the job's row after it. */
export interface JobChange {
  type: JobEventType;
  job: JobRow;
}

/** The runner's events, typed (as BullMQ's WorkerListener): every job change is one "job" event. */
export interface JobChanges {
  job: [JobChange];
}

/** The change that says where a job stands now: what a new event stream sends first. */
export function currentChange(job: JobRow): JobChange {
  const type = job.state === 'done' || job.state === 'failed' ? job.state : 'progress';
  return { type, job };
}
