import { describe, expect, it } from 'vitest';
import type { SentenceTiming } from '../api/contract';
import { paragraphsOf, sentenceAt } from './read-along';

const sentence = (start_s: number, end_s: number, paragraph_end?: boolean): SentenceTiming => ({
  start_s,
  end_s,
  text_start: 0,
  text_end: 1,
  text: 'x',
  ...(paragraph_end ? { paragraph_end } : {}),
});

describe('sentenceAt', () => {
  const sentences = [sentence(0.2, 1), sentence(1.3, 2), sentence(2.5, 4)];
  it('is the last sentence started, through the pause after it', () => {
    expect([0, 0.2, 0.99, 1.1, 1.3, 2.4, 2.5, 99].map((t) => sentenceAt(sentences, t))).toEqual([-1, 0, 0, 0, 1, 1, 2, 2]);
    expect(sentenceAt([], 3)).toBe(-1);
  });
  it('agrees with a linear scan on many sentences', () => {
    const many = Array.from({ length: 1000 }, (_, i) => sentence(i * 1.7, i * 1.7 + 1));
    for (const t of [0, 1.69, 1.7, 500.3, 1698.3, 5000]) {
      expect(sentenceAt(many, t)).toBe(many.findLastIndex((s) => s.start_s <= t));
    }
  });
});

describe('paragraphsOf', () => {
  it('breaks after each paragraph end and keeps job indexes', () => {
    const grouped = paragraphsOf([sentence(0, 1), sentence(1, 2, true), sentence(2, 3)]);
    expect(grouped.map((p) => p.map((s) => s.index))).toEqual([[0, 1], [2]]);
  });
});
