import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIO_MEDIA, OUTPUT_FORMATS, type Job, type JobPeaks, type OutputFormat } from '../contract';
import { decodeIndependently, hasContainerMagic } from '../testing/decoders';
import { prose } from '../testing/prose';
import { startTestGateway, waitForJob, type TestGateway } from '../testing/gateway';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.stop());

const TEXT = prose(1500);
const COMPRESSED = OUTPUT_FORMATS.filter((format) => format !== 'wav');

async function queue(fields: Record<string, unknown>): Promise<string> {
  const response = await gateway.post('/api/v1/tts/synthesize', { text: TEXT, mode: 'job', ...fields });
  expect(response.status).toBe(202);
  return ((await response.json()) as { job_id: string }).job_id;
}

const getJob = async (id: string) => (await (await gateway.api(`/api/v1/tts/jobs/${id}`)).json()) as Job;

async function finished(fields: Record<string, unknown>): Promise<Job> {
  const id = await queue(fields);
  expect((await waitForJob(gateway, id)).status).toBe('done');
  return getJob(id);
}

/** The job's files in the data dir, by name, the job id replaced by "<id>". */
async function filesOf(id: string): Promise<string[]> {
  const names = await readdir(path.join(gateway.dataDir, 'audio'));
  return names
    .filter((name) => name.startsWith(id))
    .map((name) => name.replace(id, '<id>'))
    .sort();
}

describe('a job in each format', () => {
  const jobs = new Map<OutputFormat, Job>();
  let wavSeconds: number;
  beforeAll(async () => {
    // all at once, as a client would queue them: the queue runs them side by side
    const all = await Promise.all(OUTPUT_FORMATS.map((format) => finished({ format })));
    OUTPUT_FORMATS.forEach((format, i) => jobs.set(format, all[i]!));
    const wav = await gateway.api(jobs.get('wav')!.audio!.url);
    wavSeconds = (await decodeIndependently('wav', new Uint8Array(await wav.arrayBuffer()))).seconds;
  }, 240_000);

  it.each(OUTPUT_FORMATS)('%s: stored, served and decoded as that format, as long as the WAV', async (format) => {
    const job = jobs.get(format)!;
    expect(job).toMatchObject({ format, keep_wav: false, audio: { format, content_type: AUDIO_MEDIA[format].contentType } });
    expect(job.bitrate_kbps).toBe(AUDIO_MEDIA[format].bitrate?.defaultKbps);
    const response = await gateway.api(job.audio!.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(AUDIO_MEDIA[format].contentType);
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="orator-job-${job.job_id.slice(0, 8)}.${format}"`);
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    const file = new Uint8Array(await response.arrayBuffer());
    expect(file.length).toBe(job.audio!.bytes);
    expect(hasContainerMagic(format, file)).toBe(true);
    const decoded = await decodeIndependently(format, file);
    expect(decoded.channels).toBe(1);
    expect(Math.abs(decoded.seconds - wavSeconds)).toBeLessThanOrEqual(0.05 * wavSeconds);
    expect(Math.abs(decoded.seconds - job.audio!.duration_s)).toBeLessThan(0.15);
  });

  it.each(COMPRESSED)('%s: leaves its file and its peaks, no WAV, no chunks', async (format) => {
    const job = jobs.get(format)!;
    expect(await filesOf(job.job_id)).toEqual([`<id>.${format}`, '<id>.peaks.v3.bin'].sort());
    expect(existsSync(path.join(gateway.dataDir, 'chunks', job.job_id))).toBe(false);
    // pcm is plain samples: it can be sent in any format, as a WAV can
    expect(job.audio!.formats).toEqual(format === 'pcm' ? [...OUTPUT_FORMATS] : [format]);
    // and is far smaller than the WAV, but for pcm (24 kHz against the voice's 22.05)
    const ratio = job.audio!.bytes / jobs.get('wav')!.audio!.bytes;
    expect(ratio).toBeLessThan(format === 'pcm' ? 1.1 : 0.6);
  });

  it.each(COMPRESSED)('%s: its peaks are those of the WAV of the same text', async (format) => {
    const peaksOf = async (job: Job) => (await (await gateway.api(`/api/v1/tts/jobs/${job.job_id}/peaks`)).json()) as JobPeaks;
    const [ours, wavs] = await Promise.all([peaksOf(jobs.get(format)!), peaksOf(jobs.get('wav')!)]);
    expect(ours.duration_s).toBeCloseTo(jobs.get(format)!.audio!.duration_s, 3);
    expect(ours.sample_rate).toBe(22050);
    // the engine varies by milliseconds from run to run: the same shape, not the same numbers
    expect(Math.abs(ours.peaks.length - wavs.peaks.length)).toBeLessThanOrEqual(0.05 * wavs.peaks.length);
    expect(Math.max(...ours.peaks)).toBeGreaterThan(0.1);
  });

  it('m4a: Range requests on the stored file answer 206 with its bytes', async () => {
    const job = jobs.get('m4a')!;
    const whole = new Uint8Array(await (await gateway.api(job.audio!.url)).arrayBuffer());
    const range = await gateway.api(job.audio!.url, { headers: { range: 'bytes=100-1099' } });
    expect(range.status).toBe(206);
    expect(range.headers.get('content-type')).toBe('audio/mp4');
    expect(range.headers.get('content-range')).toBe(`bytes 100-1099/${whole.length}`);
    expect(new Uint8Array(await range.arrayBuffer())).toEqual(whole.subarray(100, 1100));
    const tail = await gateway.api(job.audio!.url, { headers: { range: 'bytes=-500' } });
    expect(tail.status).toBe(206);
    expect(new Uint8Array(await tail.arrayBuffer())).toEqual(whole.subarray(whole.length - 500));
    const outside = await gateway.api(job.audio!.url, { headers: { range: `bytes=${whole.length + 10}-` } });
    expect(outside.status).toBe(416);
    expect(outside.headers.get('content-range')).toBe(`bytes */${whole.length}`);
  });

  it('?format= sends a WAV job in each other format, encoded as it is sent, as long as the WAV', async () => {
    const wav = jobs.get('wav')!;
    for (const format of COMPRESSED) {
      const bitrate = format === 'mp3' ? '&bitrate_kbps=64' : '';
      const response = await gateway.api(`${wav.audio!.url}?format=${format}${bitrate}`, { headers: { range: 'bytes=0-99' } });
      // encoded as it goes: the whole file, whatever the Range asked
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(AUDIO_MEDIA[format].contentType);
      expect(response.headers.get('content-disposition')).toBe(`attachment; filename="orator-job-${wav.job_id.slice(0, 8)}.${format}"`);
      expect(response.headers.get('accept-ranges')).toBe('none');
      const file = new Uint8Array(await response.arrayBuffer());
      expect(hasContainerMagic(format, file)).toBe(true);
      const decoded = await decodeIndependently(format, file);
      expect(Math.abs(decoded.seconds - wavSeconds)).toBeLessThanOrEqual(0.05 * wavSeconds);
      // 64 kbps: 8,000 bytes a second and LAME's padding
      if (format === 'mp3') expect(file.length / wavSeconds).toBeLessThan(8300);
    }
  });

  it('?format= sends a pcm job as a WAV at 24 kHz; a compressed job only as itself (409 format_unavailable)', async () => {
    const pcm = jobs.get('pcm')!;
    const asWav = await gateway.api(`${pcm.audio!.url}?format=wav`);
    expect(asWav.headers.get('content-type')).toBe('audio/wav');
    const decoded = await decodeIndependently('wav', new Uint8Array(await asWav.arrayBuffer()));
    expect(decoded.sampleRate).toBe(24_000);
    expect(Math.abs(decoded.seconds - pcm.audio!.duration_s)).toBeLessThan(0.01);

    const mp3 = jobs.get('mp3')!;
    expect((await gateway.api(`${mp3.audio!.url}?format=mp3`)).status).toBe(200);
    for (const query of ['format=wav', 'format=ogg', 'format=mp3&bitrate_kbps=64']) {
      const refused = await gateway.api(`${mp3.audio!.url}?${query}`);
      expect(refused.status).toBe(409);
      const { error } = (await refused.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe('format_unavailable');
      expect(error.message).toMatch(/only as mp3 at 128 kbps .*keep_wav/);
    }
  });

  it('?format= refuses a format or bitrate it does not know with 400, naming what would work', async () => {
    const url = jobs.get('wav')!.audio!.url;
    const bad = async (query: string) => {
      const response = await gateway.api(`${url}?${query}`);
      expect(response.status).toBe(400);
      return ((await response.json()) as { error: { message: string } }).error.message;
    };
    expect(await bad('format=aiff')).toMatch(/"format" must be one of "wav", "mp3", "ogg", "flac", "m4a", "pcm"/);
    expect(await bad('format=mp3&bitrate_kbps=100')).toMatch(/mp3 bitrate must be one of 8, 16, .* kbps, not 100/);
    expect(await bad('format=flac&bitrate_kbps=64')).toMatch(/flac is not lossy/);
    expect(await bad('format=ogg&bitrate_kbps=fast')).toMatch(/bitrate_kbps/);
  });
});

describe('keep_wav', () => {
  it('keeps the WAV beside an mp3 at the bitrate asked', async () => {
    const job = await finished({ format: 'mp3', bitrate_kbps: 64, keep_wav: true });
    expect(job).toMatchObject({ format: 'mp3', bitrate_kbps: 64, keep_wav: true });
    expect(await filesOf(job.job_id)).toEqual(['<id>.mp3', '<id>.peaks.v3.bin', '<id>.wav']);
    expect(job.audio!.formats).toEqual([...OUTPUT_FORMATS]);
    const mp3 = await stat(path.join(gateway.dataDir, 'audio', `${job.job_id}.mp3`));
    expect(mp3.size).toBe(job.audio!.bytes);
    // 64 kbps: 8,000 bytes a second, a little more for LAME's padding
    expect(mp3.size / job.audio!.duration_s).toBeGreaterThan(7900);
    expect(mp3.size / job.audio!.duration_s).toBeLessThan(8300);
    // the WAV kept beside it is a stored file too: ranges work
    const wav = await gateway.api(`${job.audio!.url}?format=wav`, { headers: { range: 'bytes=0-43' } });
    expect(wav.status).toBe(206);
    expect(wav.headers.get('content-type')).toBe('audio/wav');
    expect(Buffer.from(await wav.arrayBuffer()).toString('latin1', 0, 4)).toBe('RIFF');
  });

  it('changes nothing for a wav job', async () => {
    const job = await finished({ keep_wav: true });
    expect(job).toMatchObject({ format: 'wav', keep_wav: false });
    expect(await filesOf(job.job_id)).toEqual(['<id>.peaks.v3.bin', '<id>.wav']);
  });
});

describe('a job is encoded as its chunks arrive', () => {
  it('its file grows while the job runs, and is whole only once it is done', async () => {
    const id = await queue({ text: prose(12_000), format: 'ogg' });
    const partial = path.join(gateway.dataDir, 'audio', `${id}.ogg.partial`);
    const sizes: number[] = [];
    for (;;) {
      const job = await getJob(id);
      if (job.status !== 'running') break;
      if (existsSync(partial)) sizes.push((await stat(partial)).size);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await getJob(id)).status).toBe('done');
    const grown = sizes.filter((size, i) => i > 0 && size > sizes[i - 1]!);
    expect(grown.length).toBeGreaterThan(3);
    expect(existsSync(partial)).toBe(false);
    expect(await filesOf(id)).toEqual(['<id>.ogg', '<id>.peaks.v3.bin']);
  }, 180_000);
});

describe('retry', () => {
  it('keeps the format, bitrate and keep_wav of the failed job', async () => {
    const id = await queue({ text: prose(20_000), format: 'ogg', bitrate_kbps: 24, keep_wav: true });
    await gateway.api(`/api/v1/tts/jobs/${id}`, { method: 'DELETE' });
    const retry = await gateway.api(`/api/v1/tts/jobs/${id}/retry`, { method: 'POST' });
    expect(retry.status).toBe(202);
    const { job_id } = (await retry.json()) as { job_id: string };
    expect(await getJob(job_id)).toMatchObject({ format: 'ogg', bitrate_kbps: 24, keep_wav: true });
    await gateway.api(`/api/v1/tts/jobs/${job_id}`, { method: 'DELETE' });
    // a cancelled job leaves nothing: not its partial encoded file, not its partial WAV
    await expect.poll(async () => [...(await filesOf(id)), ...(await filesOf(job_id))]).toEqual([]);
  });
});
