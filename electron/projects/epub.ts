/**
 * An EPUB's chapters: the XHTML documents of its spine, in reading order, read as text. An EPUB
 * is a zip (fflate) whose META-INF/container.xml names the package (OPF) file, whose manifest
 * names the documents and whose spine orders them. The XHTML is read leniently (tags dropped,
 * blocks as paragraphs, HTML's common named entities), as real books carry entities only their DTD
 * declares, which a strict XML parser refuses.
 */
import type { ManuscriptChapter } from './chapters';
import { decodeEntities, htmlText } from './html-text';
import { UnreadableManuscript, unzipBounded } from './zip';

export function readEpub(bytes: Uint8Array, untitled: string): ManuscriptChapter[] {
  const files = unzipBounded(bytes, 'EPUB');
  const text = (name: string) => {
    const file = files[name];
    if (!file) throw new UnreadableManuscript(`The EPUB has no ${name}.`);
    return new TextDecoder().decode(file);
  };
  const opfPath = attribute(/<rootfile\b[^>]*>/i.exec(text('META-INF/container.xml'))?.[0] ?? '', 'full-path');
  if (!opfPath) throw new UnreadableManuscript('The EPUB names no package file in META-INF/container.xml.');
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

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)')`, 'i').exec(tag);
  return match ? decodeEntities(match[2] ?? match[3] ?? '') : undefined;
}

/** One XHTML document as a chapter: titled by its first heading, else its <title>; null when it holds no text. */
export function xhtmlChapter(xhtml: string, untitled: string): ManuscriptChapter | null {
  const body = /<body\b[^>]*>([^]*)<\/body>/i.exec(xhtml)?.[1] ?? xhtml;
  const text = htmlText(body);
  if (!text) return null;
  const heading = /<h[1-3]\b[^>]*>([^]*?)<\/h[1-3]>/i.exec(body)?.[1];
  const title = (heading && htmlText(heading)) || htmlText(/<title\b[^>]*>([^]*?)<\/title>/i.exec(xhtml)?.[1] ?? '') || untitled;
  return { title: title.replace(/\s+/g, ' '), text };
}
