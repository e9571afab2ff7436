import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectSpeech } from '../testing/audio';
import { prose } from '../testing/prose';
import { readEvents } from '../testing/events';
import { startTestGateway, waitForJob, type TestGateway } from '../testing/gateway';
import { until } from '../testing/until';

interface JobView {
  job_id: string;
  status: string;
  progress: { done: number; total: number };
  error?: { code: string };
  audio?: { url: string; duration_s: number; bytes: number };
  expires_at?: string;
}

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway({ retentionHours: 24 });
});
afterAll(() => gateway.stop());

async function queue(text: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await gateway.api('/api/v1/tts/synthesize', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ text, mode: 'job' }),
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { job_id: string }).job_id;
}

const getJob = async (id: string) => (await (await gateway.api(`/api/v1/tts/jobs/${id}`)).json()) as JobView;
const database = () => new Database(path.join(gateway.dataDir, 'orator.db'), { readonly: true });

describe('a long job', () => {
  it('finishes 50,000 characters with audio as long as its chunks and pauses, progress moving up', async () => {
    const id = await queue(prose(50_000));
    const events = await gateway.api(`/api/v1/tts/jobs/${id}/events`);
    expect(events.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const seen: JobView[] = [];
    for await (const { event, data } of readEvents(events)) {
      seen.push(data as JobView);
      if (event === 'done' || event === 'failed') break;
    }
    const last = seen[seen.length - 1]!;
    expect(last.status).toBe('done');
    const done = seen.map((job) => job.progress.done);
    expect(done).toEqual([...done].sort((a, b) => a - b));
    expect(new Set(done).size).toBeGreaterThan(10);
    expect(last.progress.done).toBe(last.progress.total);

    const file = Buffer.from(await (await gateway.api(last.audio!.url)).arrayBuffer());
    const seconds = expectSpeech(file, { sampleRate: 22050 });
    const db = database();
    const chunks = db.prepare('SELECT samples, pause_ms FROM chunks WHERE job_id = ? ORDER BY idx').all(id) as {
      samples: number;
      pause_ms: number;
    }[];
    db.close();
    const expected = chunks.reduce(
      (sum, c, i) => sum + c.samples + (i < chunks.length - 1 ? Math.round((c.pause_ms / 1000) * 22050) : 0),
      0,
    );
    expect(Math.round(seconds * 22050)).toBe(expected);
    expect(last.audio!.duration_s).toBeCloseTo(seconds, 3);
    expect(last.audio!.bytes).toBe(file.length);

    const peaks = (await (await gateway.api(`/api/v1/tts/jobs/${id}/peaks`)).json()) as {
      peaks: number[];
      peaks_per_second: number;
      duration_s: number;
    };
    expect(peaks.duration_s).toBeCloseTo(seconds, 3);
    expect(peaks.peaks.length).toBe(Math.ceil(seconds * peaks.peaks_per_second - 1e-9));
    expect(peaks.peaks.reduce((a, b) => Math.max(a, b), 0)).toBeGreaterThan(0.1);
    expect(existsSync(path.join(gateway.dataDir, 'chunks', id))).toBe(false);
  });

  it('lets a second job run while the first does', async () => {
    const first = await queue(prose(40_000));
    const second = await queue(prose(3_000));
    expect((await waitForJob(gateway, second)).status).toBe('done');
    const firstNow = await getJob(first);
    expect(firstNow.status).toBe('running');
    expect(firstNow.progress.done).toBeGreaterThan(0);
    // what it has left is not what this test is about: cancelled, it leaves the threads to the next test
    expect((await gateway.api(`/api/v1/tts/jobs/${first}`, { method: 'DELETE' })).status).toBe(200);
  });

  it('answers inline requests while a long job runs', async () => {
    const inline = async () => {
      const started = performance.now();
      const response = await gateway.post('/api/v1/tts/synthesize', { text: prose(100) });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
      return performance.now() - started;
    };
    const idle: number[] = [];
    for (let i = 0; i < 5; i++) idle.push(await inline());
    const id = await queue(prose(60_000));
    const busy: number[] = [];
    for (let i = 0; i < 5; i++) busy.push(await inline());
    expect((await getJob(id)).status).toBe('running');
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    // generous: an inline request may wait for one job chunk (≤ 500 characters) to finish
    expect(median(busy)).toBeLessThan(median(idle) + 1500);
    await gateway.api(`/api/v1/tts/jobs/${id}`, { method: 'DELETE' });
  });
});

describe('cancel and delete', () => {
  it('cancels a running job, then deletes it and its files', async () => {
    const id = await queue(prose(40_000));
    await until(async () => ((await getJob(id)).progress.done >= 2 ? true : undefined), 120_000, 'two chunks done');
    const cancel = await gateway.api(`/api/v1/tts/jobs/${id}`, { method: 'DELETE' });
    expect(cancel.status).toBe(200);
    const cancelled = (await cancel.json()) as JobView;
    expect(cancelled).toMatchObject({ status: 'failed', error: { code: 'cancelled' } });
    const doneAtCancel = cancelled.progress.done;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await getJob(id)).progress.done).toBe(doneAtCancel);
    expect(existsSync(path.join(gateway.dataDir, 'chunks', id))).toBe(false);
    expect((await gateway.api(`/api/v1/tts/jobs/${id}/audio`)).status).toBe(409);

    expect((await gateway.api(`/api/v1/tts/jobs/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await gateway.api(`/api/v1/tts/jobs/${id}`)).status).toBe(404);
    expect((await gateway.api(`/api/v1/tts/jobs/${id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('deletes a finished job and frees its disk', async () => {
    const id = await queue(prose(1500));
    await waitForJob(gateway, id);
    const audio = path.join(gateway.dataDir, 'audio', `${id}.wav`);
    expect(existsSync(audio)).toBe(true);
    expect((await gateway.api(`/api/v1/tts/jobs/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect(existsSync(audio)).toBe(false);
    expect((await gateway.api(`/api/v1/tts/jobs/${id}/audio`)).status).toBe(404);
  });

  it('retries a failed job as a new job', async () => {
    // held in the paused queue, so the cancel finds it unfinished
    gateway.pauseQueue();
    const id = await queue(prose(600));
    const cancelled = await gateway.api(`/api/v1/tts/jobs/${id}`, { method: 'DELETE' });
    gateway.resumeQueue();
    expect(((await cancelled.json()) as JobView).error?.code).toBe('cancelled');
    const retry = await gateway.api(`/api/v1/tts/jobs/${id}/retry`, { method: 'POST' });
    expect(retry.status).toBe(202);
    const { job_id } = (await retry.json()) as { job_id: string };
    expect(job_id).not.toBe(id);
    const job = await waitForJob(gateway, job_id);
    expect(job.status).toBe('done');
    expect((await gateway.api(`/api/v1/tts/jobs/${job_id}/retry`, { method: 'POST' })).status).toBe(400);
  });
});

describe('job list', () => {
  it('pages newest first and filters by status', async () => {
    const ids = [await queue('One.'), await queue('Two.'), await queue('Three.')];
    for (const id of ids) await waitForJob(gateway, id);
    const first = (await (await gateway.api('/api/v1/tts/jobs?limit=2')).json()) as { jobs: JobView[]; next_cursor?: string };
    expect(first.jobs.map((j) => j.job_id)).toEqual([ids[2], ids[1]]);
    expect(first.next_cursor).toBeTruthy();
    const second = (await (await gateway.api(`/api/v1/tts/jobs?limit=2&cursor=${first.next_cursor}`)).json()) as { jobs: JobView[] };
    expect(second.jobs[0]!.job_id).toBe(ids[0]);
    const failed = (await (await gateway.api('/api/v1/tts/jobs?status=failed&limit=200')).json()) as { jobs: JobView[] };
    expect(failed.jobs.length).toBeGreaterThan(0);
    expect(failed.jobs.every((j) => j.status === 'failed')).toBe(true);
    const unknownStatus = (await (await gateway.api('/api/v1/tts/jobs?status=queued')).json()) as { error: { message: string } };
    expect(unknownStatus.error.message).toBe('"status" must be one of "running", "done", "failed".');
    for (const query of ['limit=0', 'limit=201', 'limit=x', 'status=queued', 'cursor=bogus']) {
      expect((await gateway.api(`/api/v1/tts/jobs?${query}`)).status).toBe(400);
    }
  });
});

describe('events of all jobs', () => {
  it('streams progress and done of every job', async () => {
    const stream = await gateway.api('/api/v1/tts/events');
    const a = await queue(prose(1200));
    const b = await queue(prose(1200));
    const done = new Set<string>();
    for await (const { event, data } of readEvents(stream)) {
      if (event === 'done') done.add((data as JobView).job_id);
      if (done.has(a) && done.has(b)) break;
    }
    expect([...done]).toEqual(expect.arrayContaining([a, b]));
  });
});

describe('retention', () => {
  it('expires the audio of every job after the retention period, whatever the client says it is', async () => {
    const script = await queue('Made by a script.');
    // the header the studio once sent to escape retention changes nothing
    const claimsStudio = await queue('Claims to be the studio.', { 'x-orator-client': 'studio' });
    for (const id of [script, claimsStudio]) {
      await waitForJob(gateway, id);
      const job = await getJob(id);
      expect(Date.parse(job.expires_at!) - Date.now()).toBeGreaterThan(23 * 3_600_000);
      expect(Date.parse(job.expires_at!) - Date.now()).toBeLessThanOrEqual(24 * 3_600_000);
    }

    const db = new Database(path.join(gateway.dataDir, 'orator.db'));
    db.prepare('UPDATE jobs SET expires_at = ? WHERE id = ?').run(new Date(Date.now() - 1000).toISOString(), claimsStudio);
    db.close();
    const expired = await gateway.api(`/api/v1/tts/jobs/${claimsStudio}/audio`, { headers: { 'x-orator-client': 'studio' } });
    expect(expired.status).toBe(410);
    expect(await expired.json()).toMatchObject({ error: { code: 'audio_expired' } });
    expect((await gateway.api(`/api/v1/tts/jobs/${script}/audio`)).status).toBe(200);
  });
});

describe('event streams and the key', () => {
  it('end when the key they were opened with is replaced', async () => {
    const stream = await gateway.api('/api/v1/tts/events');
    const reader = readEvents(stream);
    const regenerated = await gateway.api('/api/v1/tts/settings/api-key', {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.adminToken}` },
    });
    expect(regenerated.status).toBe(200);
    const { api_key } = (await regenerated.json()) as { api_key: string };
    // a job event would go to the old key's stream: it ends instead
    const job = await fetch(`${gateway.url}/api/v1/tts/synthesize`, {
      method: 'POST',
      headers: { authorization: `Bearer ${api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'After the new key.', mode: 'job' }),
    });
    expect(job.status).toBe(202);
    expect((await reader.next()).done).toBe(true);
  });
});
