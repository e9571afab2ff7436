import { describe, expect, it } from 'vitest';
import type { LexiconEntry } from '../contract';
import { LexiconHistory } from './lexicon-history';

const entry = (id: string, grapheme: string, alias = 'x'): LexiconEntry => ({
  id,
  grapheme,
  alias,
  language: 'en',
  case_sensitive: false,
  whole_word: true,
});
const graphemes = (changed: { grapheme: string }[] | null) => changed?.map((c) => c.grapheme).sort();

describe('LexiconHistory', () => {
  it('says which graphemes were added, removed or changed between revisions seen', () => {
    const history = new LexiconHistory();
    history.observe(0, [entry('a', 'Branoc')]);
    history.observe(1, [entry('a', 'Branoc'), entry('b', 'Iseult')]);
    history.observe(3, [entry('a', 'Branoc', 'Bran nock')]);
    expect(graphemes(history.changedBetween(0, 1))).toEqual(['Iseult']);
    expect(graphemes(history.changedBetween(1, 3))).toEqual(['Branoc', 'Branoc', 'Iseult']);
    expect(graphemes(history.changedBetween(0, 3))).toEqual(['Branoc', 'Branoc', 'Iseult', 'Iseult']);
    expect(history.changedBetween(3, 3)).toEqual([]);
  });

  it('knows nothing of revisions it did not see', () => {
    const history = new LexiconHistory();
    history.observe(5, []);
    expect(history.changedBetween(2, 5)).toBeNull();
    expect(history.changedBetween(5, 6)).toBeNull();
  });
});
