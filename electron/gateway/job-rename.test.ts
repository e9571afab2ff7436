import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEvents } from '../testing/events';
import { startTestGateway, useTestGateways, waitForJob, type TestGateway } from '../testing/gateway';

interface JobView {
  job_id: string;
  title: string;
  status: string;
  error?: { code: string };
}

/** For the restart test. */
const gateways = useTestGateways();
/** One gateway for the tests that need no restart: each waits for the jobs it queues. */
let shared: TestGateway;
beforeAll(async () => {
  shared = await startTestGateway();
});
afterAll(() => shared.stop());

async function queue(gateway: TestGateway, text: string): Promise<string> {
  const response = await gateway.post('/api/v1/tts/synthesize', { text, mode: 'job' });
  expect(response.status).toBe(202);
  return ((await response.json()) as { job_id: string }).job_id;
}

const rename = (gateway: TestGateway, id: string, body: unknown) =>
  gateway.api(`/api/v1/tts/jobs/${id}`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

const getJob = async (gateway: TestGateway, id: string) => (await (await gateway.api(`/api/v1/tts/jobs/${id}`)).json()) as JobView;

describe('PATCH /jobs/{id}', () => {
  it('renames a job, trimmed; the title outlives a restart; a job never renamed shows the start of its text', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'orator-rename-'));
    const gateway = await gateways.start({ dataDir });
    const renamed = await queue(gateway, 'The storm came early that year. Nobody was ready.');
    const untouched = await queue(gateway, 'Chapter eight begins here. It is short.');
    await waitForJob(gateway, renamed);

    const answer = await rename(gateway, renamed, { title: '  Chapter 7: The Storm  ' });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as JobView).title).toBe('Chapter 7: The Storm');
    // 200 characters outside the Basic Multilingual Plane: 400 UTF-16 units, 200 code points
    const longest = '𝔸'.repeat(200);
    expect((await rename(gateway, untouched, { title: longest })).status).toBe(200);
    expect((await getJob(gateway, untouched)).title).toBe(longest);

    await gateways.close(gateway);
    const again = await gateways.start({ dataDir });
    expect((await getJob(again, renamed)).title).toBe('Chapter 7: The Storm');
    const list = (await (await again.api('/api/v1/tts/jobs')).json()) as { jobs: JobView[] };
    expect(list.jobs.find((j) => j.job_id === renamed)?.title).toBe('Chapter 7: The Storm');
    const fresh = await queue(again, 'A job that keeps the title of its text.');
    expect((await getJob(again, fresh)).title).toBe('A job that keeps the title of its text.');
  });

  it('refuses titles that are empty, too long, more than one line or not text, and unknown jobs', async () => {
    const gateway = shared;
    const id = await queue(gateway, 'A job to rename.');
    const refused: [unknown, RegExp][] = [
      [{ title: '' }, /at least one visible character/],
      [{ title: ' \t ' }, /at least one visible character/],
      [{ title: 'a'.repeat(201) }, /at most 200 characters; this one has 201/],
      [{ title: 'Part one\nPart two' }, /one line/],
      [{ title: 'Bell\u0007' }, /one line/],
      [{ title: 'Next\u0085line' }, /one line/],
      [{ title: 'Line\u2028separator' }, /one line/],
      [{ title: 42 }, /title/],
      [{}, /title/],
      [{ title: 'Fine', colour: 'red' }, /Unknown field "colour"/],
    ];
    for (const [body, message] of refused) {
      const answer = await rename(gateway, id, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      const { error } = (await answer.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe('invalid_request');
      expect(error.message).toMatch(message);
    }
    expect((await getJob(gateway, id)).title).toBe('A job to rename.');
    expect((await rename(gateway, '00000000-0000-4000-8000-000000000000', { title: 'x' })).status).toBe(404);
    const noBody = await gateway.api(`/api/v1/tts/jobs/${id}`, { method: 'PATCH' });
    expect(noBody.status).toBe(400);
    expect(((await noBody.json()) as { error: { code: string } }).error.code).toBe('invalid_request');
    expect((await waitForJob(gateway, id)).status).toBe('done');
  });

  it('tells event streams about a rename', async () => {
    const gateway = shared;
    const id = await queue(gateway, 'Renamed while someone listens.');
    await waitForJob(gateway, id);
    const stream = await gateway.api('/api/v1/tts/events');
    expect((await rename(gateway, id, { title: 'Heard by the stream' })).status).toBe(200);
    for await (const { event, data } of readEvents(stream)) {
      expect(event).toBe('renamed');
      expect(data).toMatchObject({ job_id: id, title: 'Heard by the stream' });
      break;
    }
  });
});

describe('POST /jobs/{id}/retry', () => {
  it('replaces the failed job: the new one keeps its title, the old one is gone', async () => {
    const gateway = shared;
    const listed = async () => ((await (await gateway.api('/api/v1/tts/jobs')).json()) as { jobs: JobView[] }).jobs.map((j) => j.job_id);
    const earlier = new Set(await listed());
    // held in the paused queue, so the cancel finds it unfinished
    gateway.pauseQueue();
    const id = await queue(gateway, 'Chapter three is cancelled, then retried.');
    expect((await rename(gateway, id, { title: 'Chapter 3' })).status).toBe(200);
    const cancelled = await gateway.api(`/api/v1/tts/jobs/${id}`, { method: 'DELETE' });
    expect(((await cancelled.json()) as JobView).error?.code).toBe('cancelled');
    gateway.resumeQueue();

    const retry = await gateway.api(`/api/v1/tts/jobs/${id}/retry`, { method: 'POST' });
    expect(retry.status).toBe(202);
    const { job_id } = (await retry.json()) as { job_id: string };
    expect(job_id).not.toBe(id);
    expect((await gateway.api(`/api/v1/tts/jobs/${id}`)).status).toBe(404);
    expect((await getJob(gateway, job_id)).title).toBe('Chapter 3');
    expect((await waitForJob(gateway, job_id)).status).toBe('done');
    // of the jobs this test made, only the new one is left
    expect((await listed()).filter((j) => !earlier.has(j))).toEqual([job_id]);
  });
});
