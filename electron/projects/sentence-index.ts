import { sentenceChunks } from '../jobs/chunker';

/** A lexicon entry as far as finding where it may apply goes. */
export interface Grapheme {
  grapheme: string;
  /** false: it matches inside words too ("ph" in "phone"). */
  whole_word: boolean;
}

/** Runs of letters, marks, digits and "_": what the lexicon's whole-word rule calls a word. */
const WORD = /[\p{L}\p{M}\p{N}_]+/gu;

/** The words of a text, in lower case, as the lexicon folds them. */
export const wordsOf = (text: string): string[] => text.toLowerCase().match(WORD) ?? [];

/**
 * A chapter's sentences as a render cuts them (one chunk each, `sentenceChunks`), with the
 * sentences each word is in: where a lexicon entry may apply is found by looking its words up,
 * not by reading the chapter again. Lookups answer a superset (case and word edges are the
 * rewrite's to decide), never fewer sentences than the entry changes.
 */
export class SentenceIndex {
  /** The sentences each word (in lower case) is in, by their number, ascending. */
  private readonly postings = new Map<string, number[]>();

  private constructor(readonly sentences: readonly string[]) {
    sentences.forEach((sentence, n) => {
      for (const word of new Set(wordsOf(sentence))) {
        const list = this.postings.get(word);
        if (list) list.push(n);
        else this.postings.set(word, [n]);
      }
    });
  }

  /** The index of a chapter's text (its edits applied), cut as its render is. */
  static of(text: string, language: string): SentenceIndex {
    return new SentenceIndex(sentenceChunks(text, language).map((chunk) => chunk.text));
  }

  /**
   * The numbers of the sentences that may hold the entry's grapheme: those holding each of its
   * words (a word of an entry that matches inside words: each word that contains it). Every
   * sentence when the grapheme has no word at all ("…", "&").
   */
  holding(entry: Grapheme): number[] {
    const words = wordsOf(entry.grapheme);
    if (words.length === 0) return this.sentences.map((_, n) => n);
    let found: Set<number> | undefined;
    for (const word of words) {
      const here = new Set(entry.whole_word ? (this.postings.get(word) ?? []) : this.inside(word));
      found = found ? new Set([...found].filter((n) => here.has(n))) : here;
      if (found.size === 0) return [];
    }
    return [...found!].sort((a, b) => a - b);
  }

  /** Whether any sentence may hold any of the entries' graphemes. */
  mayHoldAny(entries: readonly Grapheme[]): boolean {
    return entries.some((entry) => this.holding(entry).length > 0);
  }

  /** The sentences of every indexed word that contains `part`. */
  private inside(part: string): number[] {
    const found: number[] = [];
    for (const [word, list] of this.postings) if (word.includes(part)) found.push(...list);
    return found;
  }
}
