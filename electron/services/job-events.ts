import type { JobEvent } from '../contract';
import { currentChange, type JobChange } from '../jobs/events';
import type { JobRunner } from '../jobs/runner';
import type { JobStore } from '../jobs/store';
import { toJobView } from '../jobs/view';

/** Jobs read at a time when a stream replays the changes after a client's last event. */
export const REPLAY_PAGE = 100;

/** Job events, for a transport to carry (an event stream). */
export interface JobEventFeed {
  /**
   * What is sent before live events, a page at a time, each page read when it is asked for. The
   * transport subscribes in the same turn of the event loop as it finds the backlog ended, so that
   * no change falls between the two: a change made while a page was being sent is in a later page.
   */
  backlog: Iterable<JobEvent[]>;
  /** Calls `listener` with every live event; returns the unsubscribe function. */
  subscribe(listener: (event: JobEvent) => void): () => void;
  /** Whether the feed ends after this event. */
  isLast(event: JobEvent): boolean;
}

const toEvent = (change: JobChange): JobEvent => ({ type: change.type, job: toJobView(change.job) });

/** One job's events: first where it stands now, ending after it is done, failed or deleted. */
export function oneJobFeed(store: JobStore, runner: JobRunner, id: string): JobEventFeed {
  return {
    backlog: whereItStands(store, id),
    subscribe: subscription(runner, (change) => change.job.id === id),
    isLast: (event) => event.job.status !== 'running' || event.type === 'deleted',
  };
}

/**
 * Every job's events, never ending. With `after` (the client's Last-Event-ID), first every job
 * changed after that event, as it stands now, in the order of their last changes: the client
 * then knows every change it missed, with the ids of the live events that follow.
 */
export function allJobsFeed(store: JobStore, runner: JobRunner, after?: number): JobEventFeed {
  return {
    backlog: after === undefined ? [] : changesAfter(store, after),
    subscribe: subscription(runner, () => true),
    isLast: () => false,
  };
}

function subscription(runner: JobRunner, accept: (change: JobChange) => boolean): JobEventFeed['subscribe'] {
  return (listener) => {
    const forward = (change: JobChange) => {
      if (accept(change)) listener(toEvent(change));
    };
    runner.on('job', forward);
    return () => runner.off('job', forward);
  };
}

/** The job where it stands; again if it changed while that was being sent. */
function* whereItStands(store: JobStore, id: string): Generator<JobEvent[]> {
  let sent: number | undefined;
  for (let row = store.get(id); row && row.revision !== sent; row = store.get(id)) {
    sent = row.revision;
    yield [toEvent(currentChange(row))];
  }
}

function* changesAfter(store: JobStore, after: number): Generator<JobEvent[]> {
  // an id from another history (a database restored from a backup, another data dir): everything
  let cursor = after > store.revision() ? 0 : after;
  for (;;) {
    const rows = store.changedSince(cursor, REPLAY_PAGE);
    if (rows.length === 0) return;
    yield rows.map((row) => toEvent(currentChange(row)));
    cursor = rows[rows.length - 1]!.revision;
  }
}
