import { randomBytes } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/gateway';
import { REQUEST_LOG, type RequestLogLine } from './request-log';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.stop());

const logFile = () => path.join(gateway.dataDir, REQUEST_LOG.dir, REQUEST_LOG.file);
async function lines(): Promise<RequestLogLine[]> {
  return (await readFile(logFile(), 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as RequestLogLine);
}
/** The line is written when the answer is over, which a client may see a moment before. */
async function settled(count: number): Promise<RequestLogLine[]> {
  for (let i = 0; i < 50; i++) {
    const found = await lines().catch(() => []);
    if (found.length >= count) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return lines();
}

it('writes one JSON line per request: time, method, route pattern, status, duration and bytes, never text, query or key', async () => {
  const secretText = `Confidential words ${randomBytes(8).toString('hex')}.`;
  const jobText = `${secretText} `.repeat(60); // over the inline threshold: a job
  const inline = await gateway.post('/api/v1/tts/synthesize', { text: secretText });
  expect(inline.status).toBe(200);
  const audioBytes = (await inline.arrayBuffer()).byteLength;
  const queued = await gateway.post('/api/v1/tts/synthesize', { text: jobText });
  const { job_id } = (await queued.json()) as { job_id: string };
  await gateway.api(`/api/v1/tts/jobs/${job_id}?secret=${secretText.replaceAll(' ', '+')}`);
  await fetch(`${gateway.url}/api/v1/tts/engines`, { headers: { authorization: 'Bearer wrong-key-attempt' } });
  await fetch(`${gateway.url}/api/v1/tts/nowhere`);

  const logged = await settled(5);
  expect(logged.map(({ method, route, status }) => [method, route, status])).toEqual([
    ['POST', '/api/v1/tts/synthesize', 200],
    ['POST', '/api/v1/tts/synthesize', 202],
    ['GET', '/api/v1/tts/jobs/:id', 200],
    ['GET', '/api/v1/tts/engines', 401],
    ['GET', null, 401],
  ]);
  for (const line of logged) {
    expect(Object.keys(line).sort()).toEqual(['bytes', 'method', 'ms', 'route', 'status', 'time']);
    expect(Date.parse(line.time)).toBeGreaterThan(Date.now() - 60_000);
    expect(line.ms).toBeGreaterThanOrEqual(0);
  }
  expect(logged[0]!.bytes).toBeGreaterThan(audioBytes); // the audio and its headers
  const raw = await readFile(logFile(), 'utf8');
  for (const secret of [secretText, 'Confidential', job_id, gateway.apiKey, 'wrong-key-attempt', 'secret=', 'Bearer']) {
    expect(raw).not.toContain(secret);
  }
  expect((await stat(logFile())).mode & 0o777).toBe(0o600);
});

it('logs an event stream when it ends, with its duration', async () => {
  const before = (await lines()).length;
  const controller = new AbortController();
  const stream = await gateway.api('/api/v1/tts/events', { signal: controller.signal });
  expect(stream.status).toBe(200);
  await new Promise((resolve) => setTimeout(resolve, 200));
  controller.abort();
  const logged = await settled(before + 1);
  const line = logged.at(-1)!;
  expect(line).toMatchObject({ method: 'GET', route: '/api/v1/tts/events', status: 200 });
  expect(line.ms).toBeGreaterThanOrEqual(150);
});
