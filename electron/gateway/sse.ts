import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OutgoingHttpHeaders, Server } from 'node:http';

const HEARTBEAT_MS = 15_000;

/** One event of a stream: its name, its data (sent as JSON), and whether the stream ends after it. */
export interface SseEvent {
  type: string;
  data: unknown;
  last?: boolean;
}

export interface EventFeed {
  /** Sent at once, before live events. */
  first: SseEvent[];
  /** Calls `listener` with every live event; returns the unsubscribe function. */
  subscribe(listener: (event: SseEvent) => void): () => void;
}

export interface EventStream extends EventFeed {
  /** Whether the key the stream was opened with still works; checked before every write. */
  authorized(): boolean;
  /** Called once when the stream ends, however it ends. */
  onEnd(): void;
}

/** The open streams of each server, so that a shutdown can end them: they never end by themselves. */
const openStreams = new WeakMap<Server, Set<() => void>>();

/** Ends every event stream of `server` (at shutdown, before in-flight requests are waited for). */
export function endEventStreams(server: Server): void {
  for (const end of openStreams.get(server) ?? []) end();
}

/**
 * Turns a reply into a Server-Sent Events stream (of jobs, and of voice installs). It ends after an event marked last,
 * when the client goes away, when its key is replaced, or when the gateway closes.
 */
export function streamEvents(request: FastifyRequest, reply: FastifyReply, stream: EventStream): void {
  reply.hijack();
  const raw = reply.raw;
  // Headers set earlier by hooks (CORS for the desktop window) are kept.
  raw.writeHead(200, {
    ...(reply.getHeaders() as OutgoingHttpHeaders),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  // HEAD has no body: Node would hold the headers back until the stream ends, which may be never
  if (request.method === 'HEAD') return void raw.end();
  let unsubscribe = () => {};
  const server = request.server.server;
  if (!openStreams.has(server)) openStreams.set(server, new Set());
  const end = () => {
    clearInterval(heartbeat);
    unsubscribe();
    stream.onEnd();
    openStreams.get(server)!.delete(end);
    raw.end();
  };
  openStreams.get(server)!.add(end);
  const write = (text: string) => {
    if (stream.authorized()) raw.write(text);
    else end();
  };
  const heartbeat = setInterval(() => write(': keep-alive\n\n'), HEARTBEAT_MS);
  const send = (event: SseEvent) => {
    write(`event: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`);
    if (event.last) end();
  };
  request.raw.on('close', end);
  write('retry: 2000\n\n');
  for (const event of stream.first) {
    send(event);
    if (raw.writableEnded) return;
  }
  unsubscribe = stream.subscribe(send);
}
