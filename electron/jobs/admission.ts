import { ApiError } from '../contract';
import type { JobStore } from './store';

/** What the unfinished jobs (waiting or running) may add up to before new ones are refused. */
export interface QueueBounds {
  maxQueuedJobs: number;
  /** Characters of all unfinished jobs together. */
  maxQueuedChars: number;
}

/** A full queue drains by itself: clients are told to come back later. */
const RETRY_AFTER = { 'retry-after': '30' };

/** Throws unless a job of `characters` fits in the queue now (429 queue_full) or ever (413 text_too_long). */
export function assertQueueRoom(store: JobStore, bounds: QueueBounds, characters: number): void {
  const { maxQueuedJobs, maxQueuedChars } = bounds;
  if (characters > maxQueuedChars) {
    throw new ApiError('text_too_long', `text has ${characters} characters; the queue takes at most ${maxQueuedChars} characters.`);
  }
  const queued = store.unfinishedTotals();
  if (queued.jobs >= maxQueuedJobs) {
    throw new ApiError('queue_full', `The queue holds ${maxQueuedJobs} unfinished jobs; try again later.`, RETRY_AFTER);
  }
  if (queued.characters + characters > maxQueuedChars) {
    throw new ApiError(
      'queue_full',
      `The queue holds ${queued.characters} characters of unfinished jobs; ${characters} more would pass its limit of ${maxQueuedChars}. Try again later.`,
      RETRY_AFTER,
    );
  }
}
