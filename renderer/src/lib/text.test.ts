import { describe, expect, it } from 'vitest';
import { formatAge, formatBytes, formatClock } from './format';
import { codePoints } from '../api/contract';
import { clipCodePoints, firstSentence, wordCount } from './text';

describe('text', () => {
  it('counts code points as the gateway does', () => {
    expect(codePoints('a😀b')).toBe(3);
    expect('a😀b'.length).toBe(4);
    // lone surrogates count one each, as iterating the string counts them
    for (const odd of ['\ud800', 'x\udc00', '\udc00\ud800', '😀\ud800', '\ud83d\ud83d\ude00', '']) {
      expect(codePoints(odd)).toBe([...odd].length);
    }
    expect(clipCodePoints('😀😀😀', 2)).toBe('😀😀');
  });

  it('finds the first sentence with words in it', () => {
    expect(firstSentence('  \n First one. Second one.')).toBe('First one.');
    expect(firstSentence('   ')).toBe('');
    expect(firstSentence('Bonjour. Ça va ?', 'not a tag!')).toBe('Bonjour.');
    // as the gateway cuts sentences: not after a title or an initial
    expect(firstSentence('Dr. Watson and J. R. R. Tolkien met. Then tea.')).toBe('Dr. Watson and J. R. R. Tolkien met.');
    expect(firstSentence('Hr. Meier kam am 3. Mai. Gut.', 'de-DE')).toBe('Hr. Meier kam am 3. Mai.');
  });

  it('counts words', () => {
    expect(wordCount("It's a dark — and stormy — night.")).toBe(6);
  });
});

describe('format', () => {
  it('formats clocks, sizes and ages', () => {
    expect(formatClock(0)).toBe('0:00');
    expect(formatClock(65.4)).toBe('1:05');
    expect(formatClock(3725)).toBe('1:02:05');
    expect(formatClock(Number.NaN)).toBe('0:00');
    expect(formatBytes(92 * 1024 * 1024)).toBe('92.0 MB');
    const now = Date.parse('2026-01-01T12:00:00Z');
    expect(formatAge('2026-01-01T11:59:50Z', now)).toBe('just now');
    expect(formatAge('2026-01-01T11:55:00Z', now)).toMatch(/5 minutes ago/);
  });
});
