/**
 * Applies a pronunciation lexicon to text before an engine sees it: every entry that fits the
 * voice becomes one alternative of a single regular expression, so the text is read once, left to
 * right, the longest grapheme winning at each place, and what an entry puts in is never matched
 * again (an alias that holds another entry's grapheme is spoken as written).
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

export function compileRewrite(entries: readonly LexiconEntry[], voice: SpeakingVoice): Rewrite {
  const fitting = entries
    .filter((e) => (e.voice === undefined || e.voice === voice.voiceId) && languageCovers(e.language, voice.language))
    .map((entry) => ({ entry, spoken: spokenForm(entry, voice.phonemeAlphabet) }))
    .filter((e): e is { entry: LexiconEntry; spoken: string } => e.spoken !== null)
    // the regex tries alternatives in order: longest grapheme first, then the most specific entry
    .sort((a, b) => b.entry.grapheme.length - a.entry.grapheme.length || specificity(b.entry) - specificity(a.entry));
  if (fitting.length === 0) return identity;
  const pattern = new RegExp(fitting.map(({ entry }) => `(${alternative(entry)})`).join('|'), 'gu');
  const spoken = fitting.map((f) => f.spoken);
  return (text) =>
    text.replace(pattern, (...args: unknown[]) => {
      const groups = args.slice(1, 1 + spoken.length);
      const index = groups.findIndex((g) => g !== undefined);
      return spoken[index]!;
    });
}

const WORD_CHAR = /[\p{L}\p{M}\p{N}_]/u;
const NOT_AFTER_WORD = '(?<![\\p{L}\\p{M}\\p{N}_])';
const NOT_BEFORE_WORD = '(?![\\p{L}\\p{M}\\p{N}_])';

/** One entry as a regex source: its characters, any case unless case-sensitive, word bounds if asked. */
function alternative(entry: LexiconEntry): string {
  const chars = [...entry.grapheme.trim()];
  let source = '';
  let inSpace = false;
  for (const char of chars) {
    if (/\s/u.test(char)) {
      if (!inSpace) source += '\\s+';
      inSpace = true;
      continue;
    }
    inSpace = false;
    source += entry.case_sensitive ? escape(char) : anyCase(char);
  }
  if (!entry.whole_word) return source;
  const first = chars[0]!;
  const last = chars[chars.length - 1]!;
  return `${WORD_CHAR.test(first) ? NOT_AFTER_WORD : ''}${source}${WORD_CHAR.test(last) ? NOT_BEFORE_WORD : ''}`;
}

function anyCase(char: string): string {
  const forms = new Set([char, char.toLowerCase(), char.toUpperCase()].filter((f) => [...f].length === 1));
  return forms.size === 1 ? escape(char) : `[${[...forms].map(escape).join('')}]`;
}

/** Outside a character class only these need a backslash in a `u` regex (a `-` there is an error). */
const escape = (char: string) => char.replace(/[\\^$.*+?()[\]{}|/]/gu, '\\$&');
