import type { JobStatus } from '../contract';

/**
 * The job state machine. Internal states are finer than the API's: a job waiting in the
 * queue (`queued`) and one being synthesized (`running`) both show as "running".
 */
export type JobState = 'queued' | 'running' | 'done' | 'failed';

const TRANSITIONS: Record<JobState, readonly JobState[]> = {
  queued: ['running', 'failed'],
  // back to queued: the gateway stopped (or crashed) mid-job and resumes it on start
  running: ['done', 'failed', 'queued'],
  done: [],
  failed: [],
};

export function canTransition(from: JobState, to: JobState): boolean {
  return TRANSITIONS[from].includes(to);
}

export function assertTransition(from: JobState, to: JobState): void {
  if (!canTransition(from, to)) throw new Error(`Job cannot go from ${from} to ${to}`);
}

export function publicStatus(state: JobState): JobStatus {
  return state === 'queued' ? 'running' : state;
}

export function isFinished(state: JobState): boolean {
  return state === 'done' || state === 'failed';
}

export const ALL_STATES = Object.keys(TRANSITIONS) as JobState[];
