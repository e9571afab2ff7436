import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseWav, WAV_HEADER_BYTES } from '../audio/wav';
import { FAKE_SAMPLE_RATE, levelOf, SAMPLES_PER_CHAR } from '../testing/fake-engine';
import { startJobHarness, type JobHarness } from '../testing/job-harness';
import { sampleSentence } from './sample-sentences';
import { SynthesisService, type InlineAudio } from './synthesis';

// SynthesisService built directly on the fake engine and an in-memory job store: no HTTP.

const EXPIRY = '2030-01-01T00:00:00.000Z';
let h: JobHarness;
let service: SynthesisService;
beforeEach(async () => {
  h = await startJobHarness();
  h.runner.pause(); // jobs stay queued: these tests are about what the service hands over
  service = new SynthesisService(
    h.registry,
    h.runner,
    () => ({ inlineThreshold: 20, maxTextLength: 100, previewMaxChars: 60 }),
    () => EXPIRY,
  );
});
afterEach(() => h.close());

function samplesOf(audio: InlineAudio): Int16Array {
  const info = parseWav(audio.audio);
  expect(info.sampleRate).toBe(FAKE_SAMPLE_RATE);
  return new Int16Array(audio.audio.buffer, audio.audio.byteOffset + WAV_HEADER_BYTES, info.dataBytes / 2);
}

describe('SynthesisService', () => {
  it('answers short text inline: a WAV of the engine’s audio, in the interactive lane, with the volume applied', async () => {
    const result = await service.synthesize({ text: 'Short text.', volume: 0.5 });
    if (result.kind !== 'inline') throw new Error(`expected inline audio, got ${result.kind}`);
    const samples = samplesOf(result);
    expect(samples.length).toBe('Short text.'.length * SAMPLES_PER_CHAR);
    expect(samples[0]).toBe(Math.round(levelOf('Short text.') * 0.5));
    expect(result).toMatchObject({ engine: 'fake', voice: 'fake:plain', durationS: samples.length / FAKE_SAMPLE_RATE });
    expect(h.engine.calls[0]!.context.lane).toBe('interactive');
    expect(h.store.unfinishedTotals().jobs).toBe(0);
  });

  it('turns control characters into spaces before the engine sees them', async () => {
    await service.synthesize({ text: 'a\u0000b\u001bc\td' });
    expect(h.engine.calls[0]!.request.text).toBe('a b c\td');
  });

  it('queues text over the inline threshold, or asked for as a job, with the expiry of a new job', async () => {
    const long = await service.synthesize({ text: 'This text is longer than twenty.' });
    const asked = await service.synthesize({ text: 'Short.', mode: 'job' });
    for (const result of [long, asked]) {
      if (result.kind !== 'job') throw new Error('expected a job');
      expect(result.job).toMatchObject({ status: 'running', engine: 'fake', voice: 'fake:plain', expires_at: EXPIRY });
    }
    expect(h.store.unfinishedTotals()).toEqual({ jobs: 2, characters: 32 + 6 });
    expect(h.engine.calls).toHaveLength(0);
  });

  it('counts code points, not UTF-16 units, against the maximum length', async () => {
    const astral = '𝔸'.repeat(100); // 200 UTF-16 units
    await expect(service.synthesize({ text: astral, mode: 'job' })).resolves.toMatchObject({ kind: 'job' });
    await expect(service.synthesize({ text: astral + 'x' })).rejects.toMatchObject({
      code: 'text_too_long',
      message: 'text has 101 characters; the maximum is 100.',
    });
  });

  it('refuses an unknown voice before anything is synthesized', async () => {
    await expect(service.synthesize({ text: 'Hi.', voice: 'fake:nobody' })).rejects.toMatchObject({ code: 'unknown_voice' });
    expect(h.engine.calls).toHaveLength(0);
  });

  it("previews a voice with its language's sample sentence, or a short text; longer text is refused", async () => {
    const sample = await service.preview({ voice: 'fake:plain' });
    expect(h.engine.calls[0]!.request.text).toBe(sampleSentence('en'));
    expect(samplesOf(sample)[0]).toBe(levelOf(sampleSentence('en')));
    await service.preview({ text: 'x'.repeat(60) });
    await expect(service.preview({ text: 'x'.repeat(61) })).rejects.toMatchObject({
      code: 'text_too_long',
      message: 'Preview text has 61 characters; the maximum is 60.',
    });
  });

  it('reports an engine failure as engine_error', async () => {
    h.engine.behaviour = () => new Error('no audio device');
    await expect(service.synthesize({ text: 'Hi.' })).rejects.toMatchObject({
      code: 'engine_error',
      status: 502,
      message: 'The engine failed: no audio device',
    });
  });
});
