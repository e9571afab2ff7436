/**
 * Cells of the table that aligns the chunks between the first and the last change (two chapters
 * of 2,000 sentences each, changed from end to end); past it the alignment is greedy.
 */
const MAX_CELLS = 4_000_000;

/**
 * For each of the `next` chunks, the index of an `old` chunk with the same key that it can take
 * its audio from, or null: the longest common subsequence, so that chunks reused keep their order
 * (a sentence edited, inserted or deleted leaves every other one matched). Keys equal at the
 * start and the end are matched directly; between them the classic table, or past MAX_CELLS a
 * greedy walk that matches each next key with the first unused old one after the last match.
 */
export function alignChunks(old: readonly string[], next: readonly string[]): (number | null)[] {
  const matched: (number | null)[] = next.map(() => null);
  let head = 0;
  while (head < old.length && head < next.length && old[head] === next[head]) matched[head] = head++;
  let tail = 0;
  while (tail < old.length - head && tail < next.length - head && old[old.length - 1 - tail] === next[next.length - 1 - tail]) {
    matched[next.length - 1 - tail] = old.length - 1 - tail;
    tail++;
  }
  const a = old.slice(head, old.length - tail);
  const b = next.slice(head, next.length - tail);
  const middle = a.length * b.length <= MAX_CELLS ? commonSubsequence(a, b) : greedy(a, b);
  middle.forEach((i, j) => (matched[head + j] = i === null ? null : head + i));
  return matched;
}

/** The longest common subsequence of `a` and `b`, as the index in `a` of each of `b`'s matched items. */
function commonSubsequence(a: readonly string[], b: readonly string[]): (number | null)[] {
  const width = b.length + 1;
  // lengths[i * width + j]: the longest common subsequence of a[i..] and b[j..]
  const lengths = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lengths[i * width + j] =
        a[i] === b[j] ? lengths[(i + 1) * width + j + 1]! + 1 : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
    }
  }
  const matched: (number | null)[] = b.map(() => null);
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i] === b[j]) matched[j++] = i++;
    else if (lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!) i++;
    else j++;
  }
  return matched;
}

function greedy(a: readonly string[], b: readonly string[]): (number | null)[] {
  const positions = new Map<string, number[]>();
  a.forEach((key, i) => positions.set(key, [...(positions.get(key) ?? []), i]));
  let after = -1;
  return b.map((key) => {
    const found = positions.get(key)?.find((i) => i > after);
    if (found === undefined) return null;
    after = found;
    return found;
  });
}
