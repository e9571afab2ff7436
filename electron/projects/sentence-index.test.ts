import { describe, expect, it } from 'vitest';
import { compileRewrite } from '../lexicon/rewrite';
import { SentenceIndex } from './sentence-index';

const TEXT = `The Harbour

Branoc rowed out at dawn. The gulls followed his boat. New York was far away. He phoned Branoc's wife.`;

const entry = (grapheme: string, whole_word = true) => ({ grapheme, whole_word });

describe('SentenceIndex', () => {
  const index = SentenceIndex.of(TEXT, 'en');

  it('cuts the text as a render does, one sentence a chunk', () => {
    expect(index.sentences).toEqual([
      'The Harbour',
      'Branoc rowed out at dawn.',
      'The gulls followed his boat.',
      'New York was far away.',
      "He phoned Branoc's wife.",
    ]);
  });

  it('finds the sentences holding a grapheme by its words, in any case', () => {
    expect(index.holding(entry('branoc'))).toEqual([1, 4]);
    expect(index.holding(entry('New  York'))).toEqual([3]);
    expect(index.holding(entry('York City'))).toEqual([]);
    expect(index.holding(entry('ph', false))).toEqual([4]);
    expect(index.holding(entry('ph'))).toEqual([]);
    expect(index.holding(entry('…'))).toEqual([0, 1, 2, 3, 4]);
  });

  it('never misses a sentence the rewrite changes', () => {
    const voice = { voiceId: 'espeak-ng:en-us', language: 'en-US' };
    const entries = [entry('Branoc'), entry('new york'), entry('ph', false), entry('wife.'), entry("'s")];
    for (const [n, e] of entries.entries()) {
      const rewrite = compileRewrite([{ id: `${n}`, ...e, alias: 'X', language: 'en', case_sensitive: false }], voice);
      const changed = index.sentences.flatMap((sentence, i) => (rewrite(sentence).text === sentence ? [] : [i]));
      expect(changed.length).toBeGreaterThan(0);
      for (const i of changed) expect(index.holding(e)).toContain(i);
    }
  });
});
