/**
 * Small documents the voice library reads over the network or from a mirror folder (the catalog,
 * a release's checksum list), read with a byte bound and a time limit: a hostile or broken server
 * can neither fill the memory nor hold an install forever. Also the size a server gives for a file.
 */
import { readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const tooLarge = (maxBytes: number) => new Error(`it is larger than ${maxBytes} bytes`);

/** The bytes at an http(s) or file:// URL, refused past `maxBytes` (counted as they arrive) or `timeoutMs`. */
export async function readBounded(url: string, maxBytes: number, timeoutMs: number): Promise<Buffer> {
  if (url.startsWith('file:')) {
    const file = fileURLToPath(url);
    if ((await stat(file)).size > maxBytes) throw tooLarge(maxBytes);
    return readFile(file);
  }
  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
  if (!response.ok || Number(response.headers.get('content-length') ?? 0) > maxBytes) {
    await response.body?.cancel();
    throw response.ok ? tooLarge(maxBytes) : new Error(`HTTP ${response.status} ${response.statusText}`.trim());
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  // a body without Content-Length (chunked) is counted as it comes; leaving the loop cancels it
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge(maxBytes);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** The size of the file at an http(s) URL (HEAD, redirects followed) or a file:// URL. */
export async function remoteSize(url: string, timeoutMs: number): Promise<number> {
  if (url.startsWith('file:')) return (await stat(fileURLToPath(url))).size;
  const response = await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
  await response.body?.cancel();
  if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`.trim());
  const length = response.headers.get('content-length');
  if (length === null || !/^\d{1,15}$/.test(length)) throw new Error('the server does not say its size (no Content-Length)');
  return Number(length);
}

/** Why a fetch failed, in words: undici puts the network's reason (ECONNREFUSED …) in `cause`. */
export function failureReason(error: unknown): string {
  const cause = (error as Error).cause;
  return cause instanceof Error ? cause.message : (error as Error).message;
}
