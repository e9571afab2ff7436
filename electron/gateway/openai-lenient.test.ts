/**
 * /v1/audio/speech takes requests the way tools send them: unknown fields accepted, ignored and
 * named; null as "not given"; numbers as text; Kokoro-FastAPI's extras where they mean something
 * here. Orator's own routes stay strict. Against a real gateway, the audio decoded.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeWav } from '../audio/wav';
import { DOWNLOAD_PATH_HEADER, IGNORED_FIELDS_HEADER } from '../contract';
import { decodeIndependently } from '../testing/decoders';
import { startTestGateway, waitForJob, type TestGateway } from '../testing/gateway';
import { REQUEST_LOG, type RequestLogLine } from './request-log';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.stop());

const TEXT = 'The quick brown fox jumps over the lazy dog, twice in a row, and then it rests.';
const speech = (body: object) =>
  gateway.post('/v1/audio/speech', { model: 'tts-1', voice: 'alloy', input: TEXT, response_format: 'wav', ...body });

async function wav(response: Response) {
  expect(response.status).toBe(200);
  return decodeWav(Buffer.from(await response.arrayBuffer()));
}

function rms(samples: Int16Array): number {
  let energy = 0;
  for (const s of samples) energy += s * s;
  return Math.sqrt(energy / Math.max(1, samples.length));
}

describe('fields Orator does not know', () => {
  it('accepts and ignores them, names them in X-Orator-Ignored-Fields and in the request log', async () => {
    const response = await speech({ stream: true, temperature: 0.8, 'odd, name': { nested: [1] }, instructions: 'Cheerful.' });
    expect(response.headers.get(IGNORED_FIELDS_HEADER)).toBe('temperature, odd%2C%20name, instructions');
    const audio = await wav(response);
    expect(audio.samples.length / audio.sampleRate).toBeGreaterThan(2);
    expect(rms(audio.samples)).toBeGreaterThan(100);
    const log = (await readFile(path.join(gateway.dataDir, REQUEST_LOG.dir, REQUEST_LOG.file), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as RequestLogLine);
    expect(log.filter((line) => line.route === '/v1/audio/speech').at(-1)).toMatchObject({
      status: 200,
      ignored_fields: 'temperature, odd%2C%20name, instructions',
    });
  });

  it('names at most 32 of them', async () => {
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`extra_${i}`, i]));
    const named = (await speech({ ...many, input: 'Hi.' })).headers.get(IGNORED_FIELDS_HEADER)!.split(', ');
    expect(named).toHaveLength(33);
    expect(named.at(-1)).toBe('+8 more');
  });

  it('reads null as "not given" and numbers written as text', async () => {
    const base = await wav(await speech({}));
    const nulls = await speech({ response_format: null, speed: null, instructions: null, stream_format: null, lang_code: null });
    expect(nulls.headers.get('content-type')).toBe('audio/mpeg'); // the default format
    expect(nulls.headers.get(IGNORED_FIELDS_HEADER)).toBeNull();
    const asText = await wav(await speech({ speed: ' 2.0 ' }));
    const asNumber = await wav(await speech({ speed: 2 }));
    // eSpeak NG varies by a few milliseconds between runs
    expect(Math.abs(asText.samples.length - asNumber.samples.length)).toBeLessThan(asNumber.samples.length * 0.03);
    expect(asText.samples.length).toBeLessThan(base.samples.length * 0.7);
  });

  it.each([
    ['speed', '9'],
    ['speed', 'fast'],
    ['speed', 0.1],
    ['volume_multiplier', '-1'],
    ['volume_multiplier', 5],
    ['lang_code', 7],
    ['return_download_link', 'yes'],
  ])('still refuses %s: %j, naming it', async (field, value) => {
    const response = await speech({ [field]: value });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: object }).error).toMatchObject({ type: 'invalid_request_error', param: field });
  });
});

describe('Kokoro-FastAPI’s extras', () => {
  it('volume_multiplier scales the volume, clamped to Orator’s 0 to 2', async () => {
    const normal = rms((await wav(await speech({}))).samples);
    const half = rms((await wav(await speech({ volume_multiplier: '0.5' }))).samples);
    expect(half / normal).toBeGreaterThan(0.45);
    expect(half / normal).toBeLessThan(0.55);
    const silent = await wav(await speech({ volume_multiplier: 0 }));
    expect(rms(silent.samples)).toBe(0);
  });

  it('lang_code chooses the voice of its language within the engine of an OpenAI name, else it is ignored and named', async () => {
    const voiceOf = async (body: object) => {
      const response = await speech({ input: 'Hello.', ...body });
      await response.arrayBuffer();
      return [response.headers.get('x-orator-voice'), response.headers.get(IGNORED_FIELDS_HEADER)];
    };
    expect(await voiceOf({ lang_code: 'a' })).toEqual(['espeak-ng:en-us', null]);
    expect(await voiceOf({ lang_code: 'b' })).toEqual(['espeak-ng:en-gb', null]);
    expect(await voiceOf({ lang_code: 'de' })).toEqual(['espeak-ng:de', null]);
    expect(await voiceOf({ lang_code: 'pt_BR' })).toEqual(['espeak-ng:pt-br', null]);
    // nova is Flite's SLT: Flite speaks no German
    expect(await voiceOf({ voice: 'nova', lang_code: 'de' })).toEqual(['flite:slt', 'lang_code']);
    // an Orator voice id says its own language
    expect(await voiceOf({ voice: 'espeak-ng:en-us', lang_code: 'b' })).toEqual(['espeak-ng:en-us', 'lang_code']);
    expect(await voiceOf({ lang_code: 'q' })).toEqual(['espeak-ng:en-us', 'lang_code']);
  });

  it('return_download_link keeps the audio as a job, named in X-Download-Path', async () => {
    const response = await speech({ return_download_link: true, response_format: 'mp3' });
    const streamed = await decodeIndependently('mp3', new Uint8Array(await response.arrayBuffer()));
    const link = response.headers.get(DOWNLOAD_PATH_HEADER)!;
    const id = /^\/api\/v1\/tts\/jobs\/([0-9a-f-]+)\/audio$/.exec(link)?.[1];
    expect(id).toBeDefined();
    expect(await waitForJob(gateway, id!)).toMatchObject({ status: 'done', format: 'mp3', voice: 'espeak-ng:en-us' });
    const kept = await gateway.api(link);
    expect(kept.headers.get('content-type')).toBe('audio/mpeg');
    const decoded = await decodeIndependently('mp3', new Uint8Array(await kept.arrayBuffer()));
    expect(Math.abs(decoded.seconds - streamed.seconds)).toBeLessThan(streamed.seconds * 0.1);
    // the link needs the key, as every job does
    expect((await fetch(gateway.url + link)).status).toBe(401);
    // AAC has no job format of its own: kept as AAC in MP4
    const aac = await speech({ return_download_link: true, response_format: 'aac' });
    await aac.arrayBuffer();
    const aacJob = /jobs\/([0-9a-f-]+)\//.exec(aac.headers.get(DOWNLOAD_PATH_HEADER)!)![1]!;
    expect(await waitForJob(gateway, aacJob)).toMatchObject({ status: 'done', format: 'm4a' });
  });
});

describe('Orator’s own routes stay strict', () => {
  it.each([
    ['an unknown field', { stream_format: 'sse' }],
    ['null for an optional field', { rate: null }],
    ['a number as text', { rate: '1.0' }],
  ])('refuses %s on /synthesize', async (_what, change) => {
    const response = await gateway.post('/api/v1/tts/synthesize', { text: 'Hello.', ...change });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid_request');
  });
});
