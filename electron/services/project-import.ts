/**
 * A manuscript's import as a project stores it besides its chapters: its file's name, language,
 * cover and report; and the voice a new project takes when none is asked for.
 */
import { PROJECT_LIMITS, type ManuscriptFile } from '../contract';
import type { CutManuscript } from '../projects/manuscript';
import { clip } from '../projects/manuscript';
import type { ImportedBook } from '../projects/store';
import type { BookVoices } from './voices';

export function importedBook(file: ManuscriptFile, cut: CutManuscript): ImportedBook {
  const { metadata } = cut.book;
  return {
    source_name: file.name.trim(),
    language: clip(metadata.language ?? '', 35),
    cover: metadata.cover?.bytes ?? null,
    import_report: JSON.stringify(cut.report),
  };
}

/** The author a book names, as a project keeps it: one line, within the title limit. */
export const bookAuthor = (cut: CutManuscript) => clip(cut.book.metadata.author ?? '', PROJECT_LIMITS.titleChars);

/**
 * The voice of a project made without one: an installed voice of the book's language (the one
 * resolver's choice, voices.ts), else the default voice; the import report says which and why.
 */
export function voiceForBook(voices: BookVoices, cut: CutManuscript): CutManuscript & { voice: string } {
  const language = cut.book.metadata.language?.trim();
  const found = language ? voices.forLanguage(language) : undefined;
  const voice = found?.voice ?? voices.resolve({}).voice;
  const reason = !language
    ? 'the default voice: the book names no language'
    : !found
      ? `the default voice: no installed voice speaks the book's language, ${language}`
      : found.match === 'exact'
        ? `the book's language, ${language}`
        : `the book's language, ${language} (this voice speaks ${found.voice.language})`;
  const notes = language && !found ? [`No installed voice speaks ${language}, the book's language: ${voice.name} reads it.`] : [];
  const report = { ...cut.report, voice: { id: voice.id, name: voice.name, reason }, notes: [...cut.report.notes, ...notes] };
  return { ...cut, report, voice: voice.id };
}
