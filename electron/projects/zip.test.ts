import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { badHrefEpub, lyingDocx } from '../testing/hostile-documents';
import { readEpub } from './epub';
import { ManuscriptTooLarge, openZip, UnreadableManuscript } from './zip';

const MB = 1024 * 1024;
/** Small, so that the tests inflate little; the gateway's are DOCUMENT_LIMITS. */
const LIMITS = { inflatedBytes: 1 * MB, files: 100 };

describe('openZip', () => {
  it('reads stored and deflated files, and only inflates what it is asked for', () => {
    const zip = openZip(zipSync({ 'a.txt': [strToU8('stored'), { level: 0 }], 'b.txt': strToU8('deflated '.repeat(100)) }), 'EPUB', LIMITS);
    expect(zip.names).toEqual(['a.txt', 'b.txt']);
    expect(new TextDecoder().decode(zip.read('a.txt'))).toBe('stored');
    expect(zip.read('b.txt')).toHaveLength(900);
    expect(zip.has('c.txt')).toBe(false);
  });

  it('counts inflated bytes as they come out, not as the zip declares them', async () => {
    // document.xml declares 1,000 bytes and holds 4 MB
    const zip = openZip(await lyingDocx(4), 'DOCX', LIMITS);
    expect(() => zip.read('word/document.xml')).toThrow(ManuscriptTooLarge);
    expect(() => zip.read('word/document.xml')).toThrow('The DOCX expands to over 1 MB (counted as it is unpacked)');
  });

  it('shares one budget among the files read', () => {
    const files = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`f${i}`, new Uint8Array(300_000)]));
    const zip = openZip(zipSync(files), 'EPUB', LIMITS);
    for (const name of ['f0', 'f1', 'f2']) zip.read(name);
    expect(() => zip.read('f3')).toThrow(ManuscriptTooLarge);
  });

  it('refuses a zip of more files than the limit before reading any', () => {
    const files = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`f${i}`, new Uint8Array(0)]));
    expect(() => openZip(zipSync(files), 'EPUB', LIMITS)).toThrow('The EPUB holds 101 files; at most 100 are read.');
  });

  it('refuses what is no zip, or a damaged one, saying why', () => {
    const good = zipSync({ 'a.txt': strToU8('hello') });
    expect(() => openZip(strToU8('not a zip'), 'EPUB', LIMITS)).toThrow(/not a readable EPUB \(zip\): it has no central directory/);
    expect(() => openZip(good.subarray(10), 'EPUB', LIMITS)).toThrow(UnreadableManuscript);
    const lying = good.slice();
    // the central directory's offset of a.txt's local header, pointed past the end
    lying.set([0xff, 0xff, 0xff, 0x00], lying.length - 22 - 46 - 5 + 42);
    expect(() => openZip(lying, 'EPUB', LIMITS).read('a.txt')).toThrow(UnreadableManuscript);
  });

  it('answers a manifest href of malformed percent-encoding as an unreadable EPUB', () => {
    expect(() => readEpub(badHrefEpub(), 'book', LIMITS)).toThrow(UnreadableManuscript);
    expect(() => readEpub(badHrefEpub(), 'book', LIMITS)).toThrow(`names the file "%zz", whose percent-encoding is malformed`);
  });
});
