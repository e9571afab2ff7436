import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ResolvedVoice } from '../engines/registry';
import type { ChapterRow, ProjectRow } from '../projects/store';
import { LexiconService } from './lexicon';
import { RenderKeys } from './render-keys';

let dataDir: string;
let lexicon: LexiconService;
/** The texts the lexicon was asked to rewrite: what was read again. */
let rewritten: string[];

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'orator-keys-'));
  lexicon = await LexiconService.open(dataDir);
  rewritten = [];
  const pronounce = lexicon.pronounce.bind(lexicon);
  lexicon.pronounce = (text, voice) => (rewritten.push(text), pronounce(text, voice));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

const voices = {
  resolve: () =>
    ({ voice: { id: 'espeak-ng:en-us', language: 'en-US' }, adapter: { phonemeAlphabet: 'x-espeak' } }) as unknown as ResolvedVoice,
};
const project = { id: 'p', voice: 'espeak-ng:en-us', rate: 1, pitch: 1, volume: 1, format: 'wav' } as ProjectRow;
const chapters = ['The sun rose. Branoc woke.', 'The gulls cried. The sea was grey.', 'Branoc rowed home. Iseult waited.'].map(
  (text, idx): Pick<ChapterRow, 'idx' | 'text' | 'edits'> => ({ idx, text, edits: [] }),
);
const entry = (grapheme: string) => ({ grapheme, alias: 'someone', language: 'en' });

describe('RenderKeys', () => {
  it('makes again after a lexicon change the keys of the chapters that hold its grapheme, reading no other', async () => {
    const keys = new RenderKeys(voices, lexicon);
    const first = chapters.map(keys.maker(project)!);
    expect(rewritten).toHaveLength(3);

    rewritten.length = 0;
    await lexicon.patch({ entries: [entry('Iseult')] });
    const second = chapters.map(keys.maker(project)!);
    expect(rewritten).toEqual([chapters[2]!.text]);
    expect(second.map((key, i) => key === first[i])).toEqual([true, true, false]);

    rewritten.length = 0;
    await lexicon.patch({ entries: [entry('Zorblat')] });
    expect(chapters.map(keys.maker(project)!)).toEqual(second);
    expect(rewritten).toEqual([]);

    rewritten.length = 0;
    const { entries } = lexicon.list();
    await lexicon.patch({ delete: entries.filter((e) => e.grapheme === 'Iseult').map((e) => e.id) });
    expect(chapters.map(keys.maker(project)!)).toEqual(first);
    expect(rewritten).toEqual([chapters[2]!.text]);
  });

  it('makes every key again when the settings change', async () => {
    const keys = new RenderKeys(voices, lexicon);
    const first = chapters.map(keys.maker(project)!);
    rewritten.length = 0;
    const faster = chapters.map(keys.maker({ ...project, rate: 1.2 })!);
    expect(rewritten).toHaveLength(3);
    faster.forEach((key, i) => expect(key).not.toBe(first[i]));
  });
});
