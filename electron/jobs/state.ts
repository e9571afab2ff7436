import type { JobStatus } from '../contract';

/**
 * The job state machine. Internal states are finer than the API's: a job waiting in the
 * queue (`queued`), one being synthesized (`running`) and one held back (`paused`) all show as
 * "running": none has ended.
 */
export type JobState = 'queued' | 'running' | 'paused' | 'done' | 'failed';

const TRANSITIONS: Record<JobState, readonly JobState[]> = {
  queued: ['running', 'paused', 'failed'],
  // back to queued: the gateway stopped (or crashed) mid-job and resumes it on start
  running: ['done', 'failed', 'queued', 'paused'],
  // held back with its saved chunks (a project paused, docs/projects.md): resumed or cancelled
  paused: ['queued', 'failed'],
  done: [],
  // a cancelled job of a series kept its saved chunks: its series continues it (JobSeries)
  failed: ['queued'],
};

export function canTransition(from: JobState, to: JobState): boolean {
  return TRANSITIONS[from].includes(to);
}

export function assertTransition(from: JobState, to: JobState): void {
  if (!canTransition(from, to)) throw new Error(`Job cannot go from ${from} to ${to}`);
}

export function publicStatus(state: JobState): JobStatus {
  return state === 'queued' || state === 'paused' ? 'running' : state;
}

export function isFinished(state: JobState): boolean {
  return state === 'done' || state === 'failed';
}

/** The states of a job that has not ended: what the queue's bounds count. */
export const UNFINISHED_STATES: readonly JobState[] = ['queued', 'running', 'paused'];

export const ALL_STATES = Object.keys(TRANSITIONS) as JobState[];
