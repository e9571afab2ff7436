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

/** A zip written field by field, so that its headers can say what they like. */
function rawZip(entries: RawEntry[]): Uint8Array {
  const parts: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt32LE(entry.crc, 14);
    local.writeUInt32LE(entry.packed.length, 18);
    local.writeUInt32LE(entry.declaredSize, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(entry.method, 10);
    central.writeUInt32LE(entry.crc, 16);
    central.writeUInt32LE(entry.packed.length, 20);
    central.writeUInt32LE(entry.declaredSize, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    parts.push(local, name, Buffer.from(entry.packed));
    directory.push(central, name);
    offset += 30 + name.length + entry.packed.length;
  }
  const directoryBytes = Buffer.concat(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directoryBytes.length, 12);
  end.writeUInt32LE(offset, 16);
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

/** container.xml of `chars` characters of "<rootfile " that never closes: quadratic for /<rootfile\b[^>]*>/. */
export const rootfileEpub = (chars: number) => epub('<body><p>x</p></body>', { container: CONTAINER(repeated('<rootfile ', chars)) });

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

/** A CSV file of `rows` valid rows (870,000: 23.5 MB); the same row, an entry each time. */
export const rowsCsv = (rows: number) => `grapheme,alias,language\n${'wordwordword,aliasalias,en\n'.repeat(rows)}`;

/** A CSV file whose one quoted field holds `chars` characters. */
export const hugeFieldCsv = (chars: number) => `grapheme,alias,language\n"${'a'.repeat(chars)}",b,en\n`;
