/**
 * A Word document's chapters: mammoth reads the .docx as HTML, Word's "Heading 1" and "Heading 2"
 * styles as <h1> and <h2>; those become Markdown headings, so the text is cut as a .md file is.
 */
import { zipSync } from 'fflate';
import mammoth from 'mammoth';
import { splitChapters, type ManuscriptChapter } from './chapters';
import { htmlText } from './html-text';
import { openZip, UnreadableManuscript, type ZipLimits } from './zip';

/** The parts mammoth reads: XML and relationships. Images and other media are never inflated. */
const PART = /\.(?:xml|rels)$/i;

/** Images are not spoken: mammoth is not let read them (by default it inlines each as base64). */
const NO_IMAGES = mammoth.images.imgElement(() => Promise.resolve({ src: '' }));

export async function readDocx(bytes: Uint8Array, untitled: string, limits: ZipLimits): Promise<ManuscriptChapter[]> {
  // mammoth inflates whatever it is given, trusting the sizes the zip declares: it gets the parts
  // this budgeted reader inflated, stored (level 0), which it only copies out again
  const zip = openZip(bytes, 'DOCX', limits);
  const parts = Object.fromEntries(zip.names.filter((name) => PART.test(name)).map((name) => [name, zip.read(name)]));
  let html: string;
  try {
    const stored = zipSync(parts, { level: 0 });
    html = (
      await mammoth.convertToHtml({ buffer: Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength) }, { convertImage: NO_IMAGES })
    ).value;
  } catch (error) {
    throw new UnreadableManuscript(`The file is not a readable Word document (.docx): ${(error as Error).message}.`);
  }
  const markdown = html
    // mammoth's own tags: a "<" in the text is "&lt;", so a class up to the next "<" or ">" is each one tag
    .replace(/<h([12])\b[^<>]*>/gi, (_tag, level: string) => `<p>${'#'.repeat(Number(level))} `)
    .replace(/<\/h[12]>/gi, '</p>');
  return splitChapters(htmlText(markdown), { markdown: true, untitled });
}
