import { describe, expect, it } from 'vitest';
import { applyEdits, carryEdits, editsInRendered, recordEdit, utf16Offset, type SentenceEdit } from './edits';

const TEXT = 'One fish. Two fish. Red fish. Blue fish.';
/** The span of `sentence` in `text`. */
const span = (text: string, sentence: string): [number, number] => {
  const at = text.indexOf(sentence);
  return [at, at + sentence.length];
};

describe('sentence edits of a chapter', () => {
  it('applies edits in place of their originals, the manuscript untouched', () => {
    const edits = recordEdit(TEXT, [], span(TEXT, 'Two fish.'), 'Three cats.');
    expect(edits).toEqual([{ at: 10, original: 'Two fish.', text: 'Three cats.' }]);
    const rendered = applyEdits(TEXT, edits);
    expect(rendered).toBe('One fish. Three cats. Red fish. Blue fish.');
    // a later sentence, found in the text as rendered, maps back to the manuscript past the first edit
    const more = recordEdit(TEXT, edits, span(rendered, 'Blue fish.'), 'Green eggs.');
    expect(more).toEqual([edits[0], { at: 30, original: 'Blue fish.', text: 'Green eggs.' }]);
    expect(applyEdits(TEXT, more)).toBe('One fish. Three cats. Red fish. Green eggs.');
  });

  it('edits an edited sentence again keeping the manuscript’s original, and drops an edit back to it', () => {
    const once = recordEdit(TEXT, [], span(TEXT, 'Two fish.'), 'Three cats.');
    const rendered = applyEdits(TEXT, once);
    const twice = recordEdit(TEXT, once, span(rendered, 'Three cats.'), 'Four dogs.');
    expect(twice).toEqual([{ at: 10, original: 'Two fish.', text: 'Four dogs.' }]);
    expect(recordEdit(TEXT, twice, span(applyEdits(TEXT, twice), 'Four dogs.'), 'Two fish.')).toEqual([]);
  });

  it('merges a sentence that overlaps an edit (an edit of two sentences, split by a render) into one edit', () => {
    const two = recordEdit(TEXT, [], span(TEXT, 'Two fish.'), 'Two cats. Ten cats.');
    const rendered = applyEdits(TEXT, two);
    const merged = recordEdit(TEXT, two, span(rendered, 'Ten cats. Red fish.'), 'Many cats.');
    expect(merged).toEqual([{ at: 10, original: 'Two fish. Red fish.', text: 'Two cats. Many cats.' }]);
    expect(applyEdits(TEXT, merged)).toBe('One fish. Two cats. Many cats. Blue fish.');
  });

  it('carries edits to a changed manuscript where their sentence still is, and flags those whose sentence is gone', () => {
    const edits = [
      { at: 10, original: 'Two fish.', text: 'Three cats.' },
      { at: 30, original: 'Blue fish.', text: 'Green eggs.' },
    ];
    const changed = 'A new opening. One fish. Two fish. Red fish. Black fish.';
    const carried = carryEdits(TEXT, changed, edits);
    expect(carried).toEqual([
      { at: 25, original: 'Two fish.', text: 'Three cats.' },
      { at: null, original: 'Blue fish.', text: 'Green eggs.' },
    ]);
    expect(applyEdits(changed, carried)).toBe('A new opening. One fish. Three cats. Red fish. Black fish.');
    expect(carryEdits(TEXT, TEXT, edits)).toEqual(edits);
    // a stale edit stays stale, shown without a place
    expect(editsInRendered(changed, carried)).toEqual([
      { original: 'Two fish.', text: 'Three cats.', stale: false, text_start: 25, text_end: 36 },
      { original: 'Blue fish.', text: 'Green eggs.', stale: true },
    ]);
  });

  it('places a repeated sentence’s edit at the same occurrence, or the one nearest where it was', () => {
    const text = 'Yes. No. Yes. No. Yes.';
    const edits: SentenceEdit[] = recordEdit(text, [], [14, 17], 'Maybe.');
    expect(carryEdits(text, `Intro. ${text}`, edits)).toEqual([{ at: 21, original: 'No.', text: 'Maybe.' }]);
    // one occurrence less: the nearest, in proportion to the text's length
    expect(carryEdits(text, 'Yes. No. Yes. Yes. And on.', edits)).toEqual([{ at: 5, original: 'No.', text: 'Maybe.' }]);
  });

  it('counts code points where the API does', () => {
    const text = '𝔸 is a letter. 𝔹 too.';
    expect(utf16Offset(text, 15)).toBe(16);
    const edits = recordEdit(text, [], [utf16Offset(text, 15), text.length], '𝔹 as well.');
    expect(editsInRendered(text, edits)).toEqual([{ original: '𝔹 too.', text: '𝔹 as well.', stale: false, text_start: 15, text_end: 25 }]);
  });
});
