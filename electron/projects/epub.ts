/**
 * An EPUB's chapters: the XHTML documents of its spine, in reading order, read as blocks and cut
 * by the book's headings (structure.ts), with its package metadata (book-metadata.ts). An EPUB
 * is a zip whose META-INF/container.xml names the package (OPF) file, whose manifest names the
 * documents and whose spine orders them. The markup is read leniently (markup.ts: tags dropped,
 * blocks as paragraphs, HTML's common named entities), as real books carry entities only their
 * DTD declares, which a strict XML parser refuses.
 */
import { htmlBlocks, type Block, type FrontKind } from './blocks';
import { packageMetadata, tagsNamed } from './book-metadata';
import type { ReadBook } from './chapters';
import { htmlText } from './html-text';
import { attributesOf, tags } from './markup';
import { readStructure } from './structure';
import { openZip, UnreadableManuscript, type ZipLimits } from './zip';

export function readEpub(bytes: Uint8Array, untitled: string, limits: ZipLimits): ReadBook {
  const zip = openZip(bytes, 'EPUB', limits);
  const decoder = new TextDecoder();
  const text = (name: string) => {
    if (!zip.has(name)) throw new UnreadableManuscript(`The EPUB has no ${name}.`);
    return decoder.decode(zip.read(name));
  };
  const opfPath = tagsNamed(text('META-INF/container.xml'), 'rootfile')[0]?.get('full-path');
  if (!opfPath) throw new UnreadableManuscript('The EPUB names no package file in META-INF/container.xml.');
  const opf = text(opfPath);
  const base = opfPath.includes('/') ? opfPath.slice(0, opfPath.lastIndexOf('/') + 1) : '';
  const hrefs = new Map<string, string>();
  for (const item of tagsNamed(opf, 'item')) {
    const id = item.get('id');
    const href = item.get('href');
    if (id && href) hrefs.set(id, base + decodedPath(href.split('#')[0]!));
  }
  const metadata = packageMetadata(opf, (href) => {
    const path = base + decodedPath(href);
    return zip.has(path) ? zip.read(path) : null;
  });
  const documents: XhtmlDocument[] = [];
  for (const ref of tagsNamed(opf, 'itemref')) {
    if (ref.get('linear') === 'no') continue;
    const href = hrefs.get(ref.get('idref') ?? '');
    if (href && zip.has(href)) documents.push(xhtmlDocument(text(href)));
  }
  const blocks = spineBlocks(documents, metadata.title);
  return { ...readStructure(blocks, { ...metadata, untitled }), metadata };
}

/**
 * The spine's blocks in order. A document with no heading of its own is a chapter titled by its
 * <title> when the book has no headings at all, or when its <title> is its own (not the book's,
 * not the document's before it: a chapter split into files); else it continues what came before.
 */
function spineBlocks(documents: XhtmlDocument[], bookTitle: string | undefined): Block[] {
  const headless = documents.every((d) => !d.blocks.some((b) => b.heading !== undefined));
  const blocks: Block[] = [];
  let previousTitle: string | undefined;
  documents.forEach((document, i) => {
    const hasHeading = document.blocks.some((b) => b.heading !== undefined);
    const ownTitle = document.title && document.title !== bookTitle && document.title !== previousTitle;
    if (!hasHeading && !document.front && document.blocks.length > 0 && (headless || (ownTitle && blocks.length > 0))) {
      blocks.push({ heading: 'chapter', text: document.title || `Section ${i + 1}` });
    }
    const [first, ...rest] = document.blocks;
    if (first) blocks.push(first.heading === undefined ? first : { ...first, opens: true }, ...rest);
    previousTitle = document.title;
  });
  return blocks;
}

/** What epub:type values say a document is, for the import report. */
const FRONT_TYPES: Record<string, FrontKind> = {
  titlepage: 'title page',
  halftitlepage: 'title page',
  dedication: 'dedication',
  epigraph: 'epigraph',
  'copyright-page': 'copyright',
  toc: 'contents',
  frontmatter: 'front matter',
};

interface XhtmlDocument {
  title: string;
  blocks: Block[];
  front?: FrontKind;
}

/** One XHTML document: its <title>, its body as blocks, and the front matter its epub:type declares. */
export function xhtmlDocument(xhtml: string): XhtmlDocument {
  let bodyStart = 0;
  let bodyEnd = xhtml.length;
  let title: [number, number] | undefined;
  let titleStart = -1;
  let front: FrontKind | undefined;
  for (const tag of tags(xhtml)) {
    if (tag.name === 'body') {
      if (!tag.closing && bodyStart === 0) bodyStart = tag.end;
      if (tag.closing) bodyEnd = tag.start;
    } else if (tag.name === 'title' && !title) {
      if (!tag.closing && titleStart < 0) titleStart = tag.end;
      else if (tag.closing && titleStart >= 0) title = [titleStart, tag.start];
    }
    if ((tag.name === 'body' || tag.name === 'section') && !tag.closing && (!front || front === 'front matter')) {
      const types = attributesOf(xhtml.slice(tag.start, tag.end)).get('epub:type')?.split(/\s+/) ?? [];
      front = types.map((type) => FRONT_TYPES[type]).find(Boolean) ?? front;
    }
  }
  const titleText = title ? htmlText(xhtml.slice(...title)).replace(/\s+/g, ' ') : '';
  const blocks = htmlBlocks(xhtml.slice(bodyStart, Math.max(bodyStart, bodyEnd)), front);
  return { title: titleText, blocks, ...(front ? { front } : {}) };
}

/** A manifest href as a path in the zip ("ch%201.xhtml" is "ch 1.xhtml"). */
function decodedPath(href: string): string {
  try {
    return decodeURIComponent(href);
  } catch {
    throw new UnreadableManuscript(`The EPUB's manifest names the file "${href}", whose percent-encoding is malformed.`);
  }
}
