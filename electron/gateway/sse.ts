import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OutgoingHttpHeaders, Server, ServerResponse } from 'node:http';

const HEARTBEAT_MS = 15_000;

/** One event of a stream: its name, its data (sent as JSON), its id if it has one, and whether the stream ends after it. */
export interface SseEvent {
  type: string;
  data: unknown;
  id?: number;
  last?: boolean;
}

export interface EventFeed {
  /**
   * What is sent before live events, a page at a time, each page read when it is asked for; the
   * stream subscribes in the same turn as it finds the backlog ended, so no change falls between.
   */
  backlog: Iterable<SseEvent[]>;
  /** Calls `listener` with every live event; returns the unsubscribe function. */
  subscribe(listener: (event: SseEvent) => void): () => void;
}

export interface EventStream extends EventFeed {
  /** Whether the key the stream was opened with still works; checked before every write. */
  authorized(): boolean;
  /** Called once when the stream ends, however it ends: HEAD, the client gone (even before the first byte), an error. */
  onEnd(): void;
}

/** The open streams of each server, so that a shutdown can end them: they never end by themselves. */
const openStreams = new WeakMap<Server, Set<() => void>>();

/** Ends every event stream of `server` (at shutdown, before in-flight requests are waited for). */
export function endEventStreams(server: Server): void {
  for (const end of openStreams.get(server) ?? []) end();
}

/**
 * Turns a reply into a Server-Sent Events stream (of jobs, each with its revision as the event's
 * id, and of voice installs): first the feed's backlog, then live events. It ends after an event
 * marked last, when the client goes away, when its key is replaced, or when the gateway closes.
 */
export function streamEvents(request: FastifyRequest, reply: FastifyReply, stream: EventStream): void {
  reply.hijack();
  const raw = reply.raw;
  const server = request.server.server;
  const streams = openStreams.get(server) ?? new Set();
  openStreams.set(server, streams);
  let heartbeat: NodeJS.Timeout | undefined;
  let unsubscribe = () => {};
  let ended = false;
  // the one way out, whatever ends the stream: it gives back what the stream holds, once
  const end = () => {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    unsubscribe();
    streams.delete(end);
    stream.onEnd();
    raw.end();
  };
  // every response closes once, whether it ended or its client left; one whose client left before
  // this handler ran has closed already
  raw.once('close', end);
  streams.add(end);
  if (raw.destroyed || request.raw.destroyed) return end();
  try {
    // Headers set earlier by hooks (CORS for the desktop window) are kept.
    raw.writeHead(200, {
      ...(reply.getHeaders() as OutgoingHttpHeaders),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    // HEAD has no body: the headers go, the stream ends
    if (request.method === 'HEAD') return end();
    const write = (text: string) => {
      if (stream.authorized()) raw.write(text);
      else end();
    };
    heartbeat = setInterval(() => write(': keep-alive\n\n'), HEARTBEAT_MS);
    const send = (event: SseEvent) => {
      const id = event.id === undefined ? '' : `id: ${event.id}\n`;
      write(`${id}event: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`);
      if (event.last) end();
    };
    write('retry: 2000\n\n');
    // the backlog, each page read once the client has taken the last, then live events, subscribed
    // to in the turn the backlog is found ended
    const follow = async () => {
      for (const page of stream.backlog) {
        for (const event of page) {
          send(event);
          if (ended) return;
        }
        if (raw.writableNeedDrain) await drained(raw);
        if (ended) return;
      }
      unsubscribe = stream.subscribe(send);
    };
    follow().catch((error: unknown) => fail(error));
  } catch (error) {
    fail(error);
  }

  function fail(error: unknown) {
    request.log.error(error, 'event stream failed');
    end();
  }
}

/** Resolves when the response's buffer has room again or it closed. */
function drained(raw: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      raw.off('drain', done);
      raw.off('close', done);
      resolve();
    };
    raw.on('drain', done);
    raw.on('close', done);
  });
}
