import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { language, longText, text } from '../testing/arbitrary-text';
import { chunkText } from './chunker';
import type { LexiconEntry } from '../contract';
import { compileRewrite } from '../lexicon/rewrite';
import { sentenceSpans, shownText, spokenChunks, type SentenceSpan } from './sentence-spans';

const lexicon = (...entries: [grapheme: string, alias: string][]) =>
  compileRewrite(
    entries.map(([grapheme, alias], i): LexiconEntry => ({
      id: String(i),
      grapheme,
      alias,
      language: 'en',
      case_sensitive: false,
      whole_word: true,
    })),
    { voiceId: 'espeak-ng:en-us', language: 'en-US' },
  );

const codePointSlice = (text: string, start: number, end: number) => [...text].slice(start, end).join('');
const visible = (text: string) => text.replace(/\s+/g, '');

/** Every property of the spans of `input` chunked at `maxChars`. */
function expectSpansCoverText(input: string, tag: string, maxChars: number) {
  const chunks = chunkText(input, tag, maxChars);
  const spans = sentenceSpans(input, chunks);
  expect(spans).toHaveLength(chunks.length);
  const all: { span: SentenceSpan; chunk: string }[] = spans.flatMap((list, i) => list.map((span) => ({ span, chunk: chunks[i]!.text })));
  let covered = 0;
  for (const { span, chunk } of all) {
    const [textStart, textEnd, chunkStart, chunkEnd] = span;
    // in order, not overlapping, and what lies between two sentences is whitespace
    expect(textStart).toBeGreaterThanOrEqual(covered);
    expect(visible(codePointSlice(input, covered, textStart))).toBe('');
    expect(textEnd).toBeGreaterThan(textStart);
    // the sentence in the text is the sentence in the chunk, whitespace aside
    expect(visible(codePointSlice(input, textStart, textEnd))).toBe(visible(chunk.slice(chunkStart, chunkEnd)));
    covered = textEnd;
  }
  expect(visible(codePointSlice(input, covered, Infinity))).toBe('');
}

describe('sentenceSpans', () => {
  it('places each sentence of each chunk in the text, in code points', () => {
    const input = '  Hello  there.\tIt is 𝔸 day.\n\nNew paragraph! Yes?';
    const chunks = chunkText(input, 'en');
    expect(chunks.map((c) => c.text)).toEqual(['Hello there. It is 𝔸 day.', 'New paragraph! Yes?']);
    const spans = sentenceSpans(input, chunks);
    const slices = spans.map((list) => list.map(([start, end]) => codePointSlice(input, start, end)));
    expect(slices).toEqual([
      ['Hello  there.', 'It is 𝔸 day.'],
      ['New paragraph!', 'Yes?'],
    ]);
    // "𝔸" is two UTF-16 units and one code point: the text's offsets count it once
    expect(spans[0]![1]).toEqual([16, 28, 13, 26]);
  });

  it('covers any text, every sentence in order, whitespace only between them', () => {
    fc.assert(fc.property(text, language, fc.integer({ min: 8, max: 600 }), expectSpansCoverText), { numRuns: 1000 });
  });

  it('does so for long texts and runs without a space cut into pieces', () => {
    fc.assert(fc.property(longText, language, fc.integer({ min: 8, max: 600 }), expectSpansCoverText), { numRuns: 5 });
  });
});

describe('spokenChunks', () => {
  it('rewrites each chunk as spoken and places its sentences in it; the text offsets and the written sentences stay', () => {
    const input = 'Orator met 𝔸 Orator. They talked.\n\nOrator?';
    const written = chunkText(input, 'en');
    const spans = sentenceSpans(input, written);
    const spoken = spokenChunks(written, spans, lexicon(['Orator', 'Or-ay-tor']));
    expect(spoken.map((c) => c.text)).toEqual(['Or-ay-tor met 𝔸 Or-ay-tor. They talked.', 'Or-ay-tor?']);
    const sentences = spoken.flatMap((c) =>
      c.sentences!.map(([start, end, chunkStart, chunkEnd]) => [codePointSlice(input, start, end), c.text.slice(chunkStart, chunkEnd)]),
    );
    expect(sentences).toEqual([
      ['Orator met 𝔸 Orator.', 'Or-ay-tor met 𝔸 Or-ay-tor.'],
      ['They talked.', 'They talked.'],
      ['Orator?', 'Or-ay-tor?'],
    ]);
    // what people see is what was written; a sentence the lexicon left alone stores nothing more
    expect(spoken.flatMap((c) => c.sentences!.map((span) => shownText(c.text, span)))).toEqual([
      'Orator met 𝔸 Orator.',
      'They talked.',
      'Orator?',
    ]);
    expect(spoken[0]!.sentences![1]).toHaveLength(4);
    const upper = (text: string) => ({ text: text.toUpperCase(), replacements: [] });
    expect(spokenChunks(written, [null, null], upper).map((c) => [c.text, c.sentences])).toEqual([
      ['ORATOR MET 𝔸 ORATOR. THEY TALKED.', null],
      ['ORATOR?', null],
    ]);
  });
});

describe('spokenChunks with a grapheme across a sentence boundary', () => {
  it('gives the spoken form to the sentence where the grapheme starts, and keeps both sentences as written', () => {
    const input = 'They met at Lake Eerie. Vale walked on. Then home.';
    const written = chunkText(input, 'en');
    const [chunk] = spokenChunks(written, sentenceSpans(input, written), lexicon(['Eerie. Vale', 'Eerie and Vale']));
    expect(chunk!.text).toBe('They met at Lake Eerie and Vale walked on. Then home.');
    const [first, second, third] = chunk!.sentences!;
    expect(chunk!.text.slice(first![2], first![3])).toBe('They met at Lake Eerie and Vale');
    expect(chunk!.text.slice(second![2], second![3])).toBe(' walked on.');
    expect(chunk!.text.slice(third![2], third![3])).toBe('Then home.');
    expect([first, second, third].map((span) => shownText(chunk!.text, span!))).toEqual([
      'They met at Lake Eerie.',
      'Vale walked on.',
      'Then home.',
    ]);
  });
});
