import type { FastifyReply, FastifyRequest } from 'fastify';
import type { JobEvent } from '../jobs/runner';
import { toJobView } from '../jobs/view';

const HEARTBEAT_MS = 15_000;

/**
 * Turns a reply into a Server-Sent Events stream of job events. `first` events are sent at
 * once; the stream ends when `isLast` says so, when the client goes away, or when the gateway closes.
 */
export function streamJobEvents(
  request: FastifyRequest,
  reply: FastifyReply,
  subscribe: (listener: (event: JobEvent) => void) => () => void,
  first: JobEvent[] = [],
  isLast: (event: JobEvent) => boolean = () => false,
): void {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  raw.write('retry: 2000\n\n');
  let unsubscribe = () => {};
  const heartbeat = setInterval(() => raw.write(': keep-alive\n\n'), HEARTBEAT_MS);
  const end = () => {
    clearInterval(heartbeat);
    unsubscribe();
    raw.end();
  };
  const send = (event: JobEvent) => {
    raw.write(`event: ${event.type}\ndata: ${JSON.stringify(toJobView(event.job))}\n\n`);
    if (isLast(event)) end();
  };
  request.raw.on('close', end);
  for (const event of first) {
    send(event);
    if (raw.writableEnded) return;
  }
  unsubscribe = subscribe(send);
}
