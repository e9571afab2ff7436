/** What makes a lexicon entry valid, beyond its schema; shared by the JSON routes and the file readers. */
import { Compile } from 'typebox/compile';
import { LexiconEntryInput } from '../contract';

/** Compiled once: files of thousands of entries are checked entry by entry. */
const inputSchema = Compile(LexiconEntryInput);

/** eSpeak NG mnemonics are printable ASCII; "[" and "]" would end the [[…]] they are sent in. */
const ESPEAK_PHONEMES = /^[\x20-\x5a\x5e-\x7e]+$/;

/** Why `input` is not a lexicon entry, in a sentence, or null when it is one. */
export function entryProblem(input: unknown): string | null {
  if (!inputSchema.Check(input)) {
    const first = inputSchema.Errors(input)[0];
    const field = first?.instancePath.replace(/^\//, '') || 'entry';
    return `"${field}" ${first?.message ?? 'is invalid'}`;
  }
  const entry = input as LexiconEntryInput;
  if (entry.alias === undefined && entry.phoneme === undefined) return `"${entry.grapheme}" needs an alias, a phoneme, or both`;
  if (entry.alphabet !== undefined && entry.phoneme === undefined) return `"${entry.grapheme}" has an alphabet but no phoneme`;
  if (entry.phoneme !== undefined && (entry.alphabet ?? 'x-espeak') === 'x-espeak' && !ESPEAK_PHONEMES.test(entry.phoneme)) {
    return `The eSpeak phonemes of "${entry.grapheme}" must be printable ASCII without "[" or "]"`;
  }
  return null;
}

/**
 * Entries with the same key are one entry: a later one replaces an earlier one. Case-insensitive
 * graphemes compare in lower case.
 */
export function entryKey(entry: Pick<LexiconEntryInput, 'grapheme' | 'language' | 'voice' | 'case_sensitive'>): string {
  const grapheme = entry.grapheme.trim().replace(/\s+/gu, ' ');
  const caseSensitive = entry.case_sensitive ?? false;
  return JSON.stringify([
    caseSensitive ? grapheme : grapheme.toLowerCase(),
    entry.language.toLowerCase(),
    entry.voice ?? '',
    caseSensitive,
  ]);
}
