// @vitest-environment happy-dom
/** The job list in the store while a list read and events cross: nothing dropped, nothing regressed. */
import { expect, it } from 'vitest';
import type { Job } from '../api/contract';
import { createAppStore } from './index';

const job = (id: string, revision: number, status: Job['status'] = 'running'): Job => ({
  job_id: `0b7d5a62-6f1c-4a43-9a55-3b0f5d1f0c1${id}`,
  title: `Chapter ${id}`,
  status,
  progress: { done: status === 'done' ? 4 : 0, total: 4 },
  engine: 'espeak-ng',
  voice: 'espeak-ng:en-us',
  characters: 2000,
  format: 'wav',
  keep_wav: false,
  created_at: `2026-01-01T00:00:0${id}.000Z`,
  revision,
});

const json = (body: unknown) => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });

/** A store whose list answers only when the test releases it, with the page the test gives. */
async function storeWithHeldList() {
  let release: (page: { jobs: Job[]; revision: number }) => void = () => {};
  const fetchImpl: typeof fetch = async (input) => {
    const url = String(input);
    if (url.endsWith('/engines')) return json({ engines: [] });
    if (url.includes('/jobs?')) return json(await new Promise((resolve) => (release = resolve)));
    return new Response(JSON.stringify({ error: { code: 'not_found', message: 'not needed here' } }), { status: 404 });
  };
  const store = createAppStore();
  await store.getState().connect({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k' }, fetchImpl);
  const load = () => {
    const loaded = store.getState().loadJobs();
    return { answer: (page: { jobs: Job[]; revision: number }) => (release(page), loaded) };
  };
  return { store, load };
}

const shown = (jobs: Record<string, Job>) => Object.values(jobs).map((j) => [j.title, j.status]);

it('keeps a job whose events came before a list read without it', async () => {
  const { store, load } = await storeWithHeldList();
  const reading = load();
  // while the list is on its way: a new job is added, runs and is done
  store.getState().applyJobEvent({ type: 'added', job: job('2', 5) });
  store.getState().applyJobEvent({ type: 'done', job: job('2', 7, 'done') });
  expect(await reading.answer({ jobs: [job('1', 3, 'done')], revision: 4 })).toBe(4);
  expect(shown(store.getState().jobs)).toEqual(
    expect.arrayContaining([
      ['Chapter 1', 'done'],
      ['Chapter 2', 'done'],
    ]),
  );
});

it('keeps the latest state of a searched job whose event came before its list', async () => {
  const { store, load } = await storeWithHeldList();
  store.setState({ jobSearch: 'chapter' });
  const reading = load();
  // not in the results yet, so not shown; but heard
  store.getState().applyJobEvent({ type: 'done', job: job('3', 9, 'done') });
  expect(store.getState().jobs).toEqual({});
  await reading.answer({ jobs: [job('3', 8)], revision: 8 });
  expect(shown(store.getState().jobs)).toEqual([['Chapter 3', 'done']]);
});

it('lets a deleted job go for good, whatever older news of it comes after', async () => {
  const { store, load } = await storeWithHeldList();
  store.getState().upsertJob(job('4', 2, 'done'));
  const reading = load();
  store.getState().applyJobEvent({ type: 'deleted', job: job('4', 6, 'done') });
  await reading.answer({ jobs: [job('4', 2, 'done')], revision: 5 });
  store.getState().applyJobEvent({ type: 'renamed', job: job('4', 3, 'done') });
  expect(store.getState().jobs).toEqual({});
});
