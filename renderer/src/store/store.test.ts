// @vitest-environment happy-dom
/**
 * The zustand slices against a real gateway (real engine and jobs), with happy-dom placed at the
 * gateway's origin as the headless studio is.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTestGateway, type TestGateway } from '../../../electron/testing/gateway';
import { KEY_STORAGE } from '../api/connection';
import { createAppStore, STORAGE_KEY } from './index';
import { deliveryHint, previewSource } from './editor-slice';
import { filterVoices, languageOptions } from './engines-slice';
import { startJobSync } from './job-sync';
import { sortedJobs } from './job-order';

let gateway: TestGateway;
const THRESHOLD = 300;
const LONG = 'Waves broke on the rocks below the lighthouse all night long. '.repeat(12); // ~740

beforeAll(async () => {
  gateway = await startTestGateway({ inlineThreshold: THRESHOLD });
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(`${gateway.url}/`);
});
afterAll(() => gateway.stop());
beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

async function connected() {
  const store = createAppStore();
  await store.getState().connect({ baseUrl: gateway.url, apiKey: gateway.apiKey });
  return store;
}

describe('connection and engines', () => {
  it('connects, loads engines with their voices and the inline threshold', async () => {
    const store = await connected();
    const s = store.getState();
    expect(s.auth).toBe('ok');
    expect(s.enginesStatus).toBe('ready');
    expect(s.voices['espeak-ng']!.length).toBeGreaterThan(100);
    await expect.poll(() => store.getState().inlineThreshold).toBe(THRESHOLD);
  });

  it('a wrong key sends the user back to the key prompt and forgets the key', async () => {
    sessionStorage.setItem(KEY_STORAGE, 'wrong');
    const store = createAppStore();
    await store.getState().connect({ baseUrl: gateway.url, apiKey: 'wrong' });
    expect(store.getState().auth).toBe('rejected');
    expect(sessionStorage.getItem(KEY_STORAGE)).toBeNull();
    await store.getState().submitKey(gateway.apiKey);
    expect(store.getState().auth).toBe('ok');
  });

  it('filters voices by language, text and gender; favourites lead and persist', async () => {
    const store = await connected();
    const s = store.getState;
    s().setFilters({ language: 'fr' });
    expect(filterVoices(s()).every((v) => v.language.toLowerCase().startsWith('fr'))).toBe(true);
    s().setFilters({ language: '', query: 'scotland', engine: 'espeak-ng' });
    expect(filterVoices(s()).map((v) => v.id)).toEqual(['espeak-ng:en-gb-scotland']);
    s().setFilters({ query: '', gender: 'female' });
    expect(filterVoices(s()).every((v) => v.gender === 'female')).toBe(true);

    s().setFilters({ gender: '', engine: '' });
    s().toggleFavourite('espeak-ng:fi');
    expect(filterVoices(s())[0]!.id).toBe('espeak-ng:fi');
    s().setFilters({ favouritesOnly: true });
    expect(filterVoices(s()).map((v) => v.id)).toEqual(['espeak-ng:fi']);
    store.flushPersisted();
    expect(JSON.parse(localStorage.getItem(STORAGE_KEY)!).state.favourites).toEqual(['espeak-ng:fi']);
    expect(languageOptions(s()).some((l) => l.code === 'de')).toBe(true);
  });
});

describe('editor', () => {
  it('synthesizes short text inline into the player', async () => {
    const store = await connected();
    store.getState().setText('A short line.');
    store.getState().setVoice('espeak-ng:en-gb');
    await store.getState().synthesize();
    const current = store.getState().current;
    expect(current?.kind).toBe('audio');
    if (current?.kind === 'audio') {
      expect(current.audio.voice).toBe('espeak-ng:en-gb');
      expect(current.audio.blob.size).toBeGreaterThan(10_000);
    }
    expect(store.getState().editorError).toBeNull();
  });

  it('queues long text as a job, which lands in the job list', async () => {
    const store = await connected();
    store.getState().setText(LONG);
    await expect.poll(() => deliveryHint(LONG.length, store.getState().inlineThreshold)).toBe('job');
    await store.getState().synthesize();
    expect(store.getState().editorNotice).toMatch(/Queued as a job/);
    const [job] = sortedJobs(store.getState());
    expect(job?.characters).toBe(LONG.length);
  });

  it('previews the selection, else the first sentence, and shows gateway errors in place', async () => {
    const store = await connected();
    store.getState().setText('One. Two three four.');
    expect(previewSource(store.getState())).toBe('One.');
    store.getState().setSelection(5, 20);
    expect(previewSource(store.getState())).toBe('Two three four.');
    await store.getState().previewText();
    expect(store.getState().current?.title).toMatch(/^Preview/);

    store.getState().setVoice('espeak-ng:no-such-voice');
    await store.getState().synthesize();
    expect(store.getState().editorError).toMatch(/voice/i);
  });

  it('keeps the draft and settings across a restart', async () => {
    const first = await connected();
    first.getState().setText('Draft text');
    first.getState().setOption('rate', 1.4);
    first.getState().setOption('pitch', 9); // clamped to the contract's range
    first.flushPersisted(); // as when the page is hidden or closed
    const second = createAppStore();
    expect(second.getState().text).toBe('Draft text');
    expect(second.getState().rate).toBe(1.4);
    expect(second.getState().pitch).toBe(2);
  });
});

describe('jobs', () => {
  it('follows jobs live, cancels, retries and deletes them', async () => {
    const store = await connected();
    const stop = startJobSync(store);
    try {
      await expect.poll(() => store.getState().jobsSync).toBe('live');
      // A job started by another client shows up through the event stream and finishes.
      const response = await gateway.post('/api/v1/tts/synthesize', { text: LONG });
      const { job_id: id } = (await response.json()) as { job_id: string };
      await expect.poll(() => store.getState().jobs[id]?.status, { timeout: 30_000 }).toBe('done');

      await store.getState().deleteJob(id);
      expect(store.getState().jobs[id]).toBeUndefined();

      const long = await gateway.post('/api/v1/tts/synthesize', { text: LONG.repeat(40) });
      const { job_id: running } = (await long.json()) as { job_id: string };
      await expect.poll(() => store.getState().jobs[running]?.status, { timeout: 30_000 }).toBe('running');
      await store.getState().cancelJob(running);
      expect(store.getState().jobs[running]).toMatchObject({ status: 'failed', error: { code: 'cancelled' } });

      await store.getState().retryJob(running);
      const retried = sortedJobs(store.getState()).find((j) => j.job_id !== running && j.characters === LONG.length * 40);
      expect(retried).toBeDefined();
      await store.getState().cancelJob(retried!.job_id);
      expect(store.getState().jobErrors).toEqual({});
    } finally {
      stop();
    }
  });
});

describe('compare', () => {
  it('saves a session on the gateway, synthesizes each voice through the queue and reopens it elsewhere', async () => {
    const store = await connected();
    store.getState().addCompareVoices(['espeak-ng:en-us', 'espeak-ng:en-gb', 'espeak-ng:en-us']);
    expect(store.getState().compareVoices).toEqual(['espeak-ng:en-us', 'espeak-ng:en-gb']);
    store.getState().setCompareText('One sentence. Two sentences.\n---\nA second text.');
    await store.getState().runCompare(() => true);
    const id = store.getState().compareSessionId!;
    expect(store.getState().compareSession?.takes).toHaveLength(4);
    await vi.waitFor(() => expect(Object.keys(store.getState().compareAudio)).toHaveLength(4), { timeout: 90_000, interval: 250 });

    const other = await connected();
    await other.getState().openCompareSession(id);
    expect(other.getState().compareSession?.takes.map((t) => t.status)).toEqual(['ready', 'ready', 'ready', 'ready']);
    expect(other.getState().compareText).toBe('One sentence. Two sentences.\n---\nA second text.');
  });
});
