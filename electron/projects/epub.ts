/**
 * An EPUB's chapters: the XHTML documents of its spine, in reading order, read as text. An EPUB
 * is a zip (fflate) whose META-INF/container.xml names the package (OPF) file, whose manifest
 * names the documents and whose spine orders them. The XHTML is read leniently (tags dropped,
 * blocks as paragraphs, HTML's common named entities), as real books carry entities only their DTD
 * declares, which a strict XML parser refuses.
 */
import { unzipSync } from 'fflate';
import type { ManuscriptChapter } from './chapters';

/** Uncompressed bytes an EPUB may expand to: a zip bomb stops here. */
export const EPUB_MAX_UNZIPPED = 64 * 1024 * 1024;

export class EpubError extends Error {
  override name = 'EpubError';
}

export function readEpub(bytes: Uint8Array, untitled: string): ManuscriptChapter[] {
  const files = unzipped(bytes);
  const text = (name: string) => {
    const file = files[name];
    if (!file) throw new EpubError(`The EPUB has no ${name}.`);
    return new TextDecoder().decode(file);
  };
  const opfPath = attribute(/<rootfile\b[^>]*>/i.exec(text('META-INF/container.xml'))?.[0] ?? '', 'full-path');
  if (!opfPath) throw new EpubError('The EPUB names no package file in META-INF/container.xml.');
  const opf = text(opfPath);
  const base = opfPath.includes('/') ? opfPath.slice(0, opfPath.lastIndexOf('/') + 1) : '';
  const hrefs = new Map<string, string>();
  for (const [item] of opf.matchAll(/<item\b[^>]*>/gi)) {
    const id = attribute(item, 'id');
    const href = attribute(item, 'href');
    if (id && href) hrefs.set(id, base + decodeURIComponent(href.split('#')[0]!));
  }
  const chapters: ManuscriptChapter[] = [];
  for (const [ref] of opf.matchAll(/<itemref\b[^>]*>/gi)) {
    if (attribute(ref, 'linear') === 'no') continue;
    const href = hrefs.get(attribute(ref, 'idref') ?? '');
    if (!href || !files[href]) continue;
    const chapter = xhtmlChapter(text(href), `${untitled} ${chapters.length + 1}`);
    if (chapter) chapters.push(chapter);
  }
  return chapters;
}

function unzipped(bytes: Uint8Array): Record<string, Uint8Array> {
  let total = 0;
  try {
    return unzipSync(bytes, {
      filter: (file) => {
        total += file.originalSize;
        if (total > EPUB_MAX_UNZIPPED) throw new EpubError(`The EPUB expands to over ${EPUB_MAX_UNZIPPED / 1024 / 1024} MB.`);
        return true;
      },
    });
  } catch (error) {
    if (error instanceof EpubError) throw error;
    throw new EpubError(`The file is not a readable EPUB (zip): ${(error as Error).message}.`);
  }
}

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)')`, 'i').exec(tag);
  return match ? decodeEntities(match[2] ?? match[3] ?? '') : undefined;
}

/** One XHTML document as a chapter: titled by its first heading, else its <title>; null when it holds no text. */
export function xhtmlChapter(xhtml: string, untitled: string): ManuscriptChapter | null {
  const body = /<body\b[^>]*>([^]*)<\/body>/i.exec(xhtml)?.[1] ?? xhtml;
  const text = asText(body);
  if (!text) return null;
  const heading = /<h[1-3]\b[^>]*>([^]*?)<\/h[1-3]>/i.exec(body)?.[1];
  const title = (heading && asText(heading)) || asText(/<title\b[^>]*>([^]*?)<\/title>/i.exec(xhtml)?.[1] ?? '') || untitled;
  return { title: title.replace(/\s+/g, ' '), text };
}

const BLOCK = /<\/?(?:p|div|h[1-6]|li|ul|ol|blockquote|section|article|header|footer|aside|figure|figcaption|table|tr|pre|hr)\b[^>]*>/gi;

/** Markup as words: blocks become paragraphs, <br> a line break, other tags nothing. */
function asText(markup: string): string {
  return decodeEntities(
    markup
      .replace(/<!--[^]*?-->/g, '')
      .replace(/<(script|style|head)\b[^>]*>[^]*?<\/\1>/gi, '')
      .replace(BLOCK, '\n\n')
      .replace(/<br\b[^>]*>/gi, '\n')
      .replace(/<[^>]*>/g, ''),
  )
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  mdash: '—',
  ndash: '–',
  hellip: '…',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  shy: '',
  copy: '©',
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z][a-z0-9]*);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
    }
    return NAMED[name.toLowerCase()] ?? whole;
  });
}
