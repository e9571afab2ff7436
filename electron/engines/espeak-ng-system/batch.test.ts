// Batches on the real espeak-ng program (Debian's espeak-ng, installed by .ci/run): several texts
// in one run, split again at the breaks, against the same texts each in a run of its own.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Pcm } from '../../audio/pcm';
import { encodeWav } from '../../audio/wav';
import { expectSpeech } from '../../testing/audio';
import type { EngineAdapter, SynthesisRequest } from '../engine';
import { espeakSystemAdapter } from './adapter';

const TEXTS = [
  'The first chapter begins on a quiet morning.',
  'Tom & Jerry said "3 < 4 > 2", which is [[h@l\'oU]] odd.',
  'A third, much longer text follows here; it has a clause, then another one, and ends at last.',
];

let espeak: EngineAdapter;
const request = (text: string, rate = 1, voice = 'en-us'): SynthesisRequest => ({ text, voice, rate, pitch: 1, volume: 1 });
const seconds = (pcm: Pcm) => pcm.samples.length / pcm.sampleRate;

beforeAll(async () => {
  espeak = espeakSystemAdapter({ concurrency: 1 });
  expect(await espeak.probe()).toMatchObject({ available: true });
});

describe('espeak-ng batches', () => {
  // mb-us1: an MBROLA voice (16 kHz, its own synthesizer), installed by .ci/run
  it.each([
    ['en-us', 0.5],
    ['en-us', 1],
    ['en-us', 4],
    ['mb-us1', 1],
  ])('gives each text in %s at rate %s the audio it has alone, within a few percent', async (voice, rate) => {
    const batch = await espeak.synthesizeBatch!(
      TEXTS.map((t) => request(t, rate, voice)),
      { lane: 'batch' },
    );
    expect(batch).toHaveLength(TEXTS.length);
    for (const [i, text] of TEXTS.entries()) {
      const alone = await espeak.synthesize(request(text, rate, voice), { lane: 'batch' });
      expectSpeech(encodeWav(batch[i]!));
      // the same speech, with the silence before and after of a text alone; the intonation at the
      // end of a text may differ by a little
      expect(Math.abs(seconds(batch[i]!) - seconds(alone)) / seconds(alone), `text ${i}`).toBeLessThan(0.05);
    }
  });

  it('refuses a batch whose texts it cannot tell apart: one said nothing', async () => {
    await expect(espeak.synthesizeBatch!([request(TEXTS[0]!), request('...'), request(TEXTS[1]!)], { lane: 'batch' })).rejects.toThrow(
      /could not be told apart/,
    );
  });
});
