import { existsSync } from 'node:fs';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job, JobList, JobPeaks } from '../contract';
import { expectSpeech } from '../testing/audio';
import { prose } from '../testing/prose';
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
const peaksFile = (id: string) => path.join(audioDir(), `${id}.peaks.v3.bin`);
const getPeaks = (id: string, headers: Record<string, string> = {}) => gateway.api(`/api/v1/tts/jobs/${id}/peaks`, { headers });

describe('peaks', () => {
  it('are served from the file written when the job finished, the same bytes every time', async () => {
    const job = await finishedJob(prose(1500));
    const file = peaksFile(job.job_id);
    const written = (await stat(file)).mtimeMs;

    const first = await getPeaks(job.job_id);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await first.text();
    const peaks = JSON.parse(body) as JobPeaks;
    expect(Object.keys(peaks)).toEqual(['duration_s', 'sample_rate', 'peaks_per_second', 'start_s', 'peaks']);
    expect(peaks.duration_s).toBeCloseTo(job.audio!.duration_s, 3);
    expect(peaks.peaks.length).toBe(Math.ceil(peaks.duration_s * peaks.peaks_per_second - 1e-9));
    expect(Math.max(...peaks.peaks)).toBeGreaterThan(0.1);

    const second = await getPeaks(job.job_id);
    expect(await second.text()).toBe(body);
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
    // a client that has them is told they have not changed (fetch would add no-cache without a Cache-Control)
    const cached = await getPeaks(job.job_id, { 'if-none-match': first.headers.get('etag')!, 'cache-control': 'max-age=0' });
    expect(cached.status).toBe(304);
    expect((await stat(file)).mtimeMs).toBe(written);
  });

  it('at a coarser resolution and over a span: the max of the full-resolution peaks of each window', async () => {
    const job = await finishedJob(prose(3000));
    const full = (await (await getPeaks(job.job_id)).json()) as JobPeaks;
    const coarse = (await (await gateway.api(`/api/v1/tts/jobs/${job.job_id}/peaks?columns=20`)).json()) as JobPeaks;
    // the coarsest level with at least 20 peaks: the next one (4× coarser) would have fewer
    const ratio = full.peaks_per_second / coarse.peaks_per_second;
    expect(ratio).toBeGreaterThanOrEqual(4);
    expect(coarse.peaks.length).toBeGreaterThanOrEqual(20);
    expect(coarse.peaks.length).toBeLessThan(20 * 4 + 1);
    const windowMax = (from: number) => Math.max(...full.peaks.slice(from * ratio, (from + 1) * ratio));
    expect(coarse.peaks).toEqual(coarse.peaks.map((_, i) => windowMax(i)));

    const span = (await (await gateway.api(`/api/v1/tts/jobs/${job.job_id}/peaks?start_s=2&end_s=3`)).json()) as JobPeaks;
    expect(span).toMatchObject({ start_s: 2, peaks_per_second: full.peaks_per_second });
    expect(span.peaks).toEqual(full.peaks.slice(2 * full.peaks_per_second, 3 * full.peaks_per_second));
    const bad = await gateway.api(`/api/v1/tts/jobs/${job.job_id}/peaks?columns=0`);
    expect(bad.status).toBe(400);
  });

  it('of a job without a peaks file (made by an older version) are computed from its WAV once, at the first request', async () => {
    const job = await finishedJob(prose(1500));
    const original = await (await getPeaks(job.job_id)).text();
    // as versions before v2 left it: peaks without the duration, under the old name
    await rm(peaksFile(job.job_id));
    const legacy = path.join(audioDir(), `${job.job_id}.peaks.json`);
    await writeFile(legacy, JSON.stringify({ sample_rate: 22050, peaks_per_second: 50, peaks: [] }));

    const together = await Promise.all([1, 2, 3].map(() => getPeaks(job.job_id)));
    for (const response of together) {
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(original);
    }
    expect(existsSync(legacy)).toBe(false);
    const computed = (await stat(peaksFile(job.job_id))).mtimeMs;
    await new Promise((resolve) => setTimeout(resolve, 20));
    const again = await getPeaks(job.job_id);
    expect(await again.text()).toBe(original);
    expect(again.headers.get('etag')).toBe(together[0]!.headers.get('etag'));
    expect((await stat(peaksFile(job.job_id))).mtimeMs).toBe(computed);
  });
});

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
    expect(existsSync(peaksFile(job.job_id))).toBe(false);
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
