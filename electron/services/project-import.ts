/** A manuscript's import as a project stores it besides its chapters: its file's name, language, cover and report. */
import { PROJECT_LIMITS, type ManuscriptFile } from '../contract';
import type { CutManuscript } from '../projects/manuscript';
import { clip } from '../projects/manuscript';
import type { ImportedBook } from '../projects/store';

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
