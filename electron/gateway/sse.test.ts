/** The event stream writer over real HTTP, on a bare Fastify app: every way a stream ends gives back what it holds, once. */
import Fastify, { type FastifyInstance } from 'fastify';
import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { streamEvents, type SseEvent } from './sse';

let app: FastifyInstance;
afterEach(() => app.close());

/** A feed with nothing to say: these tests are about how a stream ends. */
const quiet = { backlog: [] as SseEvent[][], subscribe: () => () => {}, authorized: () => true };

it('ends a stream whose client left before the handler ran, once', async () => {
  let ends = 0;
  let handled!: () => void;
  const handlerRan = new Promise<void>((resolve) => (handled = resolve));
  app = Fastify();
  app.get('/events', {
    // a hook that takes its time (as the auth hook may): the client is gone when the handler runs
    preHandler: async (request) => {
      if (!request.raw.socket.destroyed) await once(request.raw.socket, 'close');
    },
    handler: async (request, reply) => {
      streamEvents(request, reply, { ...quiet, onEnd: () => ends++ });
      handled();
    },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const socket = net.connect(port, '127.0.0.1', () => {
    socket.write(`GET /events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    setTimeout(() => socket.destroy(), 50);
  });
  socket.on('error', () => {});
  await handlerRan;
  await expect.poll(() => ends, { timeout: 2000 }).toBe(1);
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(ends).toBe(1);
});
