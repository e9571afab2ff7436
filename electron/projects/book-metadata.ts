/**
 * What a book file says of itself: a Word document's core properties (docProps/core.xml), an
 * EPUB's package metadata (dc:title, dc:creator, dc:language, its cover image). Read leniently
 * (markup.ts), in linear time.
 */
import { EXPORT_LIMITS } from '../contract/exports';
import type { BookMetadata } from './chapters';
import { decodeEntities, htmlText } from './html-text';
import { attributesOf, tags } from './markup';

/** The text of each element named `name` (local name: "dc:title" is "title"), in order. */
export function elementTexts(markup: string, name: string): string[] {
  const found: string[] = [];
  let start = -1;
  for (const tag of tags(markup)) {
    if (tag.name !== name) continue;
    if (!tag.closing) start = tag.end;
    else if (start >= 0) {
      const text = htmlText(markup.slice(start, tag.start)).replace(/\s+/g, ' ').trim();
      if (text) found.push(text);
      start = -1;
    }
  }
  return found;
}

/** The attributes (entities decoded) of each opening tag named `name`. */
export function tagsNamed(markup: string, name: string): Map<string, string>[] {
  const found: Map<string, string>[] = [];
  for (const tag of tags(markup)) {
    if (tag.name !== name || tag.closing) continue;
    const attributes = attributesOf(markup.slice(tag.start, tag.end));
    found.push(new Map([...attributes].map(([key, value]) => [key, decodeEntities(value)])));
  }
  return found;
}

/** Word fills the title of a converted file with "Microsoft Word - name.doc": that is no title. */
const NO_TITLE = /^microsoft word - /i;

/** Title, author and language from a .docx's docProps/core.xml. */
export function coreProperties(xml: string): BookMetadata {
  const title = elementTexts(xml, 'title')[0];
  return defined({
    title: title && !NO_TITLE.test(title) ? title : undefined,
    author: elementTexts(xml, 'creator')[0],
    language: elementTexts(xml, 'language')[0],
  });
}

/**
 * Title, authors, language and cover from an EPUB's package document. The cover is the manifest
 * item EPUB 3 marks `cover-image`, or the one EPUB 2's `<meta name="cover">` names; it is taken
 * when it is a JPEG or PNG within the export's cover limit.
 */
export function packageMetadata(opf: string, coverBytes: (href: string) => Uint8Array | null): BookMetadata {
  const metadata = defined({
    title: elementTexts(opf, 'title')[0],
    author: [...new Set(elementTexts(opf, 'creator'))].join(', ') || undefined,
    language: elementTexts(opf, 'language')[0],
  });
  const items = tagsNamed(opf, 'item');
  const named = tagsNamed(opf, 'meta')
    .find((meta) => meta.get('name') === 'cover')
    ?.get('content');
  const item =
    items.find((i) => (i.get('properties') ?? '').split(/\s+/).includes('cover-image')) ??
    items.find((i) => named && i.get('id') === named);
  const href = item?.get('href');
  if (!href) return metadata;
  const bytes = coverBytes(href);
  if (!bytes) return metadata;
  const type = imageType(bytes);
  if (!type) return { ...metadata, cover_skipped: 'the cover image is not a JPEG or PNG' };
  if (bytes.length > EXPORT_LIMITS.coverBytes) {
    return { ...metadata, cover_skipped: `the cover image is over ${EXPORT_LIMITS.coverBytes / (1024 * 1024)} MB` };
  }
  return { ...metadata, cover: { bytes, type } };
}

export function imageType(bytes: Uint8Array): 'image/jpeg' | 'image/png' | null {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return 'image/png';
  return null;
}

function defined(fields: Record<string, string | undefined>): BookMetadata {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value)) as BookMetadata;
}
