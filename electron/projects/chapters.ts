/**
 * A manuscript's chapters: what every reader (text, Markdown, EPUB, DOCX) gives, cut by
 * structure.ts from the file's blocks.
 */
import { markdownMetadata, textBlocks } from './blocks';
import { readStructure, type Book } from './structure';

export interface ManuscriptChapter {
  title: string;
  /** The text as spoken: the heading as a first paragraph, then the body. */
  text: string;
  /** The part it belongs to (structure.ts). */
  part?: string;
  /** Text before the first chapter: title page, dedication, copyright. */
  front_matter?: boolean;
}

/** What the file says of itself: its title, author, language and cover. */
export interface BookMetadata {
  title?: string;
  author?: string;
  language?: string;
  cover?: { bytes: Uint8Array; type: 'image/jpeg' | 'image/png' };
  /** Why a cover the book names was not taken (not JPEG or PNG, too large). */
  cover_skipped?: string;
}

/** A file read: its chapters, what the reading found, and its metadata. */
export type ReadBook = Book & { metadata: BookMetadata };

/** Whether the file's name says it is Markdown. */
export const isMarkdownName = (name: string) => /\.(md|markdown)$/i.test(name);

/** A text or Markdown file cut into chapters; a Markdown file's YAML or "%" metadata is read, not spoken. */
export function readText(text: string, options: { markdown: boolean; untitled: string }): ReadBook {
  const metadata = options.markdown ? markdownMetadata(text) : {};
  const book = readStructure(textBlocks(text, options.markdown), { ...metadata, untitled: options.untitled });
  return { ...book, metadata };
}
