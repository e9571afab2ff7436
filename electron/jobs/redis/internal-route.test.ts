import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTEMPT_HEADER, chunkUploadPath, WORKER_CHECK_PATH } from '../../contract';
import { decodeWav, encodeWav } from '../../audio/wav';
import { useTestGateways, waitForJob, type TestGateway } from '../../testing/gateway';
import { prose } from '../../testing/prose';
import { redisMissing, startRedis, type TestRedis } from '../../testing/redis';
import { advertise } from './hosts';
import { chunkQueueName, chunkTaskId, queueOptions } from './names';

const skipReason = redisMissing();
if (skipReason) console.log(`Skipped: ${skipReason}.`);

const VOICE = 'espeak-ng:en-us';

describe.skipIf(skipReason)('the gateway with a Redis queue, as a worker host sees it', () => {
  let redis: TestRedis;
  let client: Redis;
  beforeAll(async () => {
    redis = await startRedis();
    client = new Redis(redis.url);
  });
  afterAll(async () => {
    client?.disconnect();
    await redis?.stop();
  });
  const gateways = useTestGateways();

  const workerToken = (gateway: TestGateway) => readFileSync(path.join(gateway.dataDir, 'worker-token'), 'utf8').trim();
  const put = (gateway: TestGateway, jobId: string, idx: number, body: Buffer, headers: Record<string, string> = {}) =>
    fetch(gateway.url + chunkUploadPath(jobId, idx), {
      method: 'PUT',
      headers: { authorization: `Bearer ${workerToken(gateway)}`, 'content-type': 'audio/wav', [ATTEMPT_HEADER]: '1', ...headers },
      body: new Uint8Array(body),
    });
  /** A worker host's advert, with the gateway's own eSpeak NG voices. */
  const advertiseHost = (gateway: TestGateway) =>
    advertise(client, { id: 'host-1', name: 'host-1', engines: [gateway.registry.detail('espeak-ng')], seenAt: new Date().toISOString() });
  const submit = (gateway: TestGateway, text: string) => gateway.post('/api/v1/tts/synthesize', { text, mode: 'job', voice: VOICE });

  it('opens its internal routes to the worker token only, kept in a private file', async () => {
    const gateway = await gateways.start({ queue: redis.url });
    expect(statSync(path.join(gateway.dataDir, 'worker-token')).mode & 0o777).toBe(0o600);
    const check = (authorization?: string) =>
      fetch(gateway.url + WORKER_CHECK_PATH, { headers: authorization ? { authorization: `Bearer ${authorization}` } : {} });
    const adminToken = readFileSync(gateway.adminTokenFile, 'utf8').trim();
    for (const wrong of [undefined, gateway.apiKey, adminToken, 'not-the-token']) {
      const response = await check(wrong);
      expect(response.status).toBe(401);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
    }
    const right = await check(workerToken(gateway));
    expect(right.status).toBe(200);
    expect(await right.json()).toEqual({ instance: gateway.instance });
    // and the worker token opens no API route
    const api = await fetch(`${gateway.url}/api/v1/tts/jobs`, { headers: { authorization: `Bearer ${workerToken(gateway)}` } });
    expect(api.status).toBe(401);
  });

  it('refuses a job no worker host can speak, then queues one task per chunk', async () => {
    await client.flushdb();
    const gateway = await gateways.start({ queue: redis.url });
    const refused = await submit(gateway, prose(1200));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('engine_unavailable');

    await advertiseHost(gateway);
    // the refusal was read afresh; /engines may answer from its cache (at most 1 s old)
    type Listed = { hosts: string[]; voices: { id: string; hosts: string[] }[] };
    const listed = async () => (await (await gateway.api('/api/v1/tts/engines/espeak-ng')).json()) as Listed;
    await expect.poll(async () => (await listed()).hosts, { timeout: 3_000 }).toEqual(['host-1']);
    expect((await listed()).voices.find((v) => v.id === VOICE)?.hosts).toEqual(['host-1']);

    const accepted = await submit(gateway, prose(1200));
    expect(accepted.status).toBe(202);
    const { job_id: jobId } = (await accepted.json()) as { job_id: string };
    const queue = new Queue(chunkQueueName(VOICE), queueOptions(redis.url));
    try {
      await expect
        .poll(async () => (await queue.getWaiting()).map((task) => task.id).sort())
        .toEqual([0, 1, 2].map((idx) => chunkTaskId(jobId, idx)));
      expect(await client.smembers('orator:voices:wanted')).toEqual([VOICE]);
    } finally {
      await queue.close();
    }
  });

  it('saves each chunk once, keeps its tasks over a restart, and assembles the job', async () => {
    await client.flushdb();
    let gateway = await gateways.start({ queue: redis.url });
    await advertiseHost(gateway);
    const { job_id: jobId } = (await (await submit(gateway, prose(1200))).json()) as { job_id: string };
    const speak = async (text: string) =>
      encodeWav(await gateway.registry.resolve({ voice: VOICE }).synthesize({ text, rate: 1, pitch: 1, volume: 1 }, { lane: 'batch' }));
    const chunk0 = await speak('The first chunk.');

    expect((await put(gateway, 'no-such-job', 0, chunk0)).status).toBe(410);
    expect((await put(gateway, jobId, 0, Buffer.from('not a wav'))).status).toBe(400);
    expect((await put(gateway, jobId, 0, chunk0, { 'content-type': 'application/octet-stream' })).status).toBe(415);

    const first = await put(gateway, jobId, 0, chunk0, { [ATTEMPT_HEADER]: '2' });
    expect(await first.json()).toEqual({ status: 'saved' });
    const again = await put(gateway, jobId, 0, await speak('A different copy.'));
    expect(await again.json()).toEqual({ status: 'duplicate' });

    // a restart on the same data folder and Redis adds no task twice
    const dataDir = gateway.dataDir;
    await gateways.close(gateway);
    gateway = await gateways.start({ queue: redis.url, dataDir });
    const queue = new Queue(chunkQueueName(VOICE), queueOptions(redis.url));
    try {
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect((await queue.getWaiting()).map((task) => task.id).sort()).toEqual([0, 1, 2].map((idx) => chunkTaskId(jobId, idx)));
    } finally {
      await queue.close();
    }
    const rest = [await speak('The second chunk.'), await speak('The third and last chunk.')];
    for (const [i, wav] of rest.entries()) expect(await (await put(gateway, jobId, i + 1, wav)).json()).toEqual({ status: 'saved' });

    expect((await waitForJob(gateway, jobId)).status).toBe('done');
    const audio = decodeWav(Buffer.from(await (await gateway.api(`/api/v1/tts/jobs/${jobId}/audio`)).arrayBuffer()));
    const chunks = [chunk0, ...rest].map(decodeWav);
    const spoken = chunks.reduce((sum, pcm) => sum + pcm.samples.length, 0);
    // the first copy of chunk 0 is the one kept, with the pauses after the first two chunks
    expect(audio.samples.length).toBeGreaterThan(spoken);
    expect(Array.from(audio.samples.subarray(0, chunks[0]!.samples.length))).toEqual(Array.from(chunks[0]!.samples));
    expect((await put(gateway, jobId, 1, rest[0]!)).status).toBe(410);
  });

  it('withdraws the waiting tasks of a cancelled job', async () => {
    await client.flushdb();
    const gateway = await gateways.start({ queue: redis.url });
    await advertiseHost(gateway);
    const { job_id: jobId } = (await (await submit(gateway, prose(1200))).json()) as { job_id: string };
    const queue = new Queue(chunkQueueName(VOICE), queueOptions(redis.url));
    try {
      await expect.poll(async () => (await queue.getWaiting()).length).toBe(3);
      expect((await gateway.api(`/api/v1/tts/jobs/${jobId}`, { method: 'DELETE' })).status).toBe(200);
      await expect.poll(async () => (await queue.getWaiting()).length).toBe(0);
    } finally {
      await queue.close();
    }
  });
});
