/**
 * Applies a pronunciation lexicon to text before an engine sees it. The entries that fit the voice
 * go into a trie of their graphemes (letters folded to lower case, whitespace runs as one space),
 * and the text is read once, left to right: at each place the longest grapheme that matches (its
 * case and word rules checked) wins, the most specific entry first, and what an entry puts in is
 * never matched again (an alias that holds another entry's grapheme is spoken as written).
 *
 * Time: each place walks the trie at most as many steps as the longest grapheme has characters (at
 * most 100), and a whitespace run is one step wherever it is met (its end is known beforehand), so
 * the whole text costs its length times a constant whatever the entries and the text hold.
 *
 * The result keeps where each replacement came from, so that what is shown to people (read-along,
 * captions, chapter titles) can be taken from the written text while the engine reads the spoken one.
 */
import type { LexiconEntry, PhonemeAlphabet } from '../contract';
import { isWhitespace } from '../contract/sentences';

/** The voice a text is spoken with, as far as the lexicon cares. */
export interface SpeakingVoice {
  /** "espeak-ng:en-us" */
  voiceId: string;
  /** BCP 47, e.g. "en-US" */
  language: string;
  /** The phoneme alphabet the engine reads inline, if any. */
  phonemeAlphabet?: PhonemeAlphabet | undefined;
}

/**
 * One replacement: the written text's [writtenStart, writtenEnd) became the spoken text's
 * [spokenStart, spokenEnd) (UTF-16 offsets, ends exclusive). Outside replacements the two texts
 * are the same characters.
 */
export type Replacement = [writtenStart: number, writtenEnd: number, spokenStart: number, spokenEnd: number];

/** A text as an engine reads it, with the replacements that made it from the written text, in order. */
export interface Spoken {
  text: string;
  replacements: Replacement[];
}

export type Rewrite = (text: string) => Spoken;

/** The text as written: no lexicon applies. */
export const unchanged: Rewrite = (text) => ({ text, replacements: [] });

/**
 * Where a written offset is in the spoken text. An offset inside a replacement (a grapheme that
 * spans a sentence boundary) goes to the replacement's spoken end, so the spoken form belongs to
 * the piece where the grapheme starts and offsets stay in order. `from` is an index into the
 * replacements at or before the answer (0, or the last call's `next` for offsets in order).
 */
export function spokenOffset(replacements: readonly Replacement[], written: number, from = 0): { offset: number; next: number } {
  let i = from;
  let shift = i > 0 ? replacements[i - 1]![3] - replacements[i - 1]![1] : 0;
  while (i < replacements.length && replacements[i]![1] <= written) {
    shift = replacements[i]![3] - replacements[i]![1];
    i++;
  }
  const inside = replacements[i];
  if (inside && inside[0] < written) return { offset: inside[3], next: i };
  return { offset: written + shift, next: i };
}

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
  /** The grapheme trimmed, whitespace runs as one space, in code points. */
  chars: string[];
  /** Whether its first and last characters are word characters (then a match may not touch one). */
  wordStart: boolean;
  wordEnd: boolean;
}

interface TrieNode {
  /** By folded code point; a whitespace run is SPACE. */
  next: Map<number, TrieNode>;
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
    const chars = [...entry.grapheme.trim().replace(/\s+/gu, ' ')];
    if (spoken === null || chars.length === 0) continue;
    let node = root;
    for (const char of chars) {
      const key = fold(char.codePointAt(0)!);
      let child = node.next.get(key);
      if (!child) node.next.set(key, (child = { next: new Map(), ending: [] }));
      node = child;
    }
    node.ending.push({ entry, spoken, chars, wordStart: isWordChar(chars[0]!), wordEnd: isWordChar(chars[chars.length - 1]!) });
    count++;
  }
  if (count === 0) return unchanged;
  sortEndings(root);
  return (text) => rewriteWith(root, text);
}

function sortEndings(node: TrieNode): void {
  node.ending.sort((a, b) => specificity(b.entry) - specificity(a.entry));
  for (const child of node.next.values()) sortEndings(child);
}

function rewriteWith(root: TrieNode, text: string): Spoken {
  const spaceEnd = whitespaceRunEnds(text);
  const replacements: Replacement[] = [];
  let out = '';
  let copied = 0;
  let at = 0;
  while (at < text.length) {
    const found = spaceEnd[at]! > at ? null : longestMatch(root, text, at, spaceEnd);
    if (found) {
      out += text.slice(copied, at);
      replacements.push([at, found.end, out.length, out.length + found.spoken.length]);
      out += found.spoken;
      at = copied = found.end;
    } else {
      at = Math.max(spaceEnd[at]!, at + ((text.codePointAt(at) ?? 0) > 0xffff ? 2 : 1));
    }
  }
  return { text: out + text.slice(copied), replacements };
}

/**
 * For each UTF-16 index, where the run of whitespace starting there ends (the index itself when it
 * is not whitespace): one pass from the end, so a run is crossed in one step wherever it is met.
 */
function whitespaceRunEnds(text: string): Int32Array {
  const ends = new Int32Array(text.length + 1);
  ends[text.length] = text.length;
  for (let i = text.length - 1; i >= 0; i--) {
    if (!isWhitespace(text.charCodeAt(i))) ends[i] = i;
    else ends[i] = ends[i + 1]! > i + 1 ? ends[i + 1]! : i + 1;
  }
  return ends;
}

/** The places a walk passed where graphemes end (reused: one walk at a time). */
const passed: { node: TrieNode; end: number }[] = [];

/** The entry matching at `start` with the longest grapheme, and where its match ends. */
function longestMatch(root: TrieNode, text: string, start: number, spaceEnd: Int32Array): { spoken: string; end: number } | null {
  let count = 0;
  let node: TrieNode | undefined = root;
  let at = start;
  while (node && at < text.length) {
    if (spaceEnd[at]! > at) {
      at = spaceEnd[at]!;
      node = node.next.get(SPACE);
    } else {
      const code = text.codePointAt(at)!;
      node = node.next.get(fold(code));
      at += code > 0xffff ? 2 : 1;
    }
    if (node?.ending.length) passed[count++] = { node, end: at };
  }
  for (let i = count - 1; i >= 0; i--) {
    const { node: last, end } = passed[i]!;
    const hit = last.ending.find((c) => fits(c, text, start, end, spaceEnd));
    if (hit) return { spoken: hit.spoken, end };
  }
  return null;
}

/** Whether a candidate whose folded grapheme matches text[start, end) passes its case and word rules. */
function fits(candidate: Candidate, text: string, start: number, end: number, spaceEnd: Int32Array): boolean {
  const { entry } = candidate;
  if (entry.case_sensitive && !sameCase(candidate.chars, text, start, spaceEnd)) return false;
  if (!entry.whole_word) return true;
  const touchesBefore = start > 0 && candidate.wordStart && isWordChar(charBefore(text, start));
  const touchesAfter = end < text.length && candidate.wordEnd && isWordChar(String.fromCodePoint(text.codePointAt(end)!));
  return !touchesBefore && !touchesAfter;
}

/** Whether the text from `start` has the grapheme's exact characters (any whitespace run for its spaces). */
function sameCase(chars: readonly string[], text: string, start: number, spaceEnd: Int32Array): boolean {
  let at = start;
  for (const char of chars) {
    if (char === ' ') {
      if (spaceEnd[at]! <= at) return false;
      at = spaceEnd[at]!;
    } else {
      if (!text.startsWith(char, at)) return false;
      at += char.length;
    }
  }
  return true;
}

const isWordChar = (char: string) => /[\p{L}\p{M}\p{N}_]/u.test(char);

/** The whole code point before `at` (a surrogate pair's two halves). */
function charBefore(text: string, at: number): string {
  const low = text.charCodeAt(at - 1);
  return low >= 0xdc00 && low <= 0xdfff && at >= 2 ? text.slice(at - 2, at) : text.slice(at - 1, at);
}

const SPACE = 0x20;
/** Folded forms of the Basic Multilingual Plane, filled as met (0: not yet). */
const foldedBmp = new Uint32Array(0x10000);

/** A code point in lower case when that is one code point ("İ" lowers to two: it stays). */
function fold(code: number): number {
  if (code < 0x80) return code >= 0x41 && code <= 0x5a ? code + 0x20 : code;
  if (code < 0x10000 && foldedBmp[code] !== 0) return foldedBmp[code]!;
  const chars = [...String.fromCodePoint(code).toLowerCase()];
  const lower = chars.length === 1 ? chars[0]!.codePointAt(0)! : code;
  if (code < 0x10000) foldedBmp[code] = lower;
  return lower;
}
