/**
 * Properties of the chunker for any text: every character kept, once, in order; no chunk empty
 * or over the size bound; chunks cut and spaces added never inside a grapheme, nor inside a word
 * (a run of letters and digits, which Intl.Segmenter divides into words in scripts without
 * spaces) unless the word is longer than a chunk. Texts are built from pieces that stress the
 * segmenter: abbreviations, numbers, sentence ends without a space, scripts without spaces,
 * emoji, combining and invisible marks, runs of thousands of characters without a space.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codePoints } from '../contract/text';
import { language, longText, text } from '../testing/arbitrary-text';
import { chunkText, PARAGRAPH_PAUSE_MS, SENTENCE_PAUSE_MS } from './chunker';

/** The segmenter's locale for a tag, as the chunker picks it (engines' tags are not all valid BCP 47). */
function localeOf(tag: string): string | undefined {
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch {
    return undefined;
  }
}

/** The text's non-whitespace code points, each with whether whitespace (or a chunk boundary) comes before it. */
function marks(parts: string[]): { char: string; separated: boolean }[] {
  const out: { char: string; separated: boolean }[] = [];
  for (const part of parts) {
    let separated = true;
    for (const char of part) {
      if (/\s/.test(char)) separated = true;
      else {
        out.push({ char, separated });
        separated = false;
      }
    }
  }
  return out;
}

/** For each index of marks(text): whether a segment of `granularity` starts there, and its segment's length. */
function segmentsOf(text: string, tag: string, granularity: 'word' | 'grapheme') {
  const starts = new Set<number>();
  const lengths: number[] = [];
  for (const { segment } of new Intl.Segmenter(localeOf(tag), { granularity }).segment(text)) {
    starts.add(lengths.length);
    const length = [...segment].filter((char) => !/\s/.test(char)).length;
    for (let i = 0; i < length; i++) lengths.push(length);
  }
  return { starts, lengths };
}

const graphemeCount = (text: string) => [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)].length;

/** Letters, digits, marks and connectors: what words are made of; a cut beside anything else cuts no word. */
const inWord = (char: string | undefined) => char !== undefined && /[\p{L}\p{N}\p{M}\p{Pc}]/u.test(char);

/** Checks every property of chunkText(input, tag, maxChars). */
function expectGoodChunks(input: string, tag: string, maxChars: number) {
  const chunks = chunkText(input, tag, maxChars);
  for (const chunk of chunks) {
    expect(chunk.text).toMatch(/\S/);
    // over the bound only as one grapheme (a letter with more accents than the bound)
    const fits = codePoints(chunk.text) <= maxChars || graphemeCount(chunk.text) === 1;
    expect([chunk.text.slice(0, 40), fits]).toEqual([chunk.text.slice(0, 40), true]);
    expect([SENTENCE_PAUSE_MS, PARAGRAPH_PAUSE_MS]).toContain(chunk.pauseMs);
  }
  // every non-whitespace character once, in order
  const source = marks([input]);
  const spoken = marks(chunks.map((c) => c.text));
  expect(spoken.map((m) => m.char).join('')).toBe(source.map((m) => m.char).join(''));
  // a separation the text did not have (a chunk boundary, an added space) never inside a grapheme,
  // and inside a run of letters and digits only where the segmenter starts a word (Japanese) or
  // inside a word longer than a chunk
  const graphemes = segmentsOf(input, tag, 'grapheme');
  const words = segmentsOf(input, tag, 'word');
  const cutsWord = (i: number) =>
    inWord(source[i - 1]?.char) && inWord(source[i]!.char) && !words.starts.has(i) && words.lengths[i]! <= maxChars;
  const added = spoken.flatMap((m, i) => (m.separated && !source[i]!.separated && (!graphemes.starts.has(i) || cutsWord(i)) ? [i] : []));
  const around = (i: number) =>
    `${source
      .slice(Math.max(0, i - 8), i)
      .map((m) => m.char)
      .join('')}|${source
      .slice(i, i + 8)
      .map((m) => m.char)
      .join('')}`;
  expect(added.map(around)).toEqual([]);
}

describe('chunkText, for any text', () => {
  it('keeps every character once and in order, cuts no word or grapheme, and bounds every chunk', () => {
    fc.assert(fc.property(text, language, fc.integer({ min: 8, max: 600 }), expectGoodChunks), { numRuns: 2000 });
  });

  it('does so beyond its 4,000-character window and in runs of thousands of characters without a space', () => {
    fc.assert(fc.property(longText, language, fc.integer({ min: 8, max: 600 }), expectGoodChunks), { numRuns: 10 });
  });
});
