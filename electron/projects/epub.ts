/**
 * An EPUB's chapters: the XHTML documents of its spine, in reading order, read as text. An EPUB
 * is a zip whose META-INF/container.xml names the package (OPF) file, whose manifest names the
 * documents and whose spine orders them. The markup is read leniently (markup.ts: tags dropped,
 * blocks as paragraphs, HTML's common named entities), as real books carry entities only their
 * DTD declares, which a strict XML parser refuses.
 */
import type { ManuscriptChapter } from './chapters';
import { decodeEntities, htmlText } from './html-text';
import { attributesOf, tags } from './markup';
import { openZip, UnreadableManuscript, type ZipLimits } from './zip';

export function readEpub(bytes: Uint8Array, untitled: string, limits: ZipLimits): ManuscriptChapter[] {
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
  const chapters: ManuscriptChapter[] = [];
  for (const ref of tagsNamed(opf, 'itemref')) {
    if (ref.get('linear') === 'no') continue;
    const href = hrefs.get(ref.get('idref') ?? '');
    if (!href || !zip.has(href)) continue;
    const chapter = xhtmlChapter(text(href), `${untitled} ${chapters.length + 1}`);
    if (chapter) chapters.push(chapter);
  }
  return chapters;
}

/** The attributes (entities decoded) of each opening tag named `name`. */
function tagsNamed(markup: string, name: string): Map<string, string>[] {
  const found: Map<string, string>[] = [];
  for (const tag of tags(markup)) {
    if (tag.name !== name || tag.closing) continue;
    const attributes = attributesOf(markup.slice(tag.start, tag.end));
    found.push(new Map([...attributes].map(([key, value]) => [key, decodeEntities(value)])));
  }
  return found;
}

/** A manifest href as a path in the zip ("ch%201.xhtml" is "ch 1.xhtml"). */
function decodedPath(href: string): string {
  try {
    return decodeURIComponent(href);
  } catch {
    throw new UnreadableManuscript(`The EPUB's manifest names the file "${href}", whose percent-encoding is malformed.`);
  }
}

/** One XHTML document as a chapter: titled by its first heading, else its <title>; null when it holds no text. */
export function xhtmlChapter(xhtml: string, untitled: string): ManuscriptChapter | null {
  let bodyStart = 0;
  let bodyEnd = xhtml.length;
  let heading: [number, number] | undefined;
  let headingStart = -1;
  let title: [number, number] | undefined;
  let titleStart = -1;
  for (const tag of tags(xhtml)) {
    if (tag.name === 'body') {
      if (!tag.closing && bodyStart === 0) bodyStart = tag.end;
      if (tag.closing) bodyEnd = tag.start;
    } else if (/^h[1-3]$/.test(tag.name) && !heading) {
      if (!tag.closing && headingStart < 0) headingStart = tag.end;
      else if (tag.closing && headingStart >= 0) heading = [headingStart, tag.start];
    } else if (tag.name === 'title' && !title) {
      if (!tag.closing && titleStart < 0) titleStart = tag.end;
      else if (tag.closing && titleStart >= 0) title = [titleStart, tag.start];
    }
  }
  const text = htmlText(xhtml.slice(bodyStart, Math.max(bodyStart, bodyEnd)));
  if (!text) return null;
  const titleText = (span: [number, number] | undefined) => (span ? htmlText(xhtml.slice(...span)) : '');
  const named = titleText(heading) || titleText(title) || untitled;
  return { title: named.replace(/\s+/g, ' '), text };
}
