/**
 * Test support: files from memory over HTTP on loopback, as a mirror or a release server answers
 * them: with a strong ETag, and Range honoured when If-Range (if sent) matches. The test can make the
 * server misbehave: cut a download half-way, ignore Range, trickle, or send other bytes. The voice
 * catalog server (catalog-server.ts) and the install bench (tools/bench-voices.ts) serve through it.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Misbehaviour {
  /** The first answer for a path whose name ends so stops after half its bytes (the socket is destroyed). */
  cutHalfway?: string;
  /** Range headers are ignored: every answer is the whole file, 200. */
  ignoreRange?: boolean;
  /** Paths ending so are sent `bytes` (64 KiB unless said) at a time, this many ms apart. */
  trickle?: { suffix: string; everyMs: number; bytes?: number };
  /** Paths ending so are answered with these bytes instead. */
  replace?: { suffix: string; bytes: Buffer };
}

export interface FileServer {
  url: string;
  /** By path ("/piper/voices.json"); the test may change them. */
  files: Map<string, Buffer>;
  misbehave: Misbehaviour;
  /** Body bytes sent per path, and the Range headers received. */
  served: Map<string, number>;
  ranges: string[];
  close(): Promise<void>;
}

// A file's ETag, hashed once: a bench serves files of hundreds of MB many times.
const etags = new WeakMap<Buffer, string>();
function etagOf(body: Buffer): string {
  let etag = etags.get(body);
  if (!etag) etags.set(body, (etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`));
  return etag;
}

function serve(server: FileServer, request: IncomingMessage, response: ServerResponse): void {
  const name = decodeURIComponent(new URL(request.url!, server.url).pathname);
  const replaced = server.misbehave.replace && name.endsWith(server.misbehave.replace.suffix) ? server.misbehave.replace.bytes : undefined;
  const body = replaced ?? server.files.get(name);
  if (!body) return void response.writeHead(404).end('not found');
  const etag = etagOf(body);
  let start = 0;
  const range = /^bytes=(\d+)-$/.exec(request.headers.range ?? '');
  if (request.headers.range) server.ranges.push(`${name} ${request.headers.range} if-range=${request.headers['if-range'] ?? ''}`);
  const ifRangeOk = !request.headers['if-range'] || request.headers['if-range'] === etag;
  if (range && !server.misbehave.ignoreRange && ifRangeOk) start = Number(range[1]);
  if (start > body.length) return void response.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
  const part = body.subarray(start);
  response.writeHead(start > 0 ? 206 : 200, {
    'content-length': part.length,
    'accept-ranges': 'bytes',
    etag,
    ...(start > 0 ? { 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` } : {}),
  });
  // a HEAD (the size of a file whose catalog entry has none) sends no body
  if (request.method === 'HEAD') return void response.end();
  const count = (bytes: number) => server.served.set(name, (server.served.get(name) ?? 0) + bytes);
  const { cutHalfway, trickle } = server.misbehave;
  if (cutHalfway && name.endsWith(cutHalfway)) {
    server.misbehave.cutHalfway = undefined;
    const half = Math.floor(part.length / 2);
    count(half);
    return void response.write(part.subarray(0, half), () => setTimeout(() => response.destroy(), 50));
  }
  if (trickle && name.endsWith(trickle.suffix)) {
    let at = 0;
    const timer = setInterval(() => {
      const piece = part.subarray(at, at + (trickle.bytes ?? 65_536));
      at += piece.length;
      count(piece.length);
      if (at >= part.length) {
        clearInterval(timer);
        response.end(piece);
      } else response.write(piece);
    }, trickle.everyMs);
    response.on('close', () => clearInterval(timer));
    return;
  }
  count(part.length);
  response.end(part);
}

export async function startFileServer(files: Map<string, Buffer>): Promise<FileServer> {
  const server: FileServer = {
    url: '',
    files,
    misbehave: {},
    served: new Map(),
    ranges: [],
    close: () => new Promise<void>((resolve) => http.close(() => resolve()).closeAllConnections()),
  };
  const http: Server = createServer((request, response) => serve(server, request, response));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  server.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return server;
}
