import type { Store } from './types';

type StoreApi = { getState(): Store };

/** While the stream is down, running jobs are polled at this pace so progress keeps moving. */
const POLL_MS = 1000;
/** Even with live events, running jobs are re-read now and then: a stream can stall without breaking. */
const SAFETY_POLL_MS = 10_000;
const MAX_BACKOFF_MS = 10_000;

/**
 * Keeps the job list current: follows GET /events (fetch-streamed SSE, so the key goes in a
 * header), reloading the list whenever the stream (re)opens so nothing in between is missed.
 * When the stream breaks (network, gateway restart), running jobs are polled until it is back.
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
  await state().loadJobs();
  let backoff = 500;
  while (!signal.aborted) {
    const client = state().client;
    if (!client) return;
    try {
      await client.followEvents({
        signal,
        onOpen: () => {
          backoff = 500;
          state().setJobsSync('live');
          void state().loadJobs();
        },
        onEvent: ({ job }) => state().applyJobEvent(job),
      });
    } catch (error) {
      if (signal.aborted) return;
      if (state().noteAuthError(error)) return state().setJobsSync('off');
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
