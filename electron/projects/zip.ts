/**
 * The files of a zipped manuscript (EPUB, DOCX), read from the zip's central directory and
 * inflated only when asked for. What a zip declares is not trusted: inflated bytes are counted as
 * they come out of the inflater (zlib's maxOutputLength), against one budget for the whole file,
 * so a zip whose sizes lie stops at the budget, not at the gigabytes its data holds.
 */
import { inflateRawSync } from 'node:zlib';

/** A manuscript file that cannot be read as its format; its message says why (a 400). */
export class UnreadableManuscript extends Error {
  override name = 'UnreadableManuscript';
}

/** A manuscript over one of the reader's limits; its message names the limit (a 413). */
export class ManuscriptTooLarge extends Error {
  override name = 'ManuscriptTooLarge';
}

export interface ZipLimits {
  /** Bytes all the files read may inflate to, together. */
  inflatedBytes: number;
  /** Files in the zip (a central directory of millions of empty files is work before any is read). */
  files: number;
}

export interface ZipArchive {
  names: readonly string[];
  has(name: string): boolean;
  /** A file's bytes, counted against the budget; throws UnreadableManuscript or ManuscriptTooLarge. */
  read(name: string): Uint8Array;
}

interface Entry {
  method: number;
  compressedSize: number;
  localHeader: number;
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
/** The end record is 22 bytes and may carry a comment of up to 65,535 after it. */
const END_SEARCH = 22 + 0xffff;
const MB = 1024 * 1024;

export function openZip(bytes: Uint8Array, format: string, limits: ZipLimits): ZipArchive {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const unreadable = (why: string): never => {
    throw new UnreadableManuscript(`The file is not a readable ${format} (zip): ${why}.`);
  };
  const u32 = (at: number) => (at + 4 <= data.length ? data.readUInt32LE(at) : unreadable('it is cut short'));
  const u16 = (at: number) => (at + 2 <= data.length ? data.readUInt16LE(at) : unreadable('it is cut short'));

  let end = -1;
  for (let at = data.length - 22; at >= Math.max(0, data.length - END_SEARCH); at--) {
    if (data.readUInt32LE(at) === END_OF_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) unreadable('it has no central directory');
  const count = u16(end + 10);
  const directoryOffset = u32(end + 16);
  if (count === 0xffff || directoryOffset === 0xffffffff) unreadable('ZIP64 archives are not read');
  if (count > limits.files) throw new ManuscriptTooLarge(`The ${format} holds ${count} files; at most ${limits.files} are read.`);

  const entries = new Map<string, Entry>();
  const decoder = new TextDecoder();
  let at = directoryOffset;
  for (let i = 0; i < count; i++) {
    if (u32(at) !== DIRECTORY_ENTRY) unreadable('its central directory is damaged');
    const flags = u16(at + 8);
    const nameLength = u16(at + 28);
    if (at + 46 + nameLength > data.length) unreadable('it is cut short');
    const name = decoder.decode(data.subarray(at + 46, at + 46 + nameLength));
    if (flags & 1) unreadable(`"${name}" is encrypted`);
    const entry = { method: u16(at + 10), compressedSize: u32(at + 20), localHeader: u32(at + 42) };
    if (!entries.has(name)) entries.set(name, entry);
    at += 46 + nameLength + u16(at + 30) + u16(at + 32);
  }

  let budget = limits.inflatedBytes;
  const tooLarge = () =>
    new ManuscriptTooLarge(
      `The ${format} expands to over ${limits.inflatedBytes / MB} MB (counted as it is unpacked); at most ${limits.inflatedBytes / MB} MB are read.`,
    );
  return {
    names: [...entries.keys()],
    has: (name) => entries.has(name),
    read(name) {
      const entry = entries.get(name);
      if (!entry) return unreadable(`it has no ${name}`);
      const header = entry.localHeader;
      if (u32(header) !== LOCAL_HEADER) unreadable(`the header of "${name}" is damaged`);
      const start = header + 30 + u16(header + 26) + u16(header + 28);
      if (start + entry.compressedSize > data.length) unreadable(`"${name}" is cut short`);
      const packed = data.subarray(start, start + entry.compressedSize);
      let file: Uint8Array;
      if (entry.method === 0) file = packed;
      else if (entry.method === 8) {
        if (budget <= 0) throw tooLarge();
        try {
          file = inflateRawSync(packed, { maxOutputLength: budget });
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge();
          return unreadable(`"${name}" does not inflate (${(error as Error).message})`);
        }
      } else return unreadable(`"${name}" uses compression method ${entry.method}, which is not read`);
      if (file.length > budget) throw tooLarge();
      budget -= file.length;
      return file;
    },
  };
}
