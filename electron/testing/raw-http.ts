/**
 * Test support: requests no polite client sends (bytes that are not UTF-8, paths fetch() would
 * normalise, bodies in slow pieces, malformed HTTP), with the answer read whole.
 */
import http from 'node:http';
import net from 'node:net';

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface RawRequest {
  method: string;
  /** Sent as is: percent-encoding and ".." segments are not normalised. */
  path: string;
  /** Host is 127.0.0.1:<port> unless given. */
  headers?: Record<string, string | string[]>;
  body?: Buffer | string;
  /** Sends the body with Transfer-Encoding: chunked instead of Content-Length. */
  chunked?: boolean;
  /** Sends the body in pieces of `bytes`, `delayMs` apart: a slow-loris body. */
  trickle?: { bytes: number; delayMs: number };
  /** Stops after `trickle` has sent this many bytes and drops the connection (an abandoned body). */
  abandonAfter?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One request on a fresh connection; rejects when no answer comes within `timeoutMs` (a hang). */
export function send(port: number, request: RawRequest, timeoutMs = 15_000): Promise<Answer> {
  const body = request.body === undefined ? undefined : Buffer.from(request.body);
  const headers: Record<string, string | string[]> = { host: `127.0.0.1:${port}`, connection: 'close', ...request.headers };
  if (body && request.chunked) headers['transfer-encoding'] = 'chunked';
  else if (body) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    let answered = false;
    const outgoing = http.request({ host: '127.0.0.1', port, method: request.method, path: request.path, headers, agent: false });
    const timer = setTimeout(
      () => outgoing.destroy(new Error(`no answer to ${request.method} ${request.path.slice(0, 80)} within ${timeoutMs} ms`)),
      timeoutMs,
    );
    outgoing.on('response', (response) => {
      answered = true;
      const parts: Buffer[] = [];
      const done = () => {
        clearTimeout(timer);
        resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(parts) });
      };
      // an event stream never ends: its status and headers are the answer
      if (String(response.headers['content-type']).startsWith('text/event-stream')) {
        done();
        response.destroy();
        return;
      }
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('end', done);
      response.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    outgoing.on('error', (error) => {
      // the gateway may answer (413) and close before the whole body is written
      if (answered) return;
      clearTimeout(timer);
      reject(error);
    });
    void writeBody(outgoing, body, request, () => answered);
  });
}

async function writeBody(outgoing: http.ClientRequest, body: Buffer | undefined, request: RawRequest, answered: () => boolean) {
  if (!body) return outgoing.end();
  if (!request.trickle) return outgoing.end(body);
  const { bytes, delayMs } = request.trickle;
  for (let at = 0; at < body.length && !answered() && !outgoing.destroyed; at += bytes) {
    if (request.abandonAfter !== undefined && at >= request.abandonAfter) return outgoing.destroy();
    outgoing.write(body.subarray(at, at + bytes));
    await sleep(delayMs);
  }
  if (!outgoing.destroyed) outgoing.end();
}

/**
 * Writes bytes as they are to a fresh connection and reads the one answer: for requests that
 * Node's HTTP client refuses to send (control bytes in the path, conflicting framing headers).
 */
export function sendBytes(port: number, bytes: Buffer | string, timeoutMs = 15_000): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    const timer = setTimeout(() => socket.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    socket.on('data', (data: Buffer) => (received = Buffer.concat([received, data])));
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      try {
        resolve(parseAnswer(received));
      } catch (error) {
        reject(error as Error);
      }
    });
    socket.write(bytes);
  });
}

function parseAnswer(bytes: Buffer): Answer {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`the connection closed without an HTTP answer: ${JSON.stringify(bytes.toString('latin1').slice(0, 200))}`);
  const [statusLine, ...lines] = bytes.toString('latin1', 0, end).split('\r\n');
  const headers: http.IncomingHttpHeaders = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? bytes.length - end - 4);
  return { status: Number(statusLine!.split(' ')[1]), headers, body: bytes.subarray(end + 4, end + 4 + length) };
}

/** A client that asked for something and stopped reading once the answer began. */
export interface StalledClient {
  status: number;
  close(): void;
}

/**
 * Sends a GET and stops reading as soon as the status line arrives: the answer's bytes pile up
 * in the socket's buffers until the gateway's writes wait, holding whatever the answer holds.
 */
export function stallAfterStatus(port: number, path: string, headers: Record<string, string> = {}): Promise<StalledClient> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const lines = Object.entries({ host: `127.0.0.1:${port}`, ...headers }).map(([name, value]) => `${name}: ${value}\r\n`);
    socket.once('data', (data: Buffer) => {
      socket.pause();
      resolve({ status: Number(data.toString('latin1').split(' ')[1]), close: () => socket.destroy() });
    });
    socket.once('error', reject);
    socket.write(`GET ${path} HTTP/1.1\r\n${lines.join('')}\r\n`);
  });
}
