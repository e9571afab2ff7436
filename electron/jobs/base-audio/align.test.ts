import { describe, expect, it } from 'vitest';
import { cpuMs } from '../../testing/cpu';
import { alignChunks } from './align';

const words = (text: string) => text.split(' ');

describe('alignChunks', () => {
  it('matches every chunk of an unchanged list', () => {
    expect(alignChunks(words('a b c'), words('a b c'))).toEqual([0, 1, 2]);
  });

  it('leaves changed chunks unmatched and keeps the others in place', () => {
    expect(alignChunks(words('a b c d e'), words('a B c D e'))).toEqual([0, null, 2, null, 4]);
  });

  it('follows chunks inserted and deleted', () => {
    expect(alignChunks(words('a b c d'), words('x a c d y'))).toEqual([null, 0, 2, 3, null]);
    expect(alignChunks(words('a b c'), [])).toEqual([]);
    expect(alignChunks([], words('a b'))).toEqual([null, null]);
  });

  it('takes each old chunk once, in order, as many as can be', () => {
    const [old, next] = [words('r a r b'), words('r r a b')];
    const matched = alignChunks(old, next);
    const pairs = matched.flatMap((i, j) => (i === null ? [] : [[i, j] as const]));
    expect(pairs).toHaveLength(3);
    for (const [i, j] of pairs) expect(old[i]).toBe(next[j]);
    expect(pairs.every(([i], n) => n === 0 || i > pairs[n - 1]![0])).toBe(true);
  });

  it('aligns chapters of thousands of sentences changed from end to end in well under a second', () => {
    for (const length of [1_500, 6_000]) {
      // 1,500: the table; 6,000: past its cells, the greedy walk
      const old = Array.from({ length }, (_, i) => `sentence ${i}`);
      const next = old.map((s, i) => (i % 500 === 1 ? `${s} changed` : s)).toSpliced(700, 1);
      let matched: (number | null)[] = [];
      expect(cpuMs(() => (matched = alignChunks(old, next)))).toBeLessThan(1000);
      expect(matched.filter((m) => m === null)).toHaveLength(length / 500);
      expect(matched.slice(698, 701)).toEqual([698, 699, 701]);
    }
  });
});
