/**
 * Test support: a novel as a writer's tools make it, for the book's structure (docs/projects.md):
 * front matter (a dedication, a copyright line), parts ("# Part One: …"), chapters ("## Chapter
 * One"), scene headings below them ("### Caerwythen, March 1887", some opening a chapter, some
 * within it), an epilogue and a heading with no words; its text is Debian's licences
 * (benchText). pandoc makes the DOCX and EPUB of it with the book's metadata (title, author,
 * language) and, for the EPUB, a cover image.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { benchText } from './prose';

export const NOVEL = { title: 'The Lantern Keeper’s Ledger', author: 'Mara Quillfeather', language: 'en-GB' };
const NUMBERS = [
  'One',
  'Two',
  'Three',
  'Four',
  'Five',
  'Six',
  'Seven',
  'Eight',
  'Nine',
  'Ten',
  'Eleven',
  'Twelve',
  'Thirteen',
  'Fourteen',
  'Fifteen',
];
const PARTS = ['The Coast', 'The Sea', 'The Light'];

/** `chapters` chapters in three parts, about `words` words in all, then an epilogue. */
export function novelMarkdown(words: number, chapters = 15): string {
  const paragraphs = benchText(words * 7).split('\n\n');
  const perChapter = Math.ceil(words / chapters);
  const lines = ['For my mother, who kept the light.', '', `Copyright © 2024 ${NOVEL.author}. All rights reserved.`, ''];
  let next = 0;
  for (let chapter = 0; chapter < chapters; chapter++) {
    const part = Math.floor((chapter * PARTS.length) / chapters);
    if (chapter === 0 || part !== Math.floor(((chapter - 1) * PARTS.length) / chapters)) {
      lines.push(`# Part ${NUMBERS[part]}: ${PARTS[part]}`, '');
    }
    lines.push(`## Chapter ${NUMBERS[chapter]}`, '');
    // every third chapter opens on a scene heading: the chapter keeps its own name
    if (chapter % 3 === 0) lines.push(`### Caerwythen, March 18${80 + chapter}`, '');
    let count = 0;
    for (; count < perChapter && next < paragraphs.length; next++) {
      lines.push(paragraphs[next]!, '');
      count += paragraphs[next]!.split(' ').length;
      if (count > perChapter / 2 && count - paragraphs[next]!.split(' ').length <= perChapter / 2) {
        lines.push('### Caerwythen, April 1887', '');
      }
    }
  }
  lines.push('## ', '', '## Epilogue', '', 'The lamp was lit again that night.', '');
  return lines.join('\n');
}

/** What pandoc makes of `markdown` with the novel's metadata: a .docx, or an .epub with a cover. */
export function pandocNovel(markdown: string, format: 'docx' | 'epub'): Buffer {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'orator-novel-'));
  try {
    const source = path.join(dir, 'book.md');
    const target = path.join(dir, `book.${format}`);
    writeFileSync(source, markdown);
    const metadata = [`title=${NOVEL.title}`, `author=${NOVEL.author}`, `lang=${NOVEL.language}`].flatMap((m) => ['--metadata', m]);
    const cover = path.join(dir, 'cover.png');
    writeFileSync(cover, png(8, 8));
    const extra = format === 'epub' ? [`--epub-cover-image=${cover}`] : [];
    execFileSync('pandoc', ['-f', 'markdown', '-t', format, ...metadata, ...extra, '-o', target, source]);
    return readFileSync(target);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A grey PNG of `width` × `height`. */
export function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const framed = Buffer.alloc(body.length + 8);
    framed.writeUInt32BE(data.length, 0);
    body.copy(framed, 4);
    framed.writeUInt32BE(crc32(body), body.length + 4);
    return framed;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8);
  const rows = Buffer.alloc((width + 1) * height, 0x80);
  for (let y = 0; y < height; y++) rows[y * (width + 1)] = 0;
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}
