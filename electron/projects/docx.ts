/**
 * A Word document's chapters: mammoth reads the .docx as HTML (Word's "Heading N" styles as <hN>),
 * whose blocks are cut by the book's headings (structure.ts); its core properties
 * (docProps/core.xml) give the title, author and language, else a Title-styled paragraph the title.
 */
import { zipSync } from 'fflate';
import mammoth from 'mammoth';
import { EMPTY_HEADING, htmlBlocks, SUBTITLE_MARK, TITLE_MARK } from './blocks';
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
  styleId?: string | null;
  styleName?: string | null;
  children?: Element[];
}

const hasWords = (element: Element): boolean =>
  (element.type === 'text' && /\S/.test(element.value ?? '')) || (element.children ?? []).some(hasWords);

/** mammoth's document transforms, which its type declarations leave out. */
const { transforms } = mammoth as unknown as {
  transforms: { paragraph(change: (paragraph: Element) => Element): (document: unknown) => unknown };
};

/**
 * Word's built-in Title and Subtitle styles (named so in styles.xml whatever Word's language; pandoc
 * puts a document's title there) are plain paragraphs to mammoth: they are marked as the book's.
 */
const TITLE_STYLES: Record<string, string> = { title: TITLE_MARK, subtitle: SUBTITLE_MARK };

/**
 * mammoth drops a paragraph with no text; a heading with none is kept (marked) to be reported.
 * Title and Subtitle paragraphs are marked for the blocks (blocks.ts).
 */
const MARK_PARAGRAPHS = transforms.paragraph((paragraph) => {
  const style = (paragraph.styleName ?? paragraph.styleId ?? '').toLowerCase();
  if (/^heading [1-6]$/.test(style) && !hasWords(paragraph)) return { ...paragraph, children: [{ type: 'text', value: EMPTY_HEADING }] };
  const mark = Object.hasOwn(TITLE_STYLES, style) ? TITLE_STYLES[style] : undefined;
  return mark ? { ...paragraph, children: [{ type: 'text', value: mark }, ...(paragraph.children ?? [])] } : paragraph;
});

export async function readDocx(bytes: Uint8Array, untitled: string, limits: ZipLimits): Promise<ReadBook> {
  // mammoth inflates whatever it is given, trusting the sizes the zip declares: it gets the parts
  // this budgeted reader inflated, stored (level 0), which it only copies out again
  const zip = openZip(bytes, 'DOCX', limits);
  const parts = Object.fromEntries(zip.names.filter((name) => PART.test(name)).map((name) => [name, zip.read(name)]));
  let html: string;
  try {
    const stored = zipSync(parts, { level: 0 });
    const input = { buffer: Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength) };
    html = (await mammoth.convertToHtml(input, { convertImage: NO_IMAGES, transformDocument: MARK_PARAGRAPHS })).value;
  } catch (error) {
    throw new UnreadableManuscript(`The file is not a readable Word document (.docx): ${(error as Error).message}.`);
  }
  const core = parts[CORE];
  const metadata = core ? coreProperties(new TextDecoder().decode(core)) : {};
  return { ...readStructure(htmlBlocks(html), { ...metadata, untitled }), metadata };
}
