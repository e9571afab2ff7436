/** Why a lexicon file (PLS, CSV) is not imported. */

/** A lexicon file that cannot be read, with where the problem is when known (400 invalid_lexicon). */
export class LexiconFileError extends Error {
  override name = 'LexiconFileError';
}

/** A lexicon file of more entries than a lexicon holds, found before the rest is read (413 lexicon_too_large). */
export class LexiconFileTooLarge extends Error {
  override name = 'LexiconFileTooLarge';
}

/** Throws LexiconFileTooLarge once a file has given one entry more than `maxEntries`. */
export function checkEntryCount(count: number, maxEntries: number): void {
  if (count > maxEntries) {
    throw new LexiconFileTooLarge(`The file has more than ${maxEntries.toLocaleString('en-US')} entries, the most a lexicon holds.`);
  }
}
