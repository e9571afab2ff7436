/**
 * The OpenAI-compatible endpoint through the official `openai` package, against a real gateway:
 * every response_format decoded by programs that share no code with the encoders, streaming,
 * and Server-Sent Events.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AudioFormat } from '../audio/encode/formats';
import { decodeWav } from '../audio/wav';
import { decodeIndependently, type DecodedAudio } from '../testing/decoders';
import { startTestGateway, type TestGateway } from '../testing/gateway';
import { prose } from '../testing/prose';

let gateway: TestGateway;
let client: OpenAI;
beforeAll(async () => {
  gateway = await startTestGateway();
  client = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
});
afterAll(() => gateway.stop());

const TEXT = `${prose(420)}.`;
const FORMATS = [
  ['mp3', 'mp3', 'audio/mpeg'],
  ['opus', 'ogg', 'audio/ogg'],
  ['aac', 'aac', 'audio/aac'],
  ['flac', 'flac', 'audio/flac'],
  ['wav', 'wav', 'audio/wav'],
] as const;

async function speak(params: Partial<OpenAI.Audio.SpeechCreateParams> = {}, signal?: AbortSignal) {
  return client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: TEXT, ...params }, signal ? { signal } : {});
}

function rms(samples: Int16Array): number {
  let energy = 0;
  for (const s of samples) energy += s * s;
  return Math.sqrt(energy / Math.max(1, samples.length));
}

describe('POST /v1/audio/speech with the openai package', () => {
  let wav: DecodedAudio;
  beforeAll(async () => {
    const response = await speak({ response_format: 'wav' });
    wav = await decodeIndependently('wav', new Uint8Array(await response.arrayBuffer()));
  });

  it('speaks as long as Orator’s own WAV of the same text', async () => {
    const own = decodeWav(Buffer.from(await (await gateway.post('/api/v1/tts/synthesize', { text: TEXT })).arrayBuffer()));
    expect(wav.sampleRate).toBe(own.sampleRate);
    expect(rms(wav.samples)).toBeGreaterThan(100);
    expect(Math.abs(wav.seconds - own.samples.length / own.sampleRate)).toBeLessThan(wav.seconds * 0.05);
  });

  it.each(FORMATS)('answers %s that decodes to the same length as the WAV (±5%%)', async (name, format, contentType) => {
    const response = await speak({ response_format: name });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(contentType);
    expect(response.headers.get('x-orator-voice')).toBe('espeak-ng:en-us');
    const decoded = await decodeIndependently(format as AudioFormat, new Uint8Array(await response.arrayBuffer()));
    expect(decoded.channels).toBe(1);
    expect(rms(decoded.samples)).toBeGreaterThan(100);
    expect(Math.abs(decoded.seconds - wav.seconds)).toBeLessThan(wav.seconds * 0.05);
  });

  it('defaults to mp3, as OpenAI does', async () => {
    const response = await speak();
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    const decoded = await decodeIndependently('mp3', new Uint8Array(await response.arrayBuffer()));
    expect(Math.abs(decoded.seconds - wav.seconds)).toBeLessThan(wav.seconds * 0.05);
  });

  it('answers pcm as the WAV resampled to 24 kHz: the same length within 1 ms, the same sound', async () => {
    // Flite says a text the same way every time; eSpeak NG and SVOX Pico vary by a few ms between runs.
    const voice = 'flite:slt';
    const response = await speak({ voice, response_format: 'pcm' });
    expect(response.headers.get('content-type')).toBe('audio/pcm');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.length % 2).toBe(0);
    const pcm = new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2);
    const flite = await decodeIndependently('wav', new Uint8Array(await (await speak({ voice, response_format: 'wav' })).arrayBuffer()));
    expect(flite.sampleRate).toBe(16000);
    const resampled = await soxResample(flite, 24000);
    expect(Math.abs(pcm.length - resampled.length) / 24000).toBeLessThanOrEqual(0.001);
    expect(correlation(pcm, resampled)).toBeGreaterThan(0.95);
  });

  it('speaks faster with speed, clamped to the engines’ rate range', async () => {
    const text = prose(200);
    const seconds = async (speed: number) =>
      (await decodeIndependently('wav', new Uint8Array(await (await speak({ input: text, response_format: 'wav', speed })).arrayBuffer())))
        .seconds;
    const [normal, double, quadruple] = [await seconds(1), await seconds(2), await seconds(4)];
    expect(double).toBeLessThan(normal * 0.75);
    expect(Math.abs(quadruple - double)).toBeLessThan(double * 0.05);
  });

  it('accepts any Orator voice id, a voice object, and an engine as the model', async () => {
    const german = await speak({ input: 'Guten Tag.', voice: 'espeak-ng:de', response_format: 'wav' });
    expect(german.headers.get('x-orator-voice')).toBe('espeak-ng:de');
    const byObject = await speak({ input: 'Hello.', voice: { id: 'flite:slt' }, response_format: 'wav' });
    expect(byObject.headers.get('x-orator-voice')).toBe('flite:slt');
    const engineModel = await speak({ input: 'Hello.', model: 'espeak-ng', voice: 'en-gb', response_format: 'wav' });
    expect(engineModel.headers.get('x-orator-voice')).toBe('espeak-ng:en-gb');
    // an OpenAI name mapped into another engine than the model's: that engine's default voice
    const alloyOnFlite = await speak({ input: 'Hello.', model: 'flite', voice: 'alloy', response_format: 'wav' });
    expect(alloyOnFlite.headers.get('x-orator-voice')).toBe('flite:kal16');
  });

  it('maps OpenAI voices by the openai_voices setting, falling back to the default voice', async () => {
    const view = (await (await gateway.api('/api/v1/tts/settings')).json()) as { settings: Record<string, unknown> };
    const { host: _host, ...settings } = view.settings; // the bind address is no setting to send
    const voices = { alloy: 'espeak-ng:de', narrator: 'flite:rms', echo: 'piper:not-installed' };
    const putSettings = (settings: object, key: string) =>
      gateway.api('/api/v1/tts/settings', {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify(settings),
      });
    // the map is a setting: the TTS key that speaks cannot redirect its voices
    const byKey = await putSettings({ ...settings, openai_voices: voices }, gateway.apiKey);
    expect([byKey.status, ((await byKey.json()) as { error: { code: string } }).error.code]).toEqual([403, 'admin_required']);
    expect(await (await speak({ input: 'Hello.', voice: 'alloy', response_format: 'wav' })).headers.get('x-orator-voice')).toBe(
      'espeak-ng:en-us',
    );
    const put = await putSettings({ ...settings, openai_voices: voices }, gateway.adminToken);
    expect(put.status).toBe(200);
    try {
      const voiceOf = async (voice: string) =>
        (await speak({ input: 'Hello.', voice, response_format: 'wav' })).headers.get('x-orator-voice');
      expect(await voiceOf('alloy')).toBe('espeak-ng:de');
      expect(await voiceOf('narrator')).toBe('flite:rms');
      expect(await voiceOf('echo')).toBe('espeak-ng:en-us'); // its engine is missing
      expect(await voiceOf('nova')).toBe('flite:slt'); // not in the setting: its default
    } finally {
      await putSettings(settings, gateway.adminToken);
    }
  });
});

describe('streaming', () => {
  it('sends the first audio long before the end of a 4,000-character answer', async () => {
    const started = performance.now();
    const response = await speak({ input: prose(4000), response_format: 'mp3' });
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    const reader = response.body!.getReader();
    const pieces: Uint8Array[] = [];
    let firstAt = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (pieces.length === 0) firstAt = performance.now() - started;
      pieces.push(value);
    }
    const totalMs = performance.now() - started;
    expect(pieces.length).toBeGreaterThan(5);
    expect(firstAt).toBeLessThan(totalMs / 4);
    const decoded = await decodeIndependently('mp3', Buffer.concat(pieces));
    expect(decoded.seconds).toBeGreaterThan(180);
  });

  it('sends Server-Sent Events: base64 deltas, then done with the usage', async () => {
    const response = await speak({ response_format: 'mp3', stream_format: 'sse' });
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const events = parseEvents(await response.text());
    const deltas = events.filter((e) => e.type === 'speech.audio.delta');
    expect(deltas.length).toBeGreaterThan(1);
    expect(events.at(-1)).toMatchObject({ type: 'speech.audio.done', usage: { input_tokens: TEXT.length } });
    expect(events.filter((e) => e.type === 'speech.audio.done')).toHaveLength(1);
    const audio = Buffer.concat(deltas.map((e) => Buffer.from(e.audio as string, 'base64')));
    const decoded = await decodeIndependently('mp3', audio);
    const wav = await decodeIndependently('wav', new Uint8Array(await (await speak({ response_format: 'wav' })).arrayBuffer()));
    expect(Math.abs(decoded.seconds - wav.seconds)).toBeLessThan(wav.seconds * 0.05);
    const usage = events.at(-1)!.usage as { input_tokens: number; output_tokens: number; total_tokens: number };
    // 50 per second of audio; sox reports the length to a few samples, so one token either way
    expect(Math.abs(usage.output_tokens - Math.ceil(wav.seconds * 50))).toBeLessThanOrEqual(1);
    expect(usage.total_tokens).toBe(usage.input_tokens + usage.output_tokens);
  });

  it('stops synthesizing when the client goes away', async () => {
    const adapter = gateway.registry.resolve({ voice: 'espeak-ng:en-us' }).adapter;
    const original = adapter.synthesize.bind(adapter);
    let calls = 0;
    const running = new Set<Promise<unknown>>();
    adapter.synthesize = (request, context) => {
      calls++;
      const call = original(request, context);
      const settled: Promise<unknown> = call.catch(() => {}).finally(() => running.delete(settled));
      running.add(settled);
      return call;
    };
    // the moment the gateway sees the client go
    const left = new Promise<void>((resolve) => gateway.app.server.once('request', (_request, reply) => reply.once('close', resolve)));
    try {
      const abort = new AbortController();
      const response = await speak({ input: prose(4000), response_format: 'wav' }, abort.signal);
      await response.body!.getReader().read();
      abort.abort();
      await left;
      // the syntheses running then end, finished or stopped; none starts after them
      while (running.size > 0) await Promise.all(running);
      const atAbort = calls;
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(calls).toBe(atAbort);
      expect(calls).toBeLessThan(5); // the text has 9 chunks
      // the gateway is free for the next request at once
      const next = await speak({ input: 'Still here.', response_format: 'wav' });
      expect(next.status).toBe(200);
    } finally {
      adapter.synthesize = original;
    }
  });
});

/** The events of an SSE body: each `data:` line's JSON, checked against its `event:` name. */
function parseEvents(body: string): Record<string, unknown>[] {
  return body
    .split('\n\n')
    .filter((block) => block.trim())
    .map((block) => {
      const name = /^event: (.+)$/m.exec(block)?.[1];
      const data = JSON.parse(/^data: (.+)$/m.exec(block)![1]!) as Record<string, unknown>;
      expect(data.type).toBe(name);
      return data;
    });
}

const run = promisify(execFile);

/** sox's own resampler (not the one the gateway uses), at `rate`. */
async function soxResample(audio: DecodedAudio, rate: number): Promise<Int16Array> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'orator-resample-'));
  try {
    const raw = path.join(dir, 'in.raw');
    await writeFile(raw, Buffer.from(audio.samples.buffer, audio.samples.byteOffset, audio.samples.byteLength));
    const common = ['-e', 'signed', '-b', '16', '-c', '1'];
    await run('sox', [
      '-t',
      'raw',
      '-r',
      String(audio.sampleRate),
      ...common,
      raw,
      '-t',
      'raw',
      '-r',
      String(rate),
      ...common,
      `${raw}.out`,
    ]);
    const bytes = await readFile(`${raw}.out`);
    return new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function correlation(a: Int16Array, b: Int16Array): number {
  const n = Math.min(a.length, b.length);
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < n; i++) {
    ab += a[i]! * b[i]!;
    aa += a[i]! * a[i]!;
    bb += b[i]! * b[i]!;
  }
  return ab / Math.sqrt(aa * bb);
}
