import { describe, expect, it } from 'vitest';
import { nextPair, pairwiseRanking, type Choice } from './pairwise';

/** Runs a round to its end with a listener who prefers by `truth` (a better take has a lower number). */
function round(items: string[], truth: Record<string, number>): { ranking: string[]; asked: number } {
  const choices: Choice[] = [];
  for (let pair = nextPair(items, choices); pair; pair = nextPair(items, choices)) {
    const [a, b] = pair;
    choices.push({ a, b, winner: truth[a]! < truth[b]! ? a : b });
  }
  return { ranking: pairwiseRanking(items, choices)!, asked: choices.length };
}

describe('pairwise ranking', () => {
  it('ranks by the choices made, asking each pair at most once', () => {
    const items = ['c', 'a', 'd', 'b'];
    const { ranking, asked } = round(items, { a: 1, b: 2, c: 3, d: 4 });
    expect(ranking).toEqual(['a', 'b', 'c', 'd']);
    expect(asked).toBeLessThanOrEqual(5);
  });

  it('ranks 24 voices with far fewer choices than every pair', () => {
    const items = Array.from({ length: 24 }, (_, i) => `v${(i * 7) % 24}`);
    const truth = Object.fromEntries(items.map((item) => [item, Number(item.slice(1))]));
    const { ranking, asked } = round(items, truth);
    expect(ranking).toEqual(Array.from({ length: 24 }, (_, i) => `v${i}`));
    expect(asked).toBeLessThan(90);
  });

  it('has no ranking before the choices it needs, and one take needs none', () => {
    expect(pairwiseRanking(['a', 'b'], [])).toBeNull();
    expect(nextPair(['a', 'b'], [])).toEqual(['a', 'b']);
    expect(pairwiseRanking(['a'], [])).toEqual(['a']);
  });
});
