import {
  ApiError,
  BINARY_MANUSCRIPTS,
  codePoints,
  MANUSCRIPT_EXTENSIONS,
  PROJECT_LIMITS,
  type ImportReport,
  type ManuscriptFile,
} from '../contract';
import { isMarkdownName, type ReadBook } from './chapters';
import type { DocumentReader } from './document-reader';
import { importReport } from './import-report';

export interface CutManuscript {
  /** The title the book gives itself, else the file's name without its extension. */
  title: string;
  book: ReadBook;
  report: ImportReport;
}

/** Formats people have that are not read, and what to save them as. */
const SAVE_AS: Record<string, string> = {
  doc: 'save it in Word as .docx (File › Save As › Word Document)',
  odt: 'save it as .docx (File › Save As › Word 2007–365), or as .epub',
  rtf: 'save it as .docx',
  pages: 'export it from Pages as Word (.docx) or EPUB',
  pdf: 'export the manuscript from its source as .docx or .epub; a PDF is not read',
  mobi: 'convert it to .epub',
  azw3: 'convert it to .epub',
  html: 'save it as .docx or .epub, or as plain text',
  htm: 'save it as .docx or .epub, or as plain text',
};

/**
 * A manuscript file cut into chapters by `reader` (on its own thread), or why it cannot be: a
 * format not read (415), text over `maxChars` or no text (400/413), a file over the reader's
 * limits (413), more chapters than a project holds (413). Chapter titles are cut to the title limit.
 */
export async function cutManuscript(file: ManuscriptFile, maxChars: number, reader: DocumentReader): Promise<CutManuscript> {
  const name = file.name.trim();
  if (codePoints(name) > PROJECT_LIMITS.fileNameChars || /[\p{Cc}/\\]/u.test(name)) {
    throw new ApiError(
      'invalid_request',
      `"manuscript.name" is a file name (no folders, at most ${PROJECT_LIMITS.fileNameChars} characters).`,
    );
  }
  const extension = /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase();
  if (!extension || !(MANUSCRIPT_EXTENSIONS as readonly string[]).includes(extension)) {
    const advice = SAVE_AS[extension ?? ''] ?? 'save it as .docx, .epub, plain text or Markdown';
    throw new ApiError(
      'unsupported_media_type',
      `"${name}" cannot be read: ${advice}. Manuscripts are read from ${MANUSCRIPT_EXTENSIONS.map((e) => `.${e}`).join(', ')} files.`,
    );
  }
  const tooLong = (length: number) => {
    if (length > maxChars) throw new ApiError('text_too_long', `The manuscript has ${length} characters; the maximum is ${maxChars}.`);
  };
  if (file.text !== undefined) tooLong(codePoints(file.text));
  const baseName = name.replace(/\.[^.]+$/, '').trim() || name;
  const book = await read(file, extension, baseName, reader);
  const chapters = book.chapters.map((chapter) => ({
    ...chapter,
    title: clip(chapter.title, PROJECT_LIMITS.titleChars),
    ...(chapter.part ? { part: clip(chapter.part, PROJECT_LIMITS.titleChars) } : {}),
  }));
  // a zipped manuscript's text is known only once read
  tooLong(chapters.reduce((sum, chapter) => sum + codePoints(chapter.text), 0));
  if (chapters.length === 0) throw new ApiError('invalid_request', `The manuscript "${name}" has no text to speak.`);
  if (chapters.length > PROJECT_LIMITS.chapters) {
    throw new ApiError(
      'too_many_chapters',
      `The manuscript has ${chapters.length} chapters; a project holds at most ${PROJECT_LIMITS.chapters}.`,
    );
  }
  const title = clip(book.metadata.title ?? book.title ?? baseName, PROJECT_LIMITS.titleChars);
  const cut = { ...book, chapters };
  return { title, book: cut, report: importReport(cut) };
}

async function read(file: ManuscriptFile, extension: string, baseName: string, reader: DocumentReader): Promise<ReadBook> {
  const binary = BINARY_MANUSCRIPTS.includes(extension);
  const content = binary ? file.data : file.text;
  if (content === undefined || (binary ? file.text : file.data) !== undefined) {
    throw new ApiError('invalid_request', `A .${extension} manuscript comes as ${binary ? '"data" (base64)' : '"text"'}, and only so.`);
  }
  if (!binary) return reader.read(isMarkdownName(file.name) ? 'md' : 'txt', { text: content }, baseName);
  return reader.read(extension === 'docx' ? 'docx' : 'epub', { bytes: Buffer.from(content, 'base64') }, baseName);
}

/** At most `max` code points, on one line. */
export function clip(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const points = [...line];
  return points.length <= max ? line : `${points.slice(0, max - 1).join('')}…`;
}

/** The disk a manuscript's text takes as SQLite stores it: twice, in its write-ahead log and then in the database. */
export function storedTextBytes(chapters: readonly { text: string; title: string }[]): number {
  return 2 * chapters.reduce((sum, c) => sum + Buffer.byteLength(c.text) + Buffer.byteLength(c.title), 0);
}
