import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectSpeech } from '../testing/audio';
import { prose } from '../testing/prose';
import { titleOf } from '../jobs/chunker';
import { startTestGateway, waitForJob, type TestGateway } from '../testing/gateway';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway({ inlineThreshold: 300, maxTextLength: 20_000 });
});
afterAll(() => gateway.stop());

const wav = async (response: Response) => Buffer.from(await response.arrayBuffer());

describe('POST /synthesize inline', () => {
  it('answers short text with WAV audio of the default voice', async () => {
    const response = await gateway.post('/api/v1/tts/synthesize', { text: 'Hello from Orator.' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/wav');
    expect(response.headers.get('x-orator-engine')).toBe('espeak-ng');
    expect(response.headers.get('x-orator-voice')).toBe('espeak-ng:en-us');
    const seconds = expectSpeech(await wav(response), { sampleRate: 22050, minSeconds: 0.5, maxSeconds: 5 });
    expect(Number(response.headers.get('x-orator-duration'))).toBeCloseTo(seconds, 2);
  });

  it('gives longer audio for longer text', async () => {
    const short = expectSpeech(await wav(await gateway.post('/api/v1/tts/synthesize', { text: prose(40) })));
    const long = expectSpeech(await wav(await gateway.post('/api/v1/tts/synthesize', { text: prose(280) })));
    expect(long).toBeGreaterThan(short * 3);
  });

  it('speaks the requested voice and honours rate', async () => {
    const text = 'Guten Morgen, wie geht es Ihnen heute?';
    const normal = await gateway.post('/api/v1/tts/synthesize', { text, voice: 'espeak-ng:de' });
    expect(normal.headers.get('x-orator-voice')).toBe('espeak-ng:de');
    const fast = await gateway.post('/api/v1/tts/synthesize', { text, voice: 'espeak-ng:de', rate: 2 });
    expect(expectSpeech(await wav(fast))).toBeLessThan(expectSpeech(await wav(normal)) * 0.75);
  });

  it('counts length in code points: 300 emoji-free astral characters stay inline', async () => {
    const text = '𝔸'.repeat(150) + ' ok';
    expect(text.length).toBeGreaterThan(300);
    const response = await gateway.post('/api/v1/tts/synthesize', { text });
    expect(response.status).toBe(200);
  });
});

describe('POST /synthesize as a job', () => {
  it('queues text over the inline threshold and delivers its audio', async () => {
    const text = prose(1500);
    const response = await gateway.post('/api/v1/tts/synthesize', { text });
    expect(response.status).toBe(202);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await response.json()) as { job_id: string; poll: string; status: string };
    expect(body.status).toBe('running');
    expect(body.poll).toBe(`/api/v1/tts/jobs/${body.job_id}`);
    expect(response.headers.get('location')).toBe(body.poll);

    const job = await waitForJob(gateway, body.job_id);
    expect(job).toMatchObject({ status: 'done', engine: 'espeak-ng', voice: 'espeak-ng:en-us', characters: 1500, title: titleOf(text) });
    expect((job as unknown as { title: string }).title).toMatch(/^The river wound slowly/);
    expect(job.progress.done).toBe(job.progress.total);

    const audio = await gateway.api(`/api/v1/tts/jobs/${body.job_id}/audio`);
    expect(audio.status).toBe(200);
    expect(audio.headers.get('content-type')).toMatch(/^audio\/wav/);
    expect(audio.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(audio.headers.get('accept-ranges')).toBe('bytes');
    const file = await wav(audio);
    expect(Number(audio.headers.get('content-length'))).toBe(file.length);
    // about 15 characters a second of speech
    expectSpeech(file, { sampleRate: 22050, minSeconds: 1500 / 30, maxSeconds: 1500 / 7 });

    const range = await gateway.api(`/api/v1/tts/jobs/${body.job_id}/audio`, { headers: { range: 'bytes=0-43' } });
    expect(range.status).toBe(206);
    expect(range.headers.get('content-range')).toBe(`bytes 0-43/${file.length}`);
    expect(Buffer.from(await range.arrayBuffer())).toEqual(file.subarray(0, 44));
    const tail = await gateway.api(`/api/v1/tts/jobs/${body.job_id}/audio`, { headers: { range: `bytes=${file.length - 10}-` } });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(file.subarray(file.length - 10));

    const outside = await gateway.api(`/api/v1/tts/jobs/${body.job_id}/audio`, { headers: { range: `bytes=${file.length + 100}-` } });
    expect(outside.status).toBe(416);
    expect(outside.headers.get('content-range')).toBe(`bytes */${file.length}`);
    expect(outside.headers.get('content-disposition')).toBeNull();
    expect(await outside.json()).toMatchObject({ error: { code: 'range_not_satisfiable' } });
  });

  it('queues short text too when mode is "job"', async () => {
    const response = await gateway.post('/api/v1/tts/synthesize', { text: 'Short but queued.', mode: 'job' });
    expect(response.status).toBe(202);
    const { job_id } = (await response.json()) as { job_id: string };
    expect((await waitForJob(gateway, job_id)).status).toBe('done');
  });

  it('answers 409 with Retry-After while a job runs', async () => {
    const { job_id } = (await (await gateway.post('/api/v1/tts/synthesize', { text: prose(6000) })).json()) as { job_id: string };
    const status = await gateway.api(`/api/v1/tts/jobs/${job_id}`);
    expect(((await status.json()) as { status: string }).status).toBe('running');
    expect(status.headers.get('retry-after')).toBe('1');
    const audio = await gateway.api(`/api/v1/tts/jobs/${job_id}/audio`);
    expect(audio.status).toBe(409);
    expect(audio.headers.get('retry-after')).toBeTruthy();
    expect(((await audio.json()) as { error: { code: string } }).error.code).toBe('job_not_finished');
    await waitForJob(gateway, job_id);
  });
});

describe('POST /preview', () => {
  it('speaks a sample sentence in the voice language when no text is given', async () => {
    const response = await gateway.post('/api/v1/tts/preview', { voice: 'espeak-ng:fr-fr' });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-orator-voice')).toBe('espeak-ng:fr-fr');
    expectSpeech(await wav(response), { minSeconds: 1, maxSeconds: 10 });
  });

  it('caps preview text', async () => {
    const response = await gateway.post('/api/v1/tts/preview', { text: prose(501) });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('text_too_long');
  });
});
