import { describe, expect, it } from 'vitest';
import { codePoints } from '../contract/text';
import { chunkText, PARAGRAPH_PAUSE_MS, SENTENCE_PAUSE_MS, sentenceChunks, titleOf } from './chunker';
import { prose } from '../testing/prose';

const words = (text: string) => text.split(/\s+/).filter(Boolean);

describe('chunkText', () => {
  it('keeps every word, in order, and bounds chunk size', () => {
    const text = prose(20_000);
    const chunks = chunkText(text, 'en', 500);
    expect(chunks.every((c) => codePoints(c.text) <= 500)).toBe(true);
    expect(words(chunks.map((c) => c.text).join(' '))).toEqual(words(text));
    expect(chunks.length).toBeGreaterThan(20_000 / 500);
  });

  it('cuts at sentence ends when it can', () => {
    const chunks = chunkText(prose(5000), 'en', 500);
    for (const chunk of chunks.slice(0, -1)) expect(chunk.text).toMatch(/[.!?]$/);
  });

  it('keeps the first chunk to its own bound, then packs to the full one', () => {
    const text = prose(3000);
    const chunks = chunkText(text, 'en', 500, 1);
    const [first] = chunkText(text, 'en', 1000);
    // one sentence: the segmenter's first
    expect(chunks[0]!.text).toBe([...new Intl.Segmenter('en', { granularity: 'sentence' }).segment(first!.text)][0]!.segment.trim());
    expect(codePoints(chunks[1]!.text)).toBeGreaterThan(400);
    expect(chunks.every((c) => codePoints(c.text) <= 500)).toBe(true);
    expect(words(chunks.map((c) => c.text).join(' '))).toEqual(words(text));
  });

  it('marks paragraph ends with a longer pause', () => {
    const chunks = chunkText('First paragraph. It has two sentences.\n\nSecond paragraph here.', 'en', 25);
    expect(chunks.map((c) => c.pauseMs)).toEqual([SENTENCE_PAUSE_MS, PARAGRAPH_PAUSE_MS, PARAGRAPH_PAUSE_MS]);
  });

  it('splits an over-long sentence at clauses, then words, never inside a word', () => {
    const sentence = `${'alpha beta gamma, '.repeat(40)}and the end.`;
    const chunks = chunkText(sentence, 'en', 100);
    expect(chunks.every((c) => codePoints(c.text) <= 100)).toBe(true);
    expect(words(chunks.map((c) => c.text).join(' '))).toEqual(words(sentence));
    for (const chunk of chunks) expect(words(chunk.text).every((w) => /^(alpha|beta|gamma,?|and|the|end\.)$/.test(w))).toBe(true);
    const unpunctuated = 'word '.repeat(300).trim();
    const pieces = chunkText(unpunctuated, 'en', 64);
    expect(pieces.every((c) => codePoints(c.text) <= 64 && /^(word ?)+$/.test(c.text))).toBe(true);
  });

  it('segments text without spaces by language (Japanese)', () => {
    const text = '今日は晴れです。明日は雨が降るでしょう。週末は出かけます。';
    const chunks = chunkText(text, 'ja', 12);
    expect(chunks.map((c) => c.text)).toEqual(['今日は晴れです。', '明日は雨が降るでしょう。', '週末は出かけます。']);
  });

  it('counts code points, not UTF-16 units', () => {
    expect(codePoints('𝔸𝔹')).toBe(2);
  });

  it('handles a whole book without blank lines (a 2,000,000-character paragraph) in bounded memory', () => {
    const text = prose(2_000_000).replace(/\. /g, '.\n');
    const before = process.memoryUsage().heapUsed;
    const chunks = chunkText(text, 'en', 500);
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(400 * 1024 * 1024);
    expect(chunks.every((c) => codePoints(c.text) <= 500)).toBe(true);
    expect(chunks.slice(0, -1).every((c) => /[.!?]$/.test(c.text))).toBe(true);
    expect(words(chunks.map((c) => c.text).join(' '))).toEqual(words(text));
  });

  it('accepts language tags that are not valid BCP 47', () => {
    for (const tag of ['en-US-nyc', 'piqd', 'chr-US-Qaaa-x-west', '']) {
      expect(chunkText('One sentence. Another one.', tag, 15).map((c) => c.text)).toEqual(['One sentence.', 'Another one.']);
    }
  });
});

describe('sentenceChunks', () => {
  it('makes each sentence a chunk, with the pauses of sentences and paragraphs', () => {
    const text = 'First paragraph. It has two sentences.\n\nDr. Watson came. He sat.';
    const chunks = sentenceChunks(text, 'en');
    expect(chunks.map((c) => c.text)).toEqual(['First paragraph.', 'It has two sentences.', 'Dr. Watson came.', 'He sat.']);
    expect(chunks.map((c) => c.pauseMs)).toEqual([SENTENCE_PAUSE_MS, PARAGRAPH_PAUSE_MS, SENTENCE_PAUSE_MS, PARAGRAPH_PAUSE_MS]);
    expect(chunks.map((c) => c.bounds)).toEqual(chunks.map((c) => [[0, c.text.length]]));
  });

  it('still cuts a sentence longer than the bound, keeping every word', () => {
    const long = `Alpha ${'beta gamma, '.repeat(40)}and the end.`;
    const chunks = sentenceChunks(`Short one. ${long} Last.`, 'en', 100);
    expect(chunks[0]!.text).toBe('Short one.');
    expect(chunks.at(-1)!.text).toBe('Last.');
    expect(chunks.every((c) => codePoints(c.text) <= 100)).toBe(true);
    expect(words(chunks.map((c) => c.text).join(' '))).toEqual(words(`Short one. ${long} Last.`));
  });
});

describe('titleOf', () => {
  it('takes the start of the text on one line, in whole words', () => {
    expect(titleOf('Chapter One\n\nThe lighthouse stood')).toBe('Chapter One The lighthouse stood');
    const title = titleOf(prose(5000));
    expect([...title].length).toBeLessThanOrEqual(80);
    expect(title.endsWith('…')).toBe(true);
    expect(prose(5000).replace(/\s+/g, ' ').startsWith(title.slice(0, -1))).toBe(true);
    expect(title.at(-2)).not.toBe(' ');
    expect([...titleOf('𝔸'.repeat(200))]).toHaveLength(80);
  });
});
