/**
 * Applies a pronunciation lexicon to text before an engine sees it. The entries that fit the voice
 * go into a trie of their graphemes (letters folded to lower case, whitespace runs as one space),
 * and the text is read once, left to right: at each place the longest grapheme that matches (its
 * case and word rules checked) wins, the most specific entry first, and what an entry puts in is
 * never matched again (an alias that holds another entry's grapheme is spoken as written). The
 * time is the text's length times the longest grapheme, whatever the number of entries.
 */
import type { LexiconEntry, PhonemeAlphabet } from '../contract';

/** The voice a text is spoken with, as far as the lexicon cares. */
export interface SpeakingVoice {
  /** "espeak-ng:en-us" */
  voiceId: string;
  /** BCP 47, e.g. "en-US" */
  language: string;
  /** The phoneme alphabet the engine reads inline, if any. */
  phonemeAlphabet?: PhonemeAlphabet | undefined;
}

export type Rewrite = (text: string) => string;

const identity: Rewrite = (text) => text;

/** How each alphabet's phonemes are written inline for the engines that read it. */
const INLINE_PHONEMES: Record<PhonemeAlphabet, (phonemes: string) => string> = {
  'x-espeak': (phonemes) => `[[${phonemes}]]`,
  ipa: (phonemes) => phonemes,
};

/** Whether an entry's language covers a voice's: "en" covers "en-US", "en-GB" does not cover "en-US". */
export function languageCovers(entryLanguage: string, voiceLanguage: string): boolean {
  const entry = entryLanguage.toLowerCase();
  const voice = voiceLanguage.toLowerCase();
  return voice === entry || voice.startsWith(`${entry}-`);
}

/** What an entry says on this voice, or null when it has nothing the engine can use. */
function spokenForm(entry: LexiconEntry, alphabet: PhonemeAlphabet | undefined): string | null {
  if (entry.phoneme !== undefined && alphabet !== undefined && (entry.alphabet ?? 'x-espeak') === alphabet) {
    return INLINE_PHONEMES[alphabet](entry.phoneme);
  }
  return entry.alias ?? null;
}

/** More specific entries first: a voice's own entry before its language's, "en-GB" before "en". */
const specificity = (entry: LexiconEntry) => (entry.voice ? 1000 : 0) + entry.language.length;

interface Candidate {
  entry: LexiconEntry;
  spoken: string;
  /** The grapheme trimmed, whitespace runs as one space. */
  grapheme: string;
}

interface TrieNode {
  next: Map<string, TrieNode>;
  /** Entries whose grapheme ends here, the most specific first. */
  ending: Candidate[];
}

export function compileRewrite(entries: readonly LexiconEntry[], voice: SpeakingVoice): Rewrite {
  const root: TrieNode = { next: new Map(), ending: [] };
  let count = 0;
  for (const entry of entries) {
    if (entry.voice !== undefined && entry.voice !== voice.voiceId) continue;
    if (!languageCovers(entry.language, voice.language)) continue;
    const spoken = spokenForm(entry, voice.phonemeAlphabet);
    const grapheme = entry.grapheme.trim().replace(/\s+/gu, ' ');
    if (spoken === null || grapheme === '') continue;
    let node = root;
    for (const char of grapheme) {
      const key = fold(char);
      let child = node.next.get(key);
      if (!child) node.next.set(key, (child = { next: new Map(), ending: [] }));
      node = child;
    }
    node.ending.push({ entry, spoken, grapheme });
    count++;
  }
  if (count === 0) return identity;
  sortEndings(root);
  return (text) => rewriteWith(root, text);
}

function sortEndings(node: TrieNode): void {
  node.ending.sort((a, b) => specificity(b.entry) - specificity(a.entry));
  for (const child of node.next.values()) sortEndings(child);
}

function rewriteWith(root: TrieNode, text: string): string {
  let out = '';
  let at = 0;
  while (at < text.length) {
    const found = longestMatch(root, text, at);
    if (found) {
      out += found.spoken;
      at = found.end;
    } else {
      const width = (text.codePointAt(at) ?? 0) > 0xffff ? 2 : 1;
      out += text.slice(at, at + width);
      at += width;
    }
  }
  return out;
}

/** The entry matching at `start` with the longest grapheme, and where its match ends. */
function longestMatch(root: TrieNode, text: string, start: number): { spoken: string; end: number } | null {
  const ends: { node: TrieNode; end: number }[] = [];
  let node: TrieNode | undefined = root;
  let at = start;
  while (node && at < text.length) {
    const char = String.fromCodePoint(text.codePointAt(at)!);
    if (isSpace(char)) {
      while (at < text.length && isSpace(text[at]!)) at++;
      node = node.next.get(' ');
    } else {
      node = node.next.get(fold(char));
      at += char.length;
    }
    if (node?.ending.length) ends.push({ node, end: at });
  }
  for (let i = ends.length - 1; i >= 0; i--) {
    const { node: last, end } = ends[i]!;
    const hit = last.ending.find((c) => fits(c, text, start, end));
    if (hit) return { spoken: hit.spoken, end };
  }
  return null;
}

/** Whether a candidate whose folded grapheme matches text[start, end) passes its case and word rules. */
function fits({ entry, grapheme }: Candidate, text: string, start: number, end: number): boolean {
  if (entry.case_sensitive && text.slice(start, end).replace(/\s+/gu, ' ') !== grapheme) return false;
  if (!entry.whole_word) return true;
  const chars = [...grapheme];
  const touchesBefore = start > 0 && isWordChar(chars[0]!) && isWordChar(charBefore(text, start));
  const touchesAfter =
    end < text.length && isWordChar(chars[chars.length - 1]!) && isWordChar(String.fromCodePoint(text.codePointAt(end)!));
  return !touchesBefore && !touchesAfter;
}

const isWordChar = (char: string) => /[\p{L}\p{M}\p{N}_]/u.test(char);
const isSpace = (char: string) => /\s/u.test(char);

/** The whole code point before `at` (a surrogate pair's two halves). */
function charBefore(text: string, at: number): string {
  const low = text.charCodeAt(at - 1);
  return low >= 0xdc00 && low <= 0xdfff && at >= 2 ? text.slice(at - 2, at) : text.slice(at - 1, at);
}

/** A character in lower case when that is one character ("İ" lowers to two: it stays). */
function fold(char: string): string {
  const lower = char.toLowerCase();
  return [...lower].length === 1 ? lower : char;
}
