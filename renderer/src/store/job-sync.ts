import { isUnauthorized } from '../api/client';
import type { Store } from './types';

type StoreApi = { getState(): Store };

/** While the stream is down, running jobs are polled at this pace so progress keeps moving. */
const POLL_MS = 1000;
/** Even with live events, running jobs are re-read now and then: a stream can stall without breaking. */
const SAFETY_POLL_MS = 10_000;
const MAX_BACKOFF_MS = 10_000;

/**
 * Keeps the job list current: reads the list, then follows GET /events (fetch-streamed SSE, so
 * the key goes in a header) from the list's revision (Last-Event-ID), so that every change after
 * the list arrives as an event; a reconnected stream resumes after the last event heard, and the
 * list is read again for jobs deleted meanwhile. Lists and events merge by revision
 * (job-merge.ts), in whatever order they arrive. When the stream breaks (network, gateway
 * restart), running jobs are polled until it is back. The same stream carries voice installs: they
 * go to the voice library (voice-library-slice.ts), which a reconnected stream has read again.
 * Returns a stop function.
 */
export function startJobSync(store: StoreApi): () => void {
  const controller = new AbortController();
  const { signal } = controller;
  void run(store, signal);
  const safety = setInterval(() => {
    if (store.getState().jobsSync === 'live') void pollOnce(store);
  }, SAFETY_POLL_MS);
  return () => {
    clearInterval(safety);
    controller.abort();
  };
}

async function run(store: StoreApi, signal: AbortSignal): Promise<void> {
  const state = store.getState;
  const listed = await state().loadJobs();
  let lastEventId = listed === null ? undefined : String(listed);
  // the list just read is current up to lastEventId: the first stream needs no other
  let current = listed !== null;
  let backoff = 500;
  while (!signal.aborted) {
    const client = state().client;
    if (!client) return;
    try {
      await client.followEvents({
        signal,
        lastEventId,
        onOpen: () => {
          backoff = 500;
          state().setJobsSync('live');
          if (!current) void state().loadJobs();
          current = false;
          if (state().library) void state().loadLibrary();
        },
        onEvent: (event) => {
          lastEventId = event.id ?? lastEventId;
          state().applyJobEvent(event);
        },
        onVoiceEvent: (event) => state().applyVoiceEvent(event),
      });
    } catch (error) {
      if (signal.aborted) return;
      if (isUnauthorized(error)) return state().setJobsSync('off');
    }
    if (signal.aborted) return;
    // The stream ended or broke: poll running jobs, then reconnect with a growing delay.
    state().setJobsSync('polling');
    await pollFor(store, backoff, signal);
    backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
  }
}

/** Polls running jobs every POLL_MS (at least once) for `ms`. */
async function pollFor(store: StoreApi, ms: number, signal: AbortSignal): Promise<void> {
  const until = Date.now() + ms;
  do {
    await pollOnce(store);
    await sleep(Math.min(POLL_MS, Math.max(0, until - Date.now())), signal);
  } while (!signal.aborted && Date.now() < until);
}

async function pollOnce(store: StoreApi): Promise<void> {
  const state = store.getState();
  const running = Object.values(state.jobs).filter((j) => j.status === 'running');
  await Promise.all(running.map((j) => state.refreshJob(j.job_id)));
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
