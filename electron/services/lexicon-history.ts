import type { LexiconEntry } from '../contract';
import type { Grapheme } from '../projects/sentence-index';

/** Steps of the lexicon remembered: a chapter checked longer ago than that is said anew (its key made again). */
const STEPS = 256;

/**
 * What changed in the lexicon between the revisions it was seen at: the graphemes of the entries
 * added, removed or changed. A render key made at one revision stands at a later one for a text
 * that holds none of them (RenderKeys).
 */
export class LexiconHistory {
  private seen: { revision: number; entries: Map<string, string> } | undefined;
  /** Each step from one revision seen to the next: the graphemes it touched. */
  private readonly steps: { from: number; to: number; changed: Grapheme[] }[] = [];

  /** The lexicon as it is at `revision`. */
  observe(revision: number, entries: readonly LexiconEntry[]): void {
    if (this.seen?.revision === revision) return;
    const now = new Map(entries.map((entry) => [entry.id, JSON.stringify(entry)]));
    if (this.seen) {
      const before = this.seen.entries;
      const changed = [...new Set([...before.keys(), ...now.keys()])]
        .filter((id) => before.get(id) !== now.get(id))
        .flatMap((id) => [before.get(id), now.get(id)])
        .filter((json): json is string => json !== undefined)
        .map((json) => JSON.parse(json) as LexiconEntry);
      this.steps.push({ from: this.seen.revision, to: revision, changed });
      if (this.steps.length > STEPS) this.steps.shift();
    }
    this.seen = { revision, entries: now };
  }

  /** The graphemes changed from revision `from` to `to`; null when that is not known (not seen, or forgotten). */
  changedBetween(from: number, to: number): Grapheme[] | null {
    const changed: Grapheme[] = [];
    let at = from;
    for (const step of this.steps) {
      if (step.from !== at) continue;
      changed.push(...step.changed);
      at = step.to;
      if (at === to) return changed;
    }
    return at === to ? changed : null;
  }
}
