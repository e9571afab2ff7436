import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job, JobList } from '../contract';
import { expectSpeech } from '../testing/audio';
import { startTestGateway, waitForJob, type TestGateway } from '../testing/gateway';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.stop());

async function finishedJob(text: string): Promise<Job> {
  const response = await gateway.post('/api/v1/tts/synthesize', { text, mode: 'job' });
  const { job_id } = (await response.json()) as { job_id: string };
  expect((await waitForJob(gateway, job_id)).status).toBe('done');
  return (await (await gateway.api(`/api/v1/tts/jobs/${job_id}`)).json()) as Job;
}

const audioDir = () => path.join(gateway.dataDir, 'audio');

describe('a done job whose audio file was removed', () => {
  it('answers 410 audio_missing for its audio and peaks, and says so in its view', async () => {
    const job = await finishedJob('A file someone will delete.');
    await rm(path.join(audioDir(), `${job.job_id}.wav`));

    for (const route of ['audio', 'peaks']) {
      const response = await gateway.api(`/api/v1/tts/jobs/${job.job_id}/${route}`);
      expect(response.status).toBe(410);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.headers.get('content-disposition')).toBeNull();
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('audio_missing');
      expect(body.error.message).not.toMatch(/ENOENT|\/audio\//);
    }

    const view = (await (await gateway.api(`/api/v1/tts/jobs/${job.job_id}`)).json()) as Job;
    expect(view.status).toBe('done');
    expect(view.audio).toBeUndefined();
    expect(view.audio_unavailable).toMatchObject({ code: 'audio_missing', message: expect.stringContaining('removed outside Orator') });
    const list = (await (await gateway.api('/api/v1/tts/jobs?status=done&limit=200')).json()) as JobList;
    expect(list.jobs.find((j) => j.job_id === job.job_id)?.audio_unavailable?.code).toBe('audio_missing');

    expect((await gateway.api(`/api/v1/tts/jobs/${job.job_id}`, { method: 'DELETE' })).status).toBe(204);
  });

  it('is seen by the list before anyone asks for the audio', async () => {
    const job = await finishedJob('Removed before it was ever played.');
    await rm(path.join(audioDir(), `${job.job_id}.wav`));
    const list = (await (await gateway.api('/api/v1/tts/jobs?limit=200')).json()) as JobList;
    const listed = list.jobs.find((j) => j.job_id === job.job_id)!;
    expect(listed.audio).toBeUndefined();
    expect(listed.audio_unavailable?.code).toBe('audio_missing');
  });

  it('answers 410 too when the file turns out not to be a file when it is sent, never 404 or 405', async () => {
    const job = await finishedJob('Replaced by a folder.');
    const wav = path.join(audioDir(), `${job.job_id}.wav`);
    await rm(wav);
    await mkdir(wav);
    const response = await gateway.api(`/api/v1/tts/jobs/${job.job_id}/audio`);
    expect(response.status).toBe(410);
    expect(await response.json()).toMatchObject({ error: { code: 'audio_missing' } });
    await rm(wav, { recursive: true });

    // the gateway carries on
    const next = await finishedJob('Still serving.');
    expectSpeech(Buffer.from(await (await gateway.api(next.audio!.url)).arrayBuffer()));
  });
});
