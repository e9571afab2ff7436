/**
 * A Word document's chapters: mammoth reads the .docx as HTML (Word's "Heading N" styles as <hN>),
 * whose blocks are cut by the book's headings (structure.ts); its core properties
 * (docProps/core.xml) give the title, author and language.
 */
import { zipSync } from 'fflate';
import mammoth from 'mammoth';
import { EMPTY_HEADING, htmlBlocks } from './blocks';
import { coreProperties } from './book-metadata';
import type { ReadBook } from './chapters';
import { readStructure } from './structure';
import { openZip, UnreadableManuscript, type ZipLimits } from './zip';

/** The parts mammoth reads: XML and relationships. Images and other media are never inflated. */
const PART = /\.(?:xml|rels)$/i;
const CORE = 'docProps/core.xml';

/** Images are not spoken: mammoth is not let read them (by default it inlines each as base64). */
const NO_IMAGES = mammoth.images.imgElement(() => Promise.resolve({ src: '' }));

interface Element {
  type: string;
  value?: string;
  styleName?: string | null;
  children?: Element[];
}

const hasWords = (element: Element): boolean =>
  (element.type === 'text' && /\S/.test(element.value ?? '')) || (element.children ?? []).some(hasWords);

/** mammoth's document transforms, which its type declarations leave out. */
const { transforms } = mammoth as unknown as {
  transforms: { paragraph(change: (paragraph: Element) => Element): (document: unknown) => unknown };
};

/** mammoth drops a paragraph with no text; a heading with none is kept (marked) to be reported. */
const KEEP_EMPTY_HEADINGS = transforms.paragraph((paragraph) =>
  /^heading [1-6]$/i.test(paragraph.styleName ?? '') && !hasWords(paragraph)
    ? { ...paragraph, children: [{ type: 'text', value: EMPTY_HEADING }] }
    : paragraph,
);

export async function readDocx(bytes: Uint8Array, untitled: string, limits: ZipLimits): Promise<ReadBook> {
  // mammoth inflates whatever it is given, trusting the sizes the zip declares: it gets the parts
  // this budgeted reader inflated, stored (level 0), which it only copies out again
  const zip = openZip(bytes, 'DOCX', limits);
  const parts = Object.fromEntries(zip.names.filter((name) => PART.test(name)).map((name) => [name, zip.read(name)]));
  let html: string;
  try {
    const stored = zipSync(parts, { level: 0 });
    const input = { buffer: Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength) };
    html = (await mammoth.convertToHtml(input, { convertImage: NO_IMAGES, transformDocument: KEEP_EMPTY_HEADINGS })).value;
  } catch (error) {
    throw new UnreadableManuscript(`The file is not a readable Word document (.docx): ${(error as Error).message}.`);
  }
  const core = parts[CORE];
  const metadata = core ? coreProperties(new TextDecoder().decode(core)) : {};
  return { ...readStructure(htmlBlocks(html), { ...metadata, untitled }), metadata };
}
