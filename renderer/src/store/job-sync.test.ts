// @vitest-environment happy-dom
/** The job list's live updates: the event stream, and polling of running jobs while it is broken. */
import { afterEach, expect, it } from 'vitest';
import type { Job } from '../api/contract';
import { createAppStore } from './index';
import { startJobSync } from './job-sync';

const job = (done: number, status: Job['status'] = 'running'): Job => ({
  job_id: '0b7d5a62-6f1c-4a43-9a55-3b0f5d1f0c11',
  title: 'Chapter One The lighthouse stood at the end of the world',
  status,
  progress: { done, total: 4 },
  engine: 'espeak-ng',
  voice: 'espeak-ng:en-us',
  characters: 2000,
  format: 'wav',
  keep_wav: false,
  created_at: '2026-01-01T00:00:00.000Z',
  // each state of this job is a later change
  revision: done + 1,
});

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
let stop = () => {};
afterEach(() => stop());

it('polls running jobs while the event stream cannot be reached, and goes live when it is back', async () => {
  let down = true;
  let polls = 0;
  let opens = 0;
  const fetchImpl: typeof fetch = async (input) => {
    const url = String(input);
    if (url.endsWith('/engines')) return json({ engines: [] });
    if (url.endsWith('/settings')) return json({ error: { code: 'not_found', message: 'not needed here' } }, 404);
    if (url.endsWith('/events')) {
      // A network failure, as fetch reports it: the gateway is unreachable for a while.
      if (down) throw new TypeError('fetch failed');
      opens++;
      // A stream that stays open, with nothing to say.
      return new Response(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode(': open\n\n')) }), {
        headers: { 'content-type': 'text/event-stream' },
      });
    }
    if (url.includes('/jobs?')) return json({ jobs: [job(0)], revision: 1 });
    polls++;
    return json(polls >= 3 ? job(4, 'done') : job(polls));
  };
  const store = createAppStore();
  await store.getState().connect({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k' }, fetchImpl);
  const progress: number[] = [];
  store.subscribe((state) => {
    const done = state.jobs[job(0).job_id]?.progress.done;
    if (done !== undefined && progress.at(-1) !== done) progress.push(done);
  });
  stop = startJobSync(store);
  await expect.poll(() => store.getState().jobsSync).toBe('polling');
  await expect.poll(() => store.getState().jobs[job(0).job_id]?.status, { timeout: 10_000 }).toBe('done');
  // Progress moved while the stream was down, not only at the end.
  expect(progress).toEqual([0, 1, 2, 4]);
  const settled = polls;

  down = false;
  await expect.poll(() => store.getState().jobsSync, { timeout: 15_000 }).toBe('live');
  expect(opens).toBe(1);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect(polls).toBe(settled); // finished jobs are not polled, and a live stream needs no polling
});

it('reconnects a broken event stream and reloads the list when it opens again', async () => {
  let opens = 0;
  let lists = 0;
  const fetchImpl: typeof fetch = async (input) => {
    const url = String(input);
    if (url.endsWith('/engines')) return json({ engines: [] });
    if (url.includes('/jobs?')) {
      lists++;
      return json({ jobs: [], revision: 0 });
    }
    if (url.endsWith('/events')) {
      opens++;
      // A stream that ends at once, as when the gateway restarts.
      return new Response('retry: 2000\n\n', { headers: { 'content-type': 'text/event-stream' } });
    }
    return json({ error: { code: 'not_found', message: 'x' } }, 404);
  };
  const store = createAppStore();
  await store.getState().connect({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k' }, fetchImpl);
  stop = startJobSync(store);
  await expect.poll(() => opens, { timeout: 5000 }).toBeGreaterThanOrEqual(2);
  expect(lists).toBeGreaterThanOrEqual(opens);
});

it('reads the voice library again when the stream opens again, once the library has been read', async () => {
  let opens = 0;
  let libraryReads = 0;
  const fetchImpl: typeof fetch = async (input) => {
    const url = String(input);
    if (url.endsWith('/engines')) return json({ engines: [] });
    if (url.includes('/jobs?')) return json({ jobs: [], revision: 0 });
    if (url.endsWith('/voice-library')) {
      libraryReads++;
      return json({ catalog: { url: 'file:///catalog.json', ref: null, updated_at: '2026-01-01T00:00:00.000Z' }, voices: [] });
    }
    if (url.endsWith('/events')) {
      opens++;
      // A stream that ends at once, as when the gateway restarts: install events may be missed.
      return new Response('retry: 2000\n\n', { headers: { 'content-type': 'text/event-stream' } });
    }
    return json({ error: { code: 'not_found', message: 'x' } }, 404);
  };
  const store = createAppStore();
  await store.getState().connect({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k' }, fetchImpl);
  stop = startJobSync(store);
  await expect.poll(() => opens, { timeout: 5000 }).toBeGreaterThanOrEqual(2);
  expect(libraryReads).toBe(0); // nobody opened the library: nothing to keep current
  await store.getState().loadLibrary();
  const read = libraryReads;
  const opened = opens;
  await expect.poll(() => opens, { timeout: 10_000 }).toBeGreaterThan(opened);
  await expect.poll(() => libraryReads).toBeGreaterThan(read);
});
