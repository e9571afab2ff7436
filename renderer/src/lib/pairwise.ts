/**
 * Pairwise judging (A vs B, pick the better) that ends in a ranking: a binary insertion sort whose
 * comparisons are the listener's choices. Replayed from the recorded choices each time, so the
 * round survives a reload and the next pair is whatever comparison the sort needs and lacks. About
 * n·log2(n) choices rank n takes (24 voices: under 90), where all pairs would take n(n−1)/2 (276).
 */
export interface Choice {
  a: string;
  b: string;
  winner: string;
}

type Outcome = { pair: [string, string] } | { ranking: string[] };

/** The listener's verdict on `x` vs `y`: true when `x` won; undefined when not asked yet (the latest choice counts). */
function preferred(choices: readonly Choice[], x: string, y: string): boolean | undefined {
  for (let i = choices.length - 1; i >= 0; i--) {
    const { a, b, winner } = choices[i]!;
    if ((a === x && b === y) || (a === y && b === x)) return winner === x;
  }
  return undefined;
}

function replay(items: readonly string[], choices: readonly Choice[]): Outcome {
  const ranked: string[] = [];
  for (const item of items) {
    let low = 0;
    let high = ranked.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      const other = ranked[middle]!;
      const better = preferred(choices, item, other);
      if (better === undefined) return { pair: [other, item] };
      if (better) high = middle;
      else low = middle + 1;
    }
    ranked.splice(low, 0, item);
  }
  return { ranking: ranked };
}

/** The next pair to judge, or null once the ranking is complete. */
export function nextPair(items: readonly string[], choices: readonly Choice[]): [string, string] | null {
  const outcome = replay(items, choices);
  return 'pair' in outcome ? outcome.pair : null;
}

/** The takes best first, once every comparison the ranking needs is made; null before. */
export function pairwiseRanking(items: readonly string[], choices: readonly Choice[]): string[] | null {
  const outcome = replay(items, choices);
  return 'ranking' in outcome ? outcome.ranking : null;
}
