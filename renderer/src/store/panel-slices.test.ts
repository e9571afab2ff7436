// @vitest-environment happy-dom
/**
 * The lexicon and projects slices with a fetch that answers when the test says: errors shown the
 * way the job list shows them, and answers that come late (for an old key, or a project no longer
 * chosen) never overwrite newer state.
 */
import { expect, it } from 'vitest';
import type { LexiconEntry } from '../api/contract';
import { testProject } from '../testing/projects';
import { createAppStore } from './index';

const entry = (grapheme: string): LexiconEntry => ({
  id: `id-${grapheme}`,
  grapheme,
  alias: `${grapheme} said otherwise`,
  language: 'en',
  case_sensitive: false,
  whole_word: true,
});

const project = (id: string) => testProject({ project_id: id });

/** A store on a fetch whose answers to `path` the test releases one by one, in the order it likes. */
async function storeWithHeldAnswers() {
  const held = new Map<string, ((response: Response) => void)[]>();
  const fetchImpl: typeof fetch = async (input) => {
    const url = new URL(String(input));
    if (url.pathname.endsWith('/engines')) return Response.json({ engines: [] });
    return new Promise((resolve) => held.set(url.pathname, [...(held.get(url.pathname) ?? []), resolve]));
  };
  const store = createAppStore();
  const connect = (apiKey: string) => store.getState().connect({ baseUrl: 'http://127.0.0.1:1', apiKey }, fetchImpl);
  await connect('first-key');
  /** Answers the oldest request still waiting for `path`. */
  const answer = async (path: string, response: Response) => {
    await expect.poll(() => held.get(`/api/v1/tts${path}`)?.length ?? 0).toBeGreaterThan(0);
    held.get(`/api/v1/tts${path}`)!.shift()!(response);
  };
  return { store, connect, answer };
}

const refusal = (code: string, status: number) => Response.json({ error: { code, message: `Refused: ${code}.` } }, { status });

it("drops a lexicon answer meant for the old key, and shows the new key's", async () => {
  const { store, connect, answer } = await storeWithHeldAnswers();
  const old = store.getState().loadLexicon();
  await connect('second-key');
  const current = store.getState().loadLexicon();
  await answer('/lexicon', Response.json({ entries: [entry('Old')] }));
  await answer('/lexicon', Response.json({ entries: [entry('New')] }));
  await Promise.all([old, current]);
  expect(store.getState().lexicon.map((e) => e.grapheme)).toEqual(['New']);
});

it('shows a lexicon error in place of the last notice, and a rejected key at the key prompt', async () => {
  const { store, answer } = await storeWithHeldAnswers();
  const adding = store.getState().addLexiconEntry({ grapheme: 'Zog', alias: 'Zog the first', language: 'en' });
  await answer('/lexicon', Response.json({ entries: [entry('Zog')] }));
  expect(await adding).toBe(true);
  expect(store.getState()).toMatchObject({ lexiconNotice: 'Added "Zog".', lexiconError: null });

  const refused = store.getState().deleteLexiconEntry('id-Zog');
  await answer('/lexicon', refusal('lexicon_too_large', 413));
  expect(await refused).toBe(false);
  expect(store.getState()).toMatchObject({ lexiconNotice: null, lexiconError: 'Refused: lexicon_too_large.' });

  const unauthorized = store.getState().loadLexicon();
  await answer('/lexicon', refusal('unauthorized', 401));
  await unauthorized;
  expect(store.getState().auth).toBe('rejected');
});

it('opens the project asked for last, whatever order the answers come in, and ignores news of one no longer open', async () => {
  const { store, answer } = await storeWithHeldAnswers();
  const first = store.getState().openProject('a');
  const second = store.getState().openProject('b');
  await answer('/projects/b', Response.json(project('b')));
  await answer('/projects/a', Response.json(project('a')));
  await Promise.all([first, second]);
  expect(store.getState().project?.project_id).toBe('b');

  // a poll of "a" answering late changes nothing; news of "b" is taken
  store.getState().updateProject('a', { ...project('a'), title: 'Late' });
  store.getState().updateProject('b', { ...project('b'), title: 'Renamed' });
  expect(store.getState().project).toMatchObject({ project_id: 'b', title: 'Renamed' });
  store.getState().updateProject('b', null);
  expect(store.getState().project).toBeNull();

  const listing = store.getState().loadProjects();
  await answer('/projects', refusal('internal_error', 500));
  await listing;
  expect(store.getState().projectsError).toBe('Refused: internal_error.');
});
