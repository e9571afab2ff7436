/**
 * A Word document's chapters: mammoth reads the .docx as HTML, Word's "Heading 1" and "Heading 2"
 * styles as <h1> and <h2>; those become Markdown headings, so the text is cut as a .md file is.
 */
import mammoth from 'mammoth';
import { splitChapters, type ManuscriptChapter } from './chapters';
import { htmlText } from './html-text';
import { UnreadableManuscript, unzipBounded } from './zip';

export async function readDocx(bytes: Uint8Array, untitled: string): Promise<ManuscriptChapter[]> {
  // mammoth inflates everything it is given: a zip bomb is stopped here first
  unzipBounded(bytes, 'DOCX');
  let html: string;
  try {
    html = (await mammoth.convertToHtml({ buffer: Buffer.from(bytes) })).value;
  } catch (error) {
    throw new UnreadableManuscript(`The file is not a readable Word document (.docx): ${(error as Error).message}.`);
  }
  const markdown = html
    .replace(/<h([12])\b[^>]*>/gi, (_tag, level: string) => `<p>${'#'.repeat(Number(level))} `)
    .replace(/<\/h[12]>/gi, '</p>');
  return splitChapters(htmlText(markdown), { markdown: true, untitled });
}
