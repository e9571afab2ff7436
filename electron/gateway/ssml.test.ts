/**
 * SSML over HTTP with real engines: breaks lengthen the audio by their time, a <voice> switch joins
 * eSpeak NG (22,050 Hz) and Flite (16 kHz) in one file at one rate, inline and as a job, say-as and
 * phonemes change what is said, malformed markup is a 400 with its position, and the OpenAI route
 * reads an input that is a <speak> document as SSML.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeWav, parseWav } from '../audio/wav';
import type { JobTimings } from '../contract';
import { expectSpeech } from '../testing/audio';
import { startTestGateway, waitForJob, type TestGateway } from '../testing/gateway';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.stop());

const ssml = (markup: string, extra: Record<string, unknown> = {}) =>
  gateway.post('/api/v1/tts/synthesize', { text: markup, text_type: 'ssml', ...extra });

async function seconds(response: Response): Promise<number> {
  expect(response.status).toBe(200);
  return expectSpeech(Buffer.from(await response.arrayBuffer()));
}

async function jobAudio(markup: string): Promise<{ id: string; file: Buffer }> {
  const response = await ssml(markup, { mode: 'job' });
  expect(response.status).toBe(202);
  const { job_id: id } = (await response.json()) as { job_id: string };
  expect(await waitForJob(gateway, id)).toMatchObject({ status: 'done' });
  return { id, file: Buffer.from(await (await gateway.api(`/api/v1/tts/jobs/${id}/audio`)).arrayBuffer()) };
}

function rms(samples: Int16Array, from: number, to: number): number {
  let energy = 0;
  for (let i = from; i < to; i++) energy += samples[i]! * samples[i]!;
  return Math.sqrt(energy / Math.max(1, to - from));
}

const BREAK = (time: string) => `<speak>The first sentence is here.<break time="${time}"/>And the second one follows.</speak>`;
const SWITCH = '<speak>Hello from eSpeak. <voice name="flite:kal16">And hello from Flite.</voice></speak>';

describe('SSML on /synthesize', () => {
  it('lengthens inline audio by the break time', async () => {
    const none = await seconds(await ssml(BREAK('0ms')));
    const oneSecond = await seconds(await ssml(BREAK('1s')));
    const half = await seconds(await ssml(BREAK('500ms')));
    expect(Math.abs(oneSecond - none - 1)).toBeLessThan(0.05);
    expect(Math.abs(half - none - 0.5)).toBeLessThan(0.05);
  });

  it('lengthens a job by the break time', async () => {
    const none = expectSpeech((await jobAudio(BREAK('0ms'))).file);
    const oneAndHalf = expectSpeech((await jobAudio(BREAK('1.5s'))).file);
    expect(Math.abs(oneAndHalf - none - 1.5)).toBeLessThan(0.05);
  });

  it('switches voice mid-text across engines, at one sample rate, inline', async () => {
    const espeak = await seconds(await gateway.post('/api/v1/tts/synthesize', { text: 'Hello from eSpeak.' }));
    const flite = await seconds(await gateway.post('/api/v1/tts/synthesize', { text: 'And hello from Flite.', voice: 'flite:kal16' }));
    const response = await ssml(SWITCH);
    const file = Buffer.from(await response.arrayBuffer());
    expect(parseWav(file).sampleRate).toBe(22050); // the higher of 22,050 (eSpeak NG) and 16,000 (Flite)
    const { samples, sampleRate } = decodeWav(file);
    expect(Math.abs(samples.length / sampleRate - (espeak + flite))).toBeLessThan(0.05);
    const cut = Math.round(espeak * sampleRate);
    expect(rms(samples, 0, cut)).toBeGreaterThan(300);
    expect(rms(samples, cut, samples.length)).toBeGreaterThan(300);
  });

  it('switches voice mid-text in a job: chunks of both engines at one rate, timings in the markup', async () => {
    const espeak = await seconds(await gateway.post('/api/v1/tts/synthesize', { text: 'Hello from eSpeak.' }));
    const flite = await seconds(await gateway.post('/api/v1/tts/synthesize', { text: 'And hello from Flite.', voice: 'flite:kal16' }));
    const { id, file } = await jobAudio(SWITCH);
    expect(parseWav(file).sampleRate).toBe(22050);
    const { samples, sampleRate } = decodeWav(file);
    expect(Math.abs(samples.length / sampleRate - (espeak + flite))).toBeLessThan(0.05);
    const cut = Math.round(espeak * sampleRate);
    expect(rms(samples, 0, cut)).toBeGreaterThan(300);
    expect(rms(samples, cut, samples.length)).toBeGreaterThan(300);

    const timings = (await (await gateway.api(`/api/v1/tts/jobs/${id}/timings`)).json()) as JobTimings;
    const inMarkup = timings.sentences.map((s) => [...SWITCH].slice(s.text_start, s.text_end).join(''));
    expect(inMarkup).toEqual(['Hello from eSpeak.', 'And hello from Flite.']);
    expect(timings.sentences[1]!.start_s).toBeGreaterThanOrEqual(timings.sentences[0]!.end_s);
    expect(timings.duration_s).toBeCloseTo(samples.length / sampleRate, 2);
  });

  it('refuses malformed SSML with its line and column', async () => {
    const response = await ssml('<speak>\n  <p>Hello</s>\n</speak>');
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { code: string; message: string; line: number; column: number } };
    expect(error).toMatchObject({ code: 'invalid_ssml', line: 2 });
    expect(error.column).toBeGreaterThan(1);
    expect(error.message).toContain(`line 2, column ${error.column}`);
    const voice = await ssml('<speak>Hi <voice name="nope:x">there</voice></speak>');
    expect(voice.status).toBe(422);
    expect(await voice.json()).toMatchObject({ error: { code: 'unknown_voice' } });
    const value = await ssml('<speak>Wait <break time="forever"/> here.</speak>');
    expect(await value.json()).toMatchObject({ error: { code: 'invalid_ssml', line: 1, column: 13 } });
  });

  it('speaks the content of unknown tags', async () => {
    const plain = await seconds(await ssml('<speak>Hello there, my friend.</speak>'));
    const unknown = await seconds(await ssml('<speak><foo:bar>Hello there, <blink>my friend.</blink></foo:bar></speak>'));
    expect(Math.abs(unknown - plain)).toBeLessThan(0.05);
  });

  it('says numbers as say-as tells it', async () => {
    const cardinal = await seconds(await ssml('<speak><say-as interpret-as="cardinal">7,654,321</say-as></speak>'));
    const characters = await seconds(await ssml('<speak><say-as interpret-as="characters">7654321</say-as></speak>'));
    expect(cardinal).toBeGreaterThan(characters * 1.5);
  });

  it('reads eSpeak phonemes and prosody', async () => {
    const word = await seconds(await ssml('<speak>a</speak>'));
    const phonemes = await seconds(await ssml('<speak><phoneme alphabet="x-espeak" ph="sVp@kalIfradZIlIstIk">a</phoneme></speak>'));
    expect(phonemes).toBeGreaterThan(word * 2);
    const ipa = await seconds(await ssml('<speak><phoneme alphabet="ipa" ph="ˌsuːpəˌkælɪˌfrædʒɪˈlɪstɪk">a</phoneme></speak>'));
    expect(ipa).toBeGreaterThan(word * 2);
    const normal = await seconds(await ssml('<speak>A sentence read at its normal speed.</speak>'));
    const slow = await seconds(await ssml('<speak><prosody rate="x-slow">A sentence read at its normal speed.</prosody></speak>'));
    expect(slow).toBeGreaterThan(normal * 1.5);
  });

  it("applies the lexicon of each segment's voice", async () => {
    const entry = { grapheme: 'Zog', alias: 'Zog the magnificent, keeper of the northern gate', language: 'en', voice: 'flite:kal16' };
    const put = await gateway.api('/api/v1/tts/lexicon', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ entries: [entry] }),
    });
    expect(put.status).toBe(200);
    try {
      const flite = (word: string) => ssml(`<speak>${word}. <voice name="flite:kal16">${word}.</voice></speak>`);
      const withEntry = await seconds(await flite('Zog'));
      const without = await seconds(await flite('Zug'));
      expect(withEntry).toBeGreaterThan(without + 1.5);
      // eSpeak's part has no entry: the same either way
      const espeak = (word: string) => ssml(`<speak>${word}.</speak>`);
      expect(Math.abs((await seconds(await espeak('Zog'))) - (await seconds(await espeak('Zug'))))).toBeLessThan(0.15);
    } finally {
      await gateway.api('/api/v1/tts/lexicon', { method: 'DELETE' });
    }
  });

  it('streams SSML', async () => {
    const streamed = async (time: string) => {
      const response = await ssml(BREAK(time), { stream: true, format: 'pcm' });
      expect(response.status).toBe(200);
      return (await response.arrayBuffer()).byteLength / 2 / 24000;
    };
    expect(Math.abs((await streamed('1s')) - (await streamed('0ms')) - 1)).toBeLessThan(0.05);
  });

  it('previews SSML', async () => {
    const response = await gateway.post('/api/v1/tts/preview', { text: BREAK('2s'), text_type: 'ssml' });
    expect(await seconds(response)).toBeGreaterThan(2.5);
  });
});

describe('SSML of any shape', () => {
  it('answers audio, 400 invalid_ssml or 422 unknown_voice, never anything else', async () => {
    const tag = fc.constantFrom(
      '<p>',
      '</p>',
      '<s>',
      '</s>',
      '<break time="200ms"/>',
      '<break strength="x-strong"/>',
      '<voice name="flite:kal16">',
      '<voice name="espeak-ng:de">',
      '<voice name="nope:x">',
      '</voice>',
      '<prosody rate="fast" volume="-6dB">',
      '<prosody pitch="+30st">',
      '</prosody>',
      '<emphasis level="strong">',
      '</emphasis>',
      '<say-as interpret-as="ordinal">',
      '<say-as interpret-as="telephone">',
      '</say-as>',
      '<sub alias="alias">',
      '</sub>',
      '<phoneme alphabet="ipa" ph="həˈloʊ">',
      '</phoneme>',
      '<unknown>',
      '</unknown>',
      '&amp;',
      '&#x1F600;',
      '<',
      '&',
      ']]>',
    );
    const word = fc.constantFrom('Hello', 'world.', '42', '2024-03-05', '555-0100', 'Zoë', '😀', ' ', '\n\n');
    const markup = fc.array(fc.oneof(tag, word), { maxLength: 14 }).map((parts) => `<speak>${parts.join(' ')}</speak>`);
    const seen = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(markup, fc.constantFrom('auto', 'job'), async (text, mode) => {
        const response = await ssml(text, { mode });
        const key = `${response.status}`;
        seen.set(key, (seen.get(key) ?? 0) + 1);
        if (response.status === 200) {
          parseWav(Buffer.from(await response.arrayBuffer()));
          return;
        }
        const body = (await response.json()) as { error: { code: string }; job_id?: string };
        if (response.status === 202) {
          expect(await waitForJob(gateway, body.job_id!)).toMatchObject({ status: 'done' });
          return;
        }
        expect([
          [400, 'invalid_ssml'],
          [422, 'unknown_voice'],
        ]).toContainEqual([response.status, body.error.code]);
      }),
      {
        numRuns: 40,
        // one of each answer for sure, then random documents
        examples: [
          ['<speak>Hello <voice name="flite:kal16">world.</voice></speak>', 'auto'],
          ['<speak><p>Hello</p><break/><say-as interpret-as="ordinal">2</say-as></speak>', 'job'],
          ['<speak>Hello <p>world.</speak>', 'auto'],
          ['<speak><voice name="nope:x">Hello</voice></speak>', 'auto'],
        ],
      },
    );
    expect([...seen.keys()].sort()).toEqual(['200', '202', '400', '422']);
  });
});

describe('SSML on the OpenAI route', () => {
  const speech = (input: string) => gateway.post('/v1/audio/speech', { model: 'tts-1', voice: 'alloy', input, response_format: 'pcm' });
  const pcmSeconds = async (response: Response) => {
    expect(response.status).toBe(200);
    return (await response.arrayBuffer()).byteLength / 2 / 24000;
  };

  it('reads an input that starts with <speak> as SSML', async () => {
    const none = await pcmSeconds(await speech(`  \n${BREAK('0ms')}`));
    const oneSecond = await pcmSeconds(await speech(`  \n${BREAK('1s')}`));
    expect(Math.abs(oneSecond - none - 1)).toBeLessThan(0.05);
    const malformed = await speech('<speak>Hello <break time="x"/></speak>');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ error: { code: 'invalid_ssml', param: 'input', type: 'invalid_request_error' } });
  });
});
