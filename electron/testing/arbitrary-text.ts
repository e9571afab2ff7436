/**
 * Test support: texts that stress the segmenter (abbreviations, numbers, sentence ends without a
 * space, scripts without spaces, emoji, combining and invisible marks, runs of thousands of
 * characters without a space), for property tests of the chunker and of what is built on it.
 */
import fc from 'fast-check';

const piece = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('word', 'Hello', 'a', 'I', 'etc.', 'U.S.', 'Dr.', '3.14', '1,000', 'e.g.', 'ß', 'e\u0301') },
  { weight: 3, arbitrary: fc.constantFrom('.', '?', '!', '...', ',', ';', ':', '—', '(', ')', '"', '«', '»', '?!', '* * *') },
  {
    weight: 2,
    arbitrary: fc.constantFrom('今日は晴れです。', '明日は雨', '。', 'Привет.', 'مرحبا', 'שלום.', '😀', '👍🏽', '🇫🇷', '\u200b', '\u202e'),
  },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 40 }) },
);
const gap = fc.constantFrom(' ', ' ', ' ', '', '  ', '\n', '\n\n', '\t', '\u00a0', '\u3000', ' \n \n ');
const join = (parts: [string, string][]) => parts.map(([p, g]) => p + g).join('');
export const text = fc.array(fc.tuple(piece, gap), { maxLength: 120 }).map(join);
/** Beyond the segmenter's 4,000-character window, with runs of thousands of characters without a space. */
const unspaced = fc.constantFrom('e\u0301', '👍🏽', '🇫🇷', '今日は', 'a', 'ß', '\u200b', '-', '👨‍👩‍👧');
export const longText = fc
  .tuple(fc.array(fc.tuple(piece, gap), { maxLength: 300 }), fc.array(unspaced, { minLength: 2000, maxLength: 6000 }), text)
  .map(([before, run, after]) => `${join(before)}${run.join('')} ${after}`);
export const language = fc.constantFrom('en', 'ja', 'de', 'ar', 'en-US-nyc', '');
