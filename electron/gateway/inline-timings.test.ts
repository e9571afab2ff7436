import { describe, expect, it } from 'vitest';
import { decodeWav } from '../audio/wav';
import { AUDIO_HEADERS, inlineTimingsOf, type InlineSentence } from '../contract';
import { useTestGateways } from '../testing/gateway';

const gateways = useTestGateways();

// irregular whitespace, a character outside the BMP, and two paragraphs
const TEXT = '  The lighthouse keeper climbed the stairs.\tThe 𝔸 storm rolled in!\n\nRain hit the glass.   Nobody slept that night.';

function rms(samples: Int16Array, from: number, until: number): number {
  const to = Math.min(until, samples.length);
  let energy = 0;
  for (let i = from; i < to; i++) energy += samples[i]! * samples[i]!;
  return Math.sqrt(energy / Math.max(1, to - from));
}

describe('inline answers: X-Orator-Timings', () => {
  it("places each sentence in the text as sent and in the audio, at the engine's pauses", async () => {
    const gateway = await gateways.start();
    const response = await gateway.post('/api/v1/tts/synthesize', { text: TEXT, voice: 'espeak-ng:en-us' });
    expect(response.status).toBe(200);
    const header = response.headers.get(AUDIO_HEADERS.timings);
    const raw = JSON.parse(header!) as InlineSentence[];
    const durationS = Number(response.headers.get(AUDIO_HEADERS.duration));
    const timings = inlineTimingsOf(header, TEXT, durationS)!;

    expect(timings.sentences.map((s) => s.text)).toEqual([
      'The lighthouse keeper climbed the stairs.',
      'The 𝔸 storm rolled in!',
      'Rain hit the glass.',
      'Nobody slept that night.',
    ]);
    expect(raw.map((s) => s.length)).toEqual([4, 5, 4, 4]); // the second ends its paragraph
    expect(timings.sentences[1]!.paragraph_end).toBe(true);
    // code points: the 𝔸 (two UTF-16 units) counts one
    expect(timings.sentences[2]!.text_start).toBe([...TEXT].indexOf('R'));

    const { samples, sampleRate } = decodeWav(Buffer.from(await response.arrayBuffer()));
    const at = (seconds: number) => Math.round(seconds * sampleRate);
    let previousEnd = 0;
    for (const sentence of timings.sentences) {
      expect(sentence.start_s).toBeGreaterThanOrEqual(previousEnd);
      expect(sentence.end_s).toBeGreaterThan(sentence.start_s + 0.3);
      expect(sentence.end_s).toBeLessThanOrEqual(durationS + 0.001);
      expect(rms(samples, at(sentence.start_s), at(sentence.end_s))).toBeGreaterThan(500);
      // espeak pauses between sentences: each boundary lies in a quiet gap
      if (previousEnd > 0) {
        expect(sentence.start_s - previousEnd).toBeGreaterThanOrEqual(0.05);
        expect(rms(samples, at(previousEnd), at(sentence.start_s))).toBeLessThan(100);
      }
      previousEnd = sentence.end_s;
    }
  });

  it('comes with previews of a given text, and is left out when it would be too long', async () => {
    const gateway = await gateways.start({ inlineThreshold: 2000 });
    const preview = await gateway.post('/api/v1/tts/preview', { text: 'One. Two.', voice: 'espeak-ng:en-us' });
    expect(JSON.parse(preview.headers.get(AUDIO_HEADERS.timings)!)).toHaveLength(2);
    // 400 sentences are more than the header may carry (INLINE_TIMINGS_MAX_BYTES)
    const many = await gateway.post('/api/v1/tts/synthesize', { text: 'No. '.repeat(400).trim(), voice: 'espeak-ng:en-us' });
    expect(many.status).toBe(200);
    expect(many.headers.get(AUDIO_HEADERS.timings)).toBeNull();
  });
});
