/**
 * Test support: the adversarial files of the document matrix (issue 29), built small and sent
 * large: Word files of millions of empty paragraphs or deep nests, zips whose sizes lie, EPUBs
 * and Markdown made to make a backtracking pattern rescan, lexicon files of millions of elements
 * or rows. Each builder takes its size, so the tests and the bench (tools/bench-documents.ts) send
 * the same files at different scales.
 */
import { crc32, deflateRawSync, createDeflateRaw } from 'node:zlib';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { docx } from './docx';

const MB = 1024 * 1024;
const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const DOCUMENT_OPEN = `<?xml version="1.0"?><w:document xmlns:w="${W}"><w:body>`;
const DOCUMENT_CLOSE = '</w:body></w:document>';

/** A text repeated to about `bytes` bytes. */
const repeated = (unit: string, bytes: number) => unit.repeat(Math.max(1, Math.floor(bytes / unit.length)));

/** A Word document whose body is `body` (the parts a minimal document has, from docx.ts). */
function docxWithBody(body: string): Uint8Array {
  const files = unzipSync(docx([{ runs: ['x'] }]));
  files['word/document.xml'] = strToU8(DOCUMENT_OPEN + body + DOCUMENT_CLOSE);
  return zipSync(files, { level: 9 });
}

/** `megabytes` of empty paragraphs (`<w:p/>`): 30 MB zip to about 46 KB. */
export const emptyParagraphsDocx = (megabytes: number) => docxWithBody(repeated('<w:p/>', megabytes * MB));

/** Paragraph content nested `depth` deep (runs in hyperlinks in runs…), then text. */
export const nestedDocx = (depth: number) =>
  docxWithBody(`<w:p>${'<w:hyperlink>'.repeat(depth)}<w:r><w:t>deep</w:t></w:r>${'</w:hyperlink>'.repeat(depth)}</w:p>`);

interface RawEntry {
  name: string;
  /** What the entry holds, deflated (method 8) or as is (method 0). */
  packed: Uint8Array;
  method: 0 | 8;
  /** The uncompressed size and CRC the zip declares (a lying zip declares a small size). */
  declaredSize: number;
  crc: number;
}

/** A little-endian record of `length` bytes, each field [offset, width in bytes, value]. */
function record(length: number, fields: [number, 2 | 4, number][]): Buffer {
  const bytes = Buffer.alloc(length);
  for (const [at, width, value] of fields) {
    if (width === 2) bytes.writeUInt16LE(value, at);
    else bytes.writeUInt32LE(value, at);
  }
  return bytes;
}

/** A zip written field by field, so that its headers can say what they like. */
function rawZip(entries: RawEntry[]): Uint8Array {
  const parts: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const { name: text, packed, method, declaredSize, crc } of entries) {
    const name = Buffer.from(text);
    const sizes: [number, 2 | 4, number][] = [
      [0, 4, crc],
      [4, 4, packed.length],
      [8, 4, declaredSize],
      [12, 2, name.length],
    ];
    // the local header and the central directory's entry hold the same fields, 2 bytes apart
    const local = record(30, [
      [0, 4, 0x04034b50],
      [4, 2, 20],
      [8, 2, method],
      ...sizes.map(([at, width, value]): [number, 2 | 4, number] => [at + 14, width, value]),
    ]);
    const central = record(46, [
      [0, 4, 0x02014b50],
      [4, 2, 20],
      [6, 2, 20],
      [10, 2, method],
      ...sizes.map(([at, width, value]): [number, 2 | 4, number] => [at + 16, width, value]),
      [42, 4, offset],
    ]);
    parts.push(local, name, Buffer.from(packed));
    directory.push(central, name);
    offset += 30 + name.length + packed.length;
  }
  const directoryBytes = Buffer.concat(directory);
  const end = record(22, [
    [0, 4, 0x06054b50],
    [8, 2, entries.length],
    [10, 2, entries.length],
    [12, 4, directoryBytes.length],
    [16, 4, offset],
  ]);
  return Buffer.concat([...parts, directoryBytes, end]);
}

/** `head`, then `fill` repeated to `bytes`, then `tail`, deflated as one stream without holding it whole. */
async function deflatedRun(head: string, fill: string, bytes: number, tail: string): Promise<Uint8Array> {
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const done = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  const block = Buffer.from(repeated(fill, Math.min(bytes, 16 * MB)));
  deflate.write(head);
  for (let written = 0; written < bytes; written += block.length) {
    if (!deflate.write(block)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end(tail);
  await done;
  return Buffer.concat(out);
}

/**
 * A Word document whose document.xml declares 1,000 bytes and inflates to `megabytes` (of
 * whitespace in a well-formed body): a 1 MB upload is about 1 GB inflated.
 */
export async function lyingDocx(megabytes: number): Promise<Uint8Array> {
  const honest = unzipSync(docx([{ runs: ['x'] }]));
  const entries: RawEntry[] = Object.entries(honest)
    .filter(([name]) => name !== 'word/document.xml')
    .map(([name, data]) => ({ name, packed: deflateRawSync(data), method: 8, declaredSize: data.length, crc: crc32(data) }));
  const packed = await deflatedRun(`${DOCUMENT_OPEN}<w:p><w:r><w:t>`, ' ', megabytes * MB, `</w:t></w:r></w:p>${DOCUMENT_CLOSE}`);
  entries.push({ name: 'word/document.xml', packed, method: 8, declaredSize: 1000, crc: 0 });
  return rawZip(entries);
}

const CONTAINER = (rootfiles: string) =>
  `<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>${rootfiles}</rootfiles></container>`;
const OPF = (href: string) =>
  `<package xmlns="http://www.idpf.org/2007/opf" version="3.0"><manifest><item id="c1" href="${href}" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c1"/></spine></package>`;

/** An EPUB of one chapter, `chapter` its XHTML (or `href` naming it otherwise). */
export function epub(chapter: string, options: { container?: string; href?: string } = {}): Uint8Array {
  return zipSync(
    {
      mimetype: strToU8('application/epub+zip'),
      'META-INF/container.xml': strToU8(options.container ?? CONTAINER('<rootfile full-path="OEBPS/content.opf"/>')),
      'OEBPS/content.opf': strToU8(OPF(options.href ?? 'ch1.xhtml')),
      'OEBPS/ch1.xhtml': strToU8(chapter),
    },
    { level: 9 },
  );
}

/** container.xml of `chars` characters of "<rootfile " and no ">" at all: quadratic for /<rootfile\b[^>]*>/. */
export const rootfileEpub = (chars: number) => epub('<body><p>x</p></body>', { container: repeated('<rootfile ', chars) });

/** A chapter of `chars` characters of "<body>" never closed: quadratic for /<body\b[^>]*>([^]*)<\/body>/. */
export const bodyEpub = (chars: number) => epub(repeated('<body>', chars));

/** A chapter of `chars` characters of "<" that never close: quadratic for /<[^>]*>/. */
export const tagsEpub = (chars: number) => epub(`<body>${repeated('<', chars)}</body>`);

/** A manifest href of malformed percent-encoding. */
export const badHrefEpub = () => epub('<body><p>x</p></body>', { href: '%zz' });

/** A Markdown heading line that a word ends after `spaces` spaces: cubic for the old heading pattern. */
export const headingMarkdown = (spaces: number) => `# a${' '.repeat(spaces)}x\n\nText.\n`;

/** One line of `chars` characters of links that never get their target. */
export const linksMarkdown = (chars: number) => `# A\n\n${repeated('[a](', chars)}\n`;

/** A PLS file of `count` empty elements in its lexicon (5.9M: 23.6 MB). */
export const emptyElementsPls = (count: number) => `<lexicon version="1.0" xml:lang="en">${'<a/>'.repeat(count)}</lexicon>`;

/** A PLS file with a DOCTYPE whose entities would expand a billion times. */
export const laughsPls = () =>
  `<?xml version="1.0"?><!DOCTYPE lexicon [<!ENTITY a "aaaaaaaaaa">${Array.from({ length: 9 }, (_, i) => `<!ENTITY ${String.fromCharCode(98 + i)} "${`&${String.fromCharCode(97 + i)};`.repeat(10)}">`).join('')}]><lexicon xml:lang="en"><lexeme><grapheme>&j;</grapheme><alias>x</alias></lexeme></lexicon>`;

/** A PLS file of elements nested `depth` deep. */
export const nestedPls = (depth: number) => `<lexicon xml:lang="en">${'<lexeme>'.repeat(depth)}${'</lexeme>'.repeat(depth)}</lexicon>`;

/** A CSV file of `rows` valid rows (840,000: 22.7 MB, 23.5 MB as JSON); the same row, an entry each time. */
export const rowsCsv = (rows: number) => `grapheme,alias,language\n${'wordwordword,aliasalias,en\n'.repeat(rows)}`;

/** A CSV file whose one quoted field holds `chars` characters. */
export const hugeFieldCsv = (chars: number) => `grapheme,alias,language\n"${'a'.repeat(chars)}",b,en\n`;
