import { describe, expect, it } from 'vitest';
import { shuffled, takeLetter } from './compare-slice';

describe('shuffled', () => {
  it('gives every order of three takes about equally often, each a permutation', () => {
    const counts = new Map<string, number>();
    for (let run = 0; run < 6000; run++) {
      const order = shuffled([0, 1, 2]);
      expect([...order].sort()).toEqual([0, 1, 2]);
      counts.set(order.join(''), (counts.get(order.join('')) ?? 0) + 1);
    }
    expect(counts.size).toBe(6);
    for (const count of counts.values()) expect(count).toBeGreaterThan(800);
  });

  it('leaves its input as it was; letters name places in the list', () => {
    const input = [0, 1, 2, 3];
    shuffled(input, () => 0);
    expect(input).toEqual([0, 1, 2, 3]);
    expect([0, 1, 2, 3].map(takeLetter)).toEqual(['A', 'B', 'C', 'D']);
  });
});
