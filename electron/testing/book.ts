/**
 * Test support: a real manuscript at book scale, as a writer's tools make it. The text is Debian's
 * licences (benchText), cut into chapters of about 5,000 words under "## Chapter N" headings
 * below the book's title; pandoc makes the DOCX and EPUB of it, as it would of a writer's
 * Markdown (150,000 words: 30 chapters, 0.9 MB of Markdown, a 0.3 MB DOCX, a 0.25 MB EPUB), in
 * about 4 s of CPU each; bookDocx and bookEpub make minimal ones in a moment, for tests.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { sentencesOf } from '../contract/sentences';
import { trimEndWhere } from '../contract/text';
import { docx } from './docx';
import { benchText } from './prose';

export const BOOK_WORDS = 150_000;
const CHAPTER_WORDS = 5_000;

export function bookMarkdown(words = BOOK_WORDS): string {
  // about 6.2 characters a word in these licences, and a margin
  const paragraphs = benchText(words * 7).split('\n\n');
  const lines = ['# The Book of Licences', ''];
  let count = 0;
  let chapter = 0;
  for (const paragraph of paragraphs) {
    if (count >= words) break;
    if (count >= chapter * CHAPTER_WORDS) lines.push(`## Chapter ${++chapter}`, '');
    lines.push(paragraph, '');
    count += paragraph.split(' ').length;
  }
  return lines.join('\n');
}

/**
 * `markdown` with no sentence said twice (the licences repeat past their 48,000 words), for the
 * render cache's figures, which repeated sentences would flatter: a sentence met before has its
 * words turned round, one place more each time, keeping its length, words and last mark (a
 * sentence of too few words for that is numbered).
 */
export function distinctSentences(markdown: string): string {
  const seen = new Set<string>();
  const distinct = (sentence: string) => {
    const body = trimEndWhere(sentence, (char) => '.!?:;'.includes(char));
    const mark = sentence.slice(body.length);
    const words = body.split(' ');
    let out = sentence;
    for (let turn = 1; seen.has(out) && turn < words.length; turn++) {
      out = [...words.slice(turn), ...words.slice(0, turn)].join(' ') + mark;
    }
    // too few words to turn: numbered
    for (let n = 2; seen.has(out); n++) out = `${body} number ${n}${mark}`;
    seen.add(out);
    return out;
  };
  return markdown
    .split('\n')
    .map((line) => (line === '' || line.startsWith('#') ? line : sentencesOf(line, 'en').map(distinct).join(' ')))
    .join('\n');
}

/** What pandoc makes of `markdown`: a .docx or .epub file's bytes; `metadata`: more of pandoc's "key=value". */
export function pandoc(markdown: string, format: 'docx' | 'epub', metadata: string[] = []): Buffer {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'orator-book-'));
  try {
    const source = path.join(dir, 'book.md');
    const target = path.join(dir, `book.${format}`);
    writeFileSync(source, markdown);
    const extra = metadata.flatMap((field) => ['--metadata', field]);
    execFileSync('pandoc', ['-f', 'markdown', '-t', format, '--metadata', 'title=The Book of Licences', ...extra, '-o', target, source]);
    return readFileSync(target);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The book as a Word document, its headings in Word's heading styles (docx.ts): quick to make, unlike pandoc's. */
export function bookDocx(markdown = bookMarkdown()): Uint8Array {
  const paragraphs = markdown
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const heading = /^(#{1,2}) /.exec(line);
      return heading ? { style: `Heading${heading[1]!.length}`, runs: [line.slice(heading[0].length)] } : { runs: [escaped(line)] };
    });
  return docx(paragraphs);
}

/** The book as an EPUB of one XHTML document per chapter, in its spine. */
export function bookEpub(markdown = bookMarkdown()): Uint8Array {
  const chapters = markdown.split(/^## /m).slice(1);
  const xhtml = (chapter: string) => {
    const [title, ...paragraphs] = chapter.split('\n').filter(Boolean);
    return `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>${title}</title></head><body><h2>${title}</h2>${paragraphs.map((p) => `<p>${escaped(p)}</p>`).join('')}</body></html>`;
  };
  const manifest = chapters.map((_, i) => `<item id="c${i}" href="c${i}.xhtml" media-type="application/xhtml+xml"/>`).join('');
  const spine = chapters.map((_, i) => `<itemref idref="c${i}"/>`).join('');
  return zipSync({
    mimetype: strToU8('application/epub+zip'),
    'META-INF/container.xml': strToU8(
      '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
    ),
    'OEBPS/content.opf': strToU8(
      `<package xmlns="http://www.idpf.org/2007/opf" version="3.0"><manifest>${manifest}</manifest><spine>${spine}</spine></package>`,
    ),
    ...Object.fromEntries(chapters.map((chapter, i) => [`OEBPS/c${i}.xhtml`, strToU8(xhtml(chapter))])),
  });
}

const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
