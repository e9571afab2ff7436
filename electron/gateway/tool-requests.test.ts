/**
 * The tools' real requests (testing/tool-requests.ts: Open WebUI, SillyTavern, Home Assistant's
 * openai_tts, byte for byte) replayed against a real gateway, their audio decoded by programs
 * that share no code with the encoders; each tool's picker listing read the way the tool reads it;
 * and the official `openai` package with the same extras. docs/openai.md's settings rest on these.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IGNORED_FIELDS_HEADER } from '../contract';
import { decodeIndependently } from '../testing/decoders';
import { startTestGateway, type TestGateway } from '../testing/gateway';
import { send } from '../testing/raw-http';
import { LISTING_RECORDINGS, SPEECH_RECORDINGS, withKey } from '../testing/tool-requests';

let gateway: TestGateway;
let everyVoice: number;
beforeAll(async () => {
  gateway = await startTestGateway();
  const { engines } = (await (await gateway.api('/api/v1/tts/engines')).json()) as {
    engines: { available: boolean; voiceCount: number }[];
  };
  everyVoice = engines.filter((e) => e.available).reduce((sum, e) => sum + e.voiceCount, 0);
});
afterAll(() => gateway.stop());

/** eSpeak NG, Flite and SVOX Pico speak English prose at 0.04 to 0.1 s a character. */
function expectPlausible(seconds: number, text: string) {
  expect(seconds).toBeGreaterThan(text.length * 0.03);
  expect(seconds).toBeLessThan(text.length * 0.15);
}

describe.each(SPEECH_RECORDINGS.map((r) => [`${r.tool}: ${r.what}`, r] as const))('%s', (_name, recording) => {
  it(`speaks ${recording.format} with ${recording.voice}`, async () => {
    const answer = await send(
      gateway.port,
      { method: recording.method, path: recording.path, headers: withKey(recording.headers, gateway.apiKey), body: recording.body! },
      120_000,
    );
    expect([answer.status, answer.body.subarray(0, 200).toString()]).toEqual([200, expect.any(String)]);
    expect(answer.headers['x-orator-voice']).toBe(recording.voice);
    expect(answer.headers[IGNORED_FIELDS_HEADER] ?? null).toBe(recording.ignored);
    const decoded = await decodeIndependently(recording.format, new Uint8Array(answer.body));
    expect(decoded.channels).toBe(1);
    expectPlausible(decoded.seconds, recording.text);
  });
});

describe.each(LISTING_RECORDINGS.map((r) => [`${r.tool}: ${r.what}`, r] as const))('%s', (_name, recording) => {
  it('is read by the tool as Orator’s own list', async () => {
    const answer = await send(gateway.port, {
      method: recording.method,
      path: recording.path,
      headers: withKey(recording.headers, gateway.apiKey),
    });
    expect(answer.status).toBe(200);
    const options = recording.read(JSON.parse(answer.body.toString()));
    const values = options.map(([value]) => value);
    if (recording.path.endsWith('/models')) {
      expect(values.slice(0, 3)).toEqual(['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts']);
      expect(values).toContain('espeak-ng');
      return;
    }
    // the first options are OpenAI's names, then Orator's voices; a picker past OpenAI's six
    expect(values.slice(0, 6)).toEqual(['alloy', 'ash', 'ballad', 'coral', 'echo', 'fable']);
    expect(values).toContain('espeak-ng:en-gb');
    const limit = Number(new URLSearchParams(recording.path.split('?')[1]).get('limit') ?? Infinity);
    expect(options.length).toBe(Math.min(limit, 13 + everyVoice));
    for (const [, label] of options) expect(label.length).toBeGreaterThan(2);
  });
});

describe('the official openai package', () => {
  const client = () => new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  const text = 'The official client asks for speech, and gets it.';

  it('gets mp3 by default', async () => {
    const response = await client().audio.speech.create({ model: 'tts-1', voice: 'alloy', input: text });
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    expectPlausible((await decodeIndependently('mp3', new Uint8Array(await response.arrayBuffer()))).seconds, text);
  });

  it('passes extras, null and numbers as text through, as a tool built on it does', async () => {
    const extras = { lang_code: 'de', volume_multiplier: '0.8', instructions: null, speed: '1.25', seed: 7 };
    const response = await client().audio.speech.create({
      model: 'tts-1',
      voice: 'alloy',
      input: 'Guten Tag, hier spricht Orator.',
      response_format: 'wav',
      ...(extras as object),
    } as OpenAI.Audio.SpeechCreateParams);
    expect(response.headers.get('x-orator-voice')).toBe('espeak-ng:de');
    expect(response.headers.get(IGNORED_FIELDS_HEADER)).toBe('seed');
    expect((await decodeIndependently('wav', new Uint8Array(await response.arrayBuffer()))).seconds).toBeGreaterThan(1);
  });

  it('streams opus: the first pages arrive before the answer ends, and the whole decodes', async () => {
    const long = `${text} `.repeat(40);
    const response = await client().audio.speech.create({ model: 'tts-1', voice: 'alloy', input: long, response_format: 'opus' });
    expect(response.headers.get('content-type')).toBe('audio/ogg');
    const pieces: Uint8Array[] = [];
    let firstAt = 0;
    const started = performance.now();
    for await (const piece of response.body as unknown as AsyncIterable<Uint8Array>) {
      if (pieces.length === 0) firstAt = performance.now() - started;
      pieces.push(piece);
    }
    const total = performance.now() - started;
    expect(Buffer.from(pieces[0]!).subarray(0, 4).toString('latin1')).toBe('OggS');
    expect(firstAt).toBeLessThan(total / 2);
    expectPlausible((await decodeIndependently('ogg', Buffer.concat(pieces))).seconds, long);
  });
});
