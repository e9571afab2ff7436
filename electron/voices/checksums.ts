/**
 * A release's checksum list, as sherpa-onnx publishes `checksum.txt` beside its model archives:
 * one `<name>\t<sha256>` line per file (spaces instead of the tab are taken too). Read at install
 * time for a catalog file that pins no hash of its own: bounded in size and time, decoded strictly
 * as UTF-8, and refused whole at its first malformed line, so an error page, a binary file or a
 * truncated answer never yields a hash.
 */
import { failureReason, readBounded } from './fetch-bounded';

/**
 * GitHub allows 1,000 assets per release; a line is a name of at most 255 characters and a hash,
 * so a real list is under 330 KB.
 */
export const CHECKSUM_LIST_MAX_BYTES = 1024 * 1024;
const MAX_LINE = 400;
const FETCH_TIMEOUT_MS = 30_000;
// the name cannot contain the separator, so the match is linear in the (bounded) line
const LINE = /^([^\s\p{Cc}]{1,255})[\t ]+([0-9a-f]{64})$/u;

export interface ChecksumList {
  url: string;
  fetched_at: string;
  /** File name → sha256 (lowercase hex). */
  sha256: Map<string, string>;
}

/** The list's entries; throws a sentence naming the first line that is not `<name>\t<sha256>`. */
export function parseChecksumList(bytes: Uint8Array): Map<string, string> {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new Error('it is not UTF-8 text');
  }
  const entries = new Map<string, string>();
  const lines = text.split('\n');
  for (const [index, raw] of lines.entries()) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line === '') continue;
    const match = line.length <= MAX_LINE ? LINE.exec(line) : null;
    if (!match) throw new Error(`line ${index + 1} is not "<name> <sha256>"`);
    const [, name, hash] = match as unknown as [string, string, string];
    if (entries.has(name) && entries.get(name) !== hash) throw new Error(`it gives ${name} two different hashes`);
    entries.set(name, hash);
  }
  if (entries.size === 0) throw new Error('it lists no file');
  return entries;
}

/** Reads and parses the list; throws a sentence with the reason (unreachable, too large, malformed). */
export async function fetchChecksumList(url: string): Promise<ChecksumList> {
  let bytes: Buffer;
  try {
    bytes = await readBounded(url, CHECKSUM_LIST_MAX_BYTES, FETCH_TIMEOUT_MS);
  } catch (error) {
    throw new Error(failureReason(error), { cause: error });
  }
  return { url, fetched_at: new Date().toISOString(), sha256: parseChecksumList(bytes) };
}
