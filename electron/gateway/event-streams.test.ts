import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEvents } from '../testing/events';
import { startTestGateway, waitForJob, type TestGateway } from '../testing/gateway';
import { SLOT_LIMITS } from './slots';

const MAX_STREAMS_PER_KEY = SLOT_LIMITS.eventStreams.perKey;

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.stop());

interface OpenStream {
  response: Response;
  close(): void;
}

async function openStream(route = '/api/v1/tts/events'): Promise<OpenStream> {
  const controller = new AbortController();
  const response = await gateway.api(route, { signal: controller.signal });
  return { response, close: () => controller.abort() };
}

describe('event streams per key', () => {
  it(`are capped at ${MAX_STREAMS_PER_KEY}: one more answers 429 too_many_streams, and a closed stream frees its slot`, async () => {
    const response = await gateway.post('/api/v1/tts/synthesize', { text: 'Counted streams.', mode: 'job' });
    const { job_id } = (await response.json()) as { job_id: string };
    expect((await waitForJob(gateway, job_id)).status).toBe('done');
    // a stream that ends by itself (its job is finished) frees its slot at once
    for (let i = 0; i < MAX_STREAMS_PER_KEY * 2; i++) {
      const finished = await gateway.api(`/api/v1/tts/jobs/${job_id}/events`);
      expect(finished.status).toBe(200);
      const events = [];
      for await (const { event } of readEvents(finished)) events.push(event);
      expect(events).toEqual(['done']);
    }

    const open: OpenStream[] = [];
    for (let i = 0; i < MAX_STREAMS_PER_KEY; i++) {
      const stream = await openStream();
      expect(stream.response.status).toBe(200);
      expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      open.push(stream);
    }
    const refused = await gateway.api('/api/v1/tts/events');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ error: { code: 'too_many_streams' } });
    // a job's own stream counts too; the rest of the API does not
    expect((await gateway.api(`/api/v1/tts/jobs/${job_id}/events`)).status).toBe(429);
    expect((await gateway.api(`/api/v1/tts/jobs/${job_id}`)).status).toBe(200);

    // the streams that are open still carry events
    const reader = readEvents(open[0]!.response);
    await gateway.post('/api/v1/tts/synthesize', { text: 'Heard by an open stream.', mode: 'job' });
    expect((await reader.next()).value).toMatchObject({ event: 'added' });
    expect((await reader.next()).value).toMatchObject({ event: 'progress' });

    // a client that leaves frees its slot
    open.pop()!.close();
    let next: Response;
    do {
      await new Promise((resolve) => setTimeout(resolve, 20));
      next = await gateway.api('/api/v1/tts/events');
    } while (next.status === 429);
    expect(next.status).toBe(200);
    await next.body!.cancel();
    for (const stream of open) stream.close();
  });
});

/** Whether the key can still open all its streams: every slot was given back. */
async function allSlotsFree(): Promise<boolean> {
  const open: OpenStream[] = [];
  try {
    for (let i = 0; i < MAX_STREAMS_PER_KEY; i++) {
      const stream = await openStream();
      open.push(stream);
      if (stream.response.status !== 200) return false;
    }
    return true;
  } finally {
    for (const stream of open) stream.close();
  }
}

/** Waits until the gateway has given back every slot, or says it never did (a freed slot is released as the socket closes). */
async function expectSlotsFreed(): Promise<void> {
  await expect.poll(allSlotsFree, { timeout: 5000, interval: 100 }).toBe(true);
}

/** A raw request whose client goes away without reading a byte of the answer. */
function abandonedRequest(method: string, route: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect(gateway.port, '127.0.0.1', () => {
      socket.end(`${method} ${route} HTTP/1.1\r\nHost: 127.0.0.1:${gateway.port}\r\nAuthorization: Bearer ${gateway.apiKey}\r\n\r\n`);
      socket.destroy();
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve());
  });
}

describe('no way of opening an event stream keeps its slot', () => {
  it(`HEAD answers the headers and frees its slot: ${MAX_STREAMS_PER_KEY * 2} HEADs leave every slot free`, async () => {
    const head = () => gateway.api('/api/v1/tts/events', { method: 'HEAD' });
    for (let i = 0; i < MAX_STREAMS_PER_KEY * 2; i++) {
      // a stream of the test before may still be closing: a 429 that lasts is a slot kept
      await expect.poll(async () => (await head()).status, { timeout: 5000, interval: 100 }).toBe(200);
    }
    expect((await head()).headers.get('content-type')).toMatch(/^text\/event-stream/);
    await expectSlotsFreed();
  });

  it('a client that leaves before the first byte frees its slot, on both streams', async () => {
    const response = await gateway.post('/api/v1/tts/synthesize', { text: 'A job for abandoned streams.', mode: 'job' });
    const { job_id } = (await response.json()) as { job_id: string };
    for (let i = 0; i < MAX_STREAMS_PER_KEY; i++) {
      await Promise.all([abandonedRequest('GET', '/api/v1/tts/events'), abandonedRequest('GET', `/api/v1/tts/jobs/${job_id}/events`)]);
    }
    await expectSlotsFreed();
  });
});
