/**
 * Unpacks a .tar.bz2 or .tar.gz archive into a folder, synchronously (it runs in a worker thread,
 * unpack-worker.ts). It refuses, before writing anything of them, entries that could reach outside
 * the folder or stand for something other than files: absolute paths, `..`, links (symbolic or
 * hard) and devices, FIFOs. Modes in the archive are not applied: files are 0644, folders 0755.
 */
import { closeSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import path from 'node:path';
import Bunzip from 'seek-bzip';
import { Parser, type ReadEntry } from 'tar';
import type { ArchiveKind } from '../contract/voice-library';

export interface ExtractRequest {
  archive: string;
  kind: ArchiveKind;
  /** An empty folder to unpack into. */
  dest: string;
  /** More unpacked bytes than this fail the extraction (an archive that would fill the disk). */
  maxBytes: number;
}

export interface ExtractResult {
  files: number;
  bytes: number;
}

const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);
const READ_CHUNK = 1 << 20;

/** Why an entry's path may not be written, or null when it may. */
export function unsafePath(name: string): string | null {
  if (name === '' || name.includes('\0')) return 'an empty path or a NUL byte';
  if (/^([/\\]|[A-Za-z]:)/.test(name)) return 'an absolute path';
  if (name.split(/[/\\]/).includes('..')) return 'a ".." segment';
  return null;
}

export function extractArchive({ archive, kind, dest, maxBytes }: ExtractRequest): ExtractResult {
  let refusal: Error | undefined;
  let files = 0;
  let bytes = 0;
  const fail = (why: string) => {
    refusal ??= new Error(`${path.basename(archive)}: ${why}; nothing of it is installed`);
  };
  const onEntry = (entry: ReadEntry) => {
    const problem = unsafePath(entry.path);
    if (problem) fail(`the entry "${entry.path}" has ${problem}`);
    else if (entry.type === 'Directory') mkdirSync(path.join(dest, entry.path), { recursive: true, mode: 0o755 });
    else if (!FILE_TYPES.has(entry.type)) fail(`the entry "${entry.path}" is a ${entry.type} (links and devices are refused)`);
    if (refusal || entry.type === 'Directory') return void entry.resume();
    const target = path.join(dest, entry.path);
    mkdirSync(path.dirname(target), { recursive: true, mode: 0o755 });
    // 'wx': an archive that names a file twice is refused rather than overwritten
    const fd = openSync(target, 'wx', 0o644);
    files++;
    entry.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > maxBytes) fail(`it unpacks to more than ${maxBytes} bytes`);
      if (!refusal) writeSync(fd, chunk);
    });
    entry.on('end', () => closeSync(fd));
  };
  const parser = new Parser({ strict: true, onReadEntry: onEntry });
  let parseError: Error | undefined;
  parser.on('error', (error: Error) => (parseError ??= error));
  const feed = (chunk: Buffer) => {
    if (refusal || parseError) throw refusal ?? parseError;
    parser.write(chunk);
  };
  const fd = openSync(archive, 'r');
  try {
    if (kind === 'tar.bz2') bunzip(fd, feed);
    else forEachChunk(fd, feed);
    parser.end();
  } catch (error) {
    if (!refusal && !parseError)
      throw new Error(`${path.basename(archive)} could not be unpacked: ${(error as Error).message}`, { cause: error });
  } finally {
    closeSync(fd);
  }
  if (refusal) throw refusal;
  if (parseError) throw new Error(`${path.basename(archive)} is not a valid ${kind} archive: ${parseError.message}`);
  return { files, bytes };
}

function forEachChunk(fd: number, each: (chunk: Buffer) => void): void {
  for (;;) {
    const buffer = Buffer.allocUnsafe(READ_CHUNK);
    const read = readSync(fd, buffer, 0, READ_CHUNK, null);
    if (read === 0) return;
    each(buffer.subarray(0, read));
  }
}

/** bzip2 (multi-stream, as pbzip2 writes) decoded a byte at a time, handed on a megabyte at a time. */
function bunzip(fd: number, each: (chunk: Buffer) => void): void {
  let input = Buffer.alloc(0);
  let at = 0;
  let ended = false;
  const refill = () => {
    const buffer = Buffer.allocUnsafe(READ_CHUNK);
    const read = readSync(fd, buffer, 0, READ_CHUNK, null);
    input = buffer.subarray(0, read);
    at = 0;
    ended = read === 0;
  };
  let output = Buffer.allocUnsafe(READ_CHUNK);
  let written = 0;
  const readByte = () => {
    if (at >= input.length && !ended) refill();
    return at < input.length ? input[at++]! : -1;
  };
  Bunzip.decode(
    {
      readByte,
      // the stream header is read this way
      read(buffer, offset, length) {
        let count = 0;
        for (let byte; count < length && (byte = readByte()) >= 0; count++) buffer[offset + count] = byte;
        return count === 0 ? -1 : count;
      },
      eof() {
        if (at >= input.length && !ended) refill();
        return at >= input.length;
      },
    },
    {
      writeByte(byte) {
        output[written++] = byte;
        if (written === output.length) {
          each(output);
          output = Buffer.allocUnsafe(READ_CHUNK);
          written = 0;
        }
      },
    },
    true,
  );
  if (written > 0) each(output.subarray(0, written));
}
