import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIO_MEDIA, OUTPUT_FORMATS } from '../contract';
import { decodeIndependently, hasContainerMagic } from '../testing/decoders';
import { expectSpeech } from '../testing/audio';
import { prose } from '../testing/prose';
import { startTestGateway, type TestGateway } from '../testing/gateway';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.stop());

const TEXT = prose(300);
const bytesOf = async (response: Response) => new Uint8Array(await response.arrayBuffer());
const errorOf = async (response: Response) => ((await response.json()) as { error: { code: string; message: string } }).error;

describe('inline answers in every format', () => {
  let wavSeconds: number;
  beforeAll(async () => {
    const wav = await gateway.post('/api/v1/tts/synthesize', { text: TEXT });
    wavSeconds = expectSpeech(Buffer.from(await bytesOf(wav)), { sampleRate: 22050 });
  });

  it.each(OUTPUT_FORMATS)('%s: its container, content type and file name; a decoder reads it as long as the WAV', async (format) => {
    const response = await gateway.post('/api/v1/tts/synthesize', { text: TEXT, format });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(AUDIO_MEDIA[format].contentType);
    expect(response.headers.get('content-disposition')).toBe(`inline; filename="orator-speech.${format}"`);
    const file = await bytesOf(response);
    expect(hasContainerMagic(format, file)).toBe(true);
    const decoded = await decodeIndependently(format, file);
    expect(decoded.channels).toBe(1);
    // the engine's speech varies by some milliseconds from one request to the next
    expect(Math.abs(decoded.seconds - wavSeconds)).toBeLessThanOrEqual(0.05 * wavSeconds);
    // the header gives the speech's duration; codecs add at most a few frames of padding
    const duration = Number(response.headers.get('x-orator-duration'));
    expect(decoded.seconds - duration).toBeGreaterThanOrEqual(-0.001);
    expect(decoded.seconds - duration).toBeLessThan(0.1);
    // 24 kHz, 16 bit, no header: as long as the speech to the millisecond the header gives
    if (format === 'pcm') expect(Math.abs(file.length / 2 / 24000 - duration)).toBeLessThanOrEqual(0.001);
  });

  it('previews in a format too', async () => {
    const response = await gateway.post('/api/v1/tts/preview', { voice: 'espeak-ng:de', format: 'ogg' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/ogg');
    const decoded = await decodeIndependently('ogg', await bytesOf(response));
    expect(decoded.seconds).toBeGreaterThan(1);
  });

  it('the bitrate sets the size; the default is the documented one', async () => {
    const sizes: Record<string, number> = {};
    for (const [format, kbps] of [
      ['mp3', 32],
      ['mp3', 128],
      ['mp3', undefined],
      ['ogg', 16],
      ['ogg', 96],
    ] as const) {
      const response = await gateway.post('/api/v1/tts/synthesize', { text: TEXT, format, bitrate_kbps: kbps });
      expect(response.status).toBe(200);
      sizes[`${format}@${kbps ?? 'default'}`] = (await bytesOf(response)).length;
    }
    expect(sizes['mp3@128']).toBeGreaterThan(3 * sizes['mp3@32']!);
    expect(sizes['mp3@default']).toBe(sizes['mp3@128']);
    expect(sizes['ogg@96']).toBeGreaterThan(3 * sizes['ogg@16']!);
  });
});

describe('formats and bitrates refused with a message naming what would work', () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    // opus is a name of ogg now (issue 32): wma is a format no route takes
    ['an unknown format', { format: 'wma' }, /"format" must be one of "wav", "mp3", "ogg", "flac", "m4a", "pcm"/],
    ['OpenAI’s aac, not an Orator format', { format: 'aac' }, /"format" must be one of/],
    ['an MP3 bitrate LAME lacks', { format: 'mp3', bitrate_kbps: 100 }, /mp3 bitrate must be one of 8, 16, .*, 320 kbps, not 100/],
    ['an Opus bitrate out of range', { format: 'ogg', bitrate_kbps: 300 }, /ogg bitrate must be a whole number from 6 to 256 kbps/],
    ['a bitrate for a lossless format', { format: 'flac', bitrate_kbps: 128 }, /flac is not lossy/],
    ['a bitrate for the default wav', { bitrate_kbps: 128 }, /wav is not lossy/],
    [
      'a bitrate past every format',
      { format: 'm4a', bitrate_kbps: 1000 },
      /"bitrate_kbps" must be .*mp3: one of .*default 128.*ogg: .*default 48.*m4a: .*default 64/,
    ],
    ['a bitrate that is not a whole number', { format: 'mp3', bitrate_kbps: 64.5 }, /"bitrate_kbps"/],
  ];
  it.each(cases)('%s', async (_name, fields, message) => {
    for (const route of ['synthesize', 'preview']) {
      const response = await gateway.post(`/api/v1/tts/${route}`, { text: 'Hello.', ...fields });
      expect(response.status).toBe(400);
      const error = await errorOf(response);
      expect(error.code).toBe('invalid_request');
      expect(error.message).toMatch(message);
    }
  });

  it('refuses a bad bitrate of a job before queueing it', async () => {
    const response = await gateway.post('/api/v1/tts/synthesize', { text: prose(2000), format: 'mp3', bitrate_kbps: 100 });
    expect(response.status).toBe(400);
    const jobs = (await (await gateway.api('/api/v1/tts/jobs')).json()) as { jobs: unknown[] };
    expect(jobs.jobs).toEqual([]);
  });
});
