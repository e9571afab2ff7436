/**
 * Downloads one file of a voice into `<part>`, hashing it as it arrives, and checks its size and
 * hash at the end. A cut connection is resumed from where it stopped with Range and If-Range (the
 * bytes already there are hashed first); a server that ignores Range sends the whole file again,
 * which then replaces the part. file:// URLs (a mirror folder) are read the same way.
 */
import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export interface DownloadTarget {
  url: string;
  size: number;
  hash: { algorithm: 'sha256' | 'md5'; hex: string };
  /** Who gave the size and the hash, for the error ("the catalog", "the checksum list …"). */
  says?: { size: string; hash: string };
}

export interface DownloadOptions {
  signal?: AbortSignal;
  /** Told each piece written (bytes), and -n when n bytes already counted are thrown away. */
  onBytes?(bytes: number): void;
  /** Throws when `bytes` more cannot be written (the disk's free minimum). */
  assertRoom?(bytes: number): Promise<void>;
  /** Connections cut before the end are resumed this many times. */
  resumes?: number;
  /** No byte for this long fails the attempt (a stalled server). */
  idleMs?: number;
}

export interface DownloadResult {
  /** Bytes that came over the connection, resumed and repeated ones included. */
  fetched: number;
}

/** A file whose bytes are not what the catalog says: thrown away, then tried once more by the caller. */
export class IntegrityError extends Error {}

const DEFAULT_RESUMES = 5;
const DEFAULT_IDLE_MS = 60_000;

/** The file's name: the last segment of its URL, decoded. */
export function fileName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.split('/').pop() || url);
}

async function sizeOf(file: string): Promise<number> {
  return stat(file).then(
    (s) => s.size,
    () => 0,
  );
}

/** Hashes what is already in the part file (after a resume), so that the end result is checked whole. */
async function hashExisting(file: string, hash: Hash): Promise<void> {
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
}

interface Attempt {
  /** Bytes of the part file this attempt appends to. */
  from: number;
  body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
}

/** Opens the URL at `from`: the answer's body and where it really starts (0 when Range was ignored). */
async function openSource(url: string, from: number, validatorFile: string, signal: AbortSignal): Promise<Attempt> {
  if (url.startsWith('file:')) return { from, body: createReadStream(fileURLToPath(url), { start: from }) };
  const validator = from > 0 ? await readFile(validatorFile, 'utf8').catch(() => '') : '';
  const headers: Record<string, string> = from > 0 ? { range: `bytes=${from}-`, ...(validator ? { 'if-range': validator } : {}) } : {};
  const response = await fetch(url, { headers, signal, redirect: 'follow' });
  if (response.status === 416 && from > 0) {
    await response.body?.cancel();
    return { from, body: [] };
  }
  if (response.status !== 200 && response.status !== 206) {
    await response.body?.cancel();
    throw new Error(`HTTP ${response.status} ${response.statusText} from ${url}`);
  }
  const etag = response.headers.get('etag');
  const lastModified = response.headers.get('last-modified');
  // a weak ETag cannot validate a range (RFC 9110 §13.1.5)
  const strong = etag && !etag.startsWith('W/') ? etag : lastModified;
  if (strong) await writeFile(validatorFile, strong);
  const range = /^bytes (\d+)-/.exec(response.headers.get('content-range') ?? '');
  const start = response.status === 206 && range ? Number(range[1]) : 0;
  if (start !== 0 && start !== from) {
    await response.body?.cancel();
    throw new Error(`${url} answered a range from byte ${start}, not ${from}`);
  }
  return { from: start, body: response.body! as unknown as AsyncIterable<Uint8Array> };
}

export async function downloadFile(target: DownloadTarget, part: string, options: DownloadOptions = {}): Promise<DownloadResult> {
  const name = fileName(target.url);
  const says = target.says ?? { size: 'the catalog', hash: 'the catalog' };
  const validatorFile = `${part}.validator`;
  const outer = options.signal ?? new AbortController().signal;
  let fetched = 0;
  let hash = createHash(target.hash.algorithm);
  let have = await sizeOf(part);
  if (have > target.size) {
    await rm(part, { force: true });
    have = 0;
  }
  if (have > 0) await hashExisting(part, hash);
  options.onBytes?.(have);
  for (let attempt = 0; ; attempt++) {
    const idle = new AbortController();
    const signal = AbortSignal.any([outer, idle.signal]);
    let timer = setTimeout(
      () => idle.abort(new Error(`no data for ${(options.idleMs ?? DEFAULT_IDLE_MS) / 1000} s`)),
      options.idleMs ?? DEFAULT_IDLE_MS,
    );
    const file = await open(part, 'a');
    try {
      const source = await openSource(target.url, have, validatorFile, signal);
      if (source.from === 0 && have > 0) {
        // The server sent the whole file again (it ignored Range, or the file changed): start over.
        await file.truncate(0);
        options.onBytes?.(-have);
        have = 0;
        hash = createHash(target.hash.algorithm);
      }
      for await (const chunk of source.body) {
        if (signal.aborted) throw signal.reason;
        clearTimeout(timer);
        timer = setTimeout(() => idle.abort(new Error('the download stalled')), options.idleMs ?? DEFAULT_IDLE_MS);
        if (have + chunk.length > target.size)
          throw new IntegrityError(`${name} is larger than the ${target.size} bytes ${says.size} says`);
        await options.assertRoom?.(chunk.length);
        await file.write(chunk);
        hash.update(chunk);
        have += chunk.length;
        fetched += chunk.length;
        options.onBytes?.(chunk.length);
      }
      break;
    } catch (error) {
      if (outer.aborted || error instanceof IntegrityError || !isTransient(error) || attempt >= (options.resumes ?? DEFAULT_RESUMES)) {
        throw outer.aborted ? outer.reason : error;
      }
      // cut or stalled: resume from what is on disk
    } finally {
      clearTimeout(timer);
      await file.close();
    }
  }
  if (have !== target.size) throw new IntegrityError(`${name} has ${have} bytes, ${says.size} says ${target.size}`);
  const actual = hash.digest('hex');
  if (actual !== target.hash.hex) {
    throw new IntegrityError(`${name} has ${target.hash.algorithm} ${actual}, ${says.hash} says ${target.hash.hex}`);
  }
  await rm(validatorFile, { force: true });
  return { fetched };
}

/** Errors of the connection (cut, reset, stalled), as opposed to answers that say no. */
function isTransient(error: unknown): boolean {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
  return !(error instanceof Error && /^HTTP \d/.test(error.message));
}
