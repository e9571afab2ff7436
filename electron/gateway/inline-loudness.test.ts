import { describe, expect, it } from 'vitest';
import { measureLoudness } from '../audio/loudness';
import { decodeWav } from '../audio/wav';
import { AUDIO_HEADERS } from '../contract';
import { useTestGateways } from '../testing/gateway';

const gateways = useTestGateways();
const TEXT = 'The quick brown fox jumps over the lazy dog, and the narrator reads it twice.';

describe('inline answers: X-Orator-Loudness-LUFS', () => {
  it('is the integrated loudness of the audio sent, follows the volume, and is absent for silence', async () => {
    const gateway = await gateways.start();
    const speak = (volume: number, format?: string) =>
      gateway.post('/api/v1/tts/preview', { text: TEXT, voice: 'espeak-ng:en-us', volume, ...(format ? { format } : {}) });

    const full = await speak(1);
    const stated = Number(full.headers.get(AUDIO_HEADERS.loudness));
    const { samples, sampleRate } = decodeWav(Buffer.from(await full.arrayBuffer()));
    expect(stated).toBeCloseTo(measureLoudness(samples, sampleRate).integratedLufs, 2);
    expect(stated).toBeGreaterThan(-40);
    expect(stated).toBeLessThan(-5);

    // half the amplitude is 6.02 dB quieter (espeak-ng sets its own amplitude, to within a few per cent)
    const half = Number((await speak(0.5)).headers.get(AUDIO_HEADERS.loudness));
    expect(Math.abs(stated - half - 6.02)).toBeLessThan(0.5);
    // measured before encoding: the same in any format
    expect(Number((await speak(1, 'flac')).headers.get(AUDIO_HEADERS.loudness))).toBe(stated);

    const silent = await speak(0);
    expect(silent.status).toBe(200);
    expect(silent.headers.get(AUDIO_HEADERS.loudness)).toBeNull();
  });
});
