import Database from 'better-sqlite3';
import { mkdtemp, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectSpeech } from '../testing/audio';
import { prose } from '../testing/prose';
import { useTestGateways, waitForJob, type TestGateway } from '../testing/gateway';
import { CHUNK_RETRY } from './chunk-retry';

const gateways = useTestGateways();
const start = gateways.start;

async function queue(gateway: TestGateway, body: Record<string, unknown>) {
  return gateway.post('/api/v1/tts/synthesize', { mode: 'job', ...body });
}

describe('queue limit', () => {
  it('answers 429 queue_full with Retry-After when the queue is full, and accepts again once it drains', async () => {
    const gateway = await start({ maxQueuedJobs: 2 });
    gateway.pauseQueue();
    const first = await queue(gateway, { text: 'One.' });
    const second = await queue(gateway, { text: 'Two.' });
    expect([first.status, second.status]).toEqual([202, 202]);
    const third = await queue(gateway, { text: 'Three.' });
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await third.json()).toMatchObject({ error: { code: 'queue_full' } });
    // inline requests are not jobs: they still work
    expect((await gateway.post('/api/v1/tts/synthesize', { text: 'Inline still works.' })).status).toBe(200);

    gateway.resumeQueue();
    for (const response of [first, second]) {
      const { job_id } = (await response.json()) as { job_id: string };
      expect((await waitForJob(gateway, job_id)).status).toBe('done');
    }
    expect((await queue(gateway, { text: 'Four.' })).status).toBe(202);
  });
});

describe('queued characters limit', () => {
  it('answers 429 queue_full when unfinished jobs would hold too many characters, 413 for a job that never fits', async () => {
    const gateway = await start({ maxQueuedChars: 300 });
    gateway.pauseQueue();
    const first = await queue(gateway, { text: prose(200) });
    expect(first.status).toBe(202);
    const over = await queue(gateway, { text: prose(150) });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    const overBody = (await over.json()) as { error: { code: string; message: string } };
    expect(overBody.error.code).toBe('queue_full');
    expect(overBody.error.message).toContain('300');
    const never = await queue(gateway, { text: prose(301) });
    expect(never.status).toBe(413);
    expect(await never.json()).toMatchObject({ error: { code: 'text_too_long' } });
    // what still fits is taken
    const fits = await queue(gateway, { text: prose(100) });
    expect(fits.status).toBe(202);

    gateway.resumeQueue();
    for (const response of [first, fits]) {
      const { job_id } = (await response.json()) as { job_id: string };
      expect((await waitForJob(gateway, job_id)).status).toBe('done');
    }
    expect((await queue(gateway, { text: prose(150) })).status).toBe(202);
  });
});

describe('settings over their bounds', () => {
  it('are ignored at start (a hand-edited settings.json cannot lift the body limit)', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'orator-test-'));
    await writeFile(path.join(dataDir, 'settings.json'), JSON.stringify({ max_text_length: 1_000_000_000, inline_threshold: 5 }));
    const gateway = await start({ dataDir });
    const tooLong = await queue(gateway, { text: 'a '.repeat(1_000_001) });
    expect(tooLong.status).toBe(413);
    expect(await tooLong.json()).toMatchObject({ error: { code: 'text_too_long', message: expect.stringContaining('2000000') } });
    // the setting within its bounds still applies
    expect((await gateway.post('/api/v1/tts/synthesize', { text: 'Longer than five.' })).status).toBe(202);
  });
});

describe('failure isolation', () => {
  it('fails a job whose disk is full with disk_full and keeps serving', async () => {
    const gateway = await start();
    gateway.pauseQueue();
    const response = await queue(gateway, { text: prose(3000) });
    const { job_id } = (await response.json()) as { job_id: string };
    // the job's WAV goes to /dev/full, which answers every write with ENOSPC
    await symlink('/dev/full', path.join(gateway.dataDir, 'audio', `${job_id}.wav.partial`));
    gateway.resumeQueue();

    const job = (await waitForJob(gateway, job_id)) as { status: string; error?: { code: string; message: string } };
    expect(job.status).toBe('failed');
    expect(job.error).toMatchObject({ code: 'disk_full' });
    const after = await gateway.post('/api/v1/tts/synthesize', { text: 'Still here.', mode: 'job' });
    const next = (await after.json()) as { job_id: string };
    expect((await waitForJob(gateway, next.job_id)).status).toBe('done');
    expectSpeech(Buffer.from(await (await gateway.api(`/api/v1/tts/jobs/${next.job_id}/audio`)).arrayBuffer()));
  });

  it('fails a resumed job whose engine is gone, with a clear error', async () => {
    const first = await start();
    first.pauseQueue();
    const response = await queue(first, { text: 'Spoken by an engine that will be uninstalled.' });
    const { job_id } = (await response.json()) as { job_id: string };
    await gateways.close(first);
    // as if the job had been queued with an engine that is no longer installed
    const db = new Database(path.join(first.dataDir, 'orator.db'));
    db.prepare("UPDATE jobs SET engine = 'retired', voice = 'retired:en' WHERE id = ?").run(job_id);
    db.close();

    const second = await start({ dataDir: first.dataDir });
    const job = (await waitForJob(second, job_id)) as { status: string; error?: { code: string; message: string } };
    expect(job.status).toBe('failed');
    expect(job.error!.code).toBe('engine_unavailable');
    expect(job.error!.message).toContain('retired');
    expect((await second.post('/api/v1/tts/synthesize', { text: 'The gateway is fine.' })).status).toBe(200);
  });

  it('fails a job with the engine’s own message after one retry when the engine errors', async () => {
    const gateway = await start();
    gateway.pauseQueue();
    const response = await queue(gateway, { text: 'A voice the engine cannot load.', voice: 'espeak-ng-system:en-us' });
    const { job_id } = (await response.json()) as { job_id: string };
    // the engine itself is asked for a voice it does not have
    const db = new Database(path.join(gateway.dataDir, 'orator.db'));
    db.prepare("UPDATE jobs SET local_voice = 'zz-no-such-voice' WHERE id = ?").run(job_id);
    gateway.resumeQueue();
    const job = (await waitForJob(gateway, job_id)) as { status: string; error?: { code: string; message: string } };
    expect(job.status).toBe('failed');
    expect(job.error!.code).toBe('engine_error');
    expect(job.error!.message).toMatch(/voice does not exist/);
    expect((db.prepare('SELECT attempts FROM chunks WHERE job_id = ?').get(job_id) as { attempts: number }).attempts).toBe(
      CHUNK_RETRY.attempts,
    );
    db.close();
    expect((await gateway.post('/api/v1/tts/synthesize', { text: 'The gateway is fine.' })).status).toBe(200);
  });
});
