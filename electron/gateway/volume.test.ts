import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeWav } from '../audio/wav';
import type { EngineList } from '../contract';
import { startTestGateway, type TestGateway } from '../testing/gateway';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.stop());

const TEXT = 'The quick brown fox jumps over the lazy dog.';

/**
 * The loudest sample of the voice's speech at a volume. Peaks, not RMS: GnuSpeech adds random noise,
 * so its RMS moves ±10 % between two syntheses of one text, while its peak (and a gain's effect on it) does not.
 */
async function peakAt(voice: string, volume: number): Promise<number> {
  const response = await gateway.post('/api/v1/tts/synthesize', { text: TEXT, voice, volume });
  expect(response.status).toBe(200);
  const { samples } = decodeWav(Buffer.from(await response.arrayBuffer()));
  let peak = 0;
  for (const s of samples) peak = Math.max(peak, Math.abs(s));
  return peak;
}

describe('volume', () => {
  it('is silence at 0 and linear in amplitude on every available engine', async () => {
    const { engines } = (await (await gateway.api('/api/v1/tts/engines')).json()) as EngineList;
    const available = engines.filter((e) => e.available);
    expect(available.length).toBeGreaterThan(0);
    const measured: Record<string, number[]> = {};
    for (const engine of available) {
      const detail = (await (await gateway.api(`/api/v1/tts/engines/${engine.id}`)).json()) as {
        voices: { id: string; language: string }[];
      };
      const voice = (detail.voices.find((v) => v.language.startsWith('en')) ?? detail.voices[0])!.id;
      measured[engine.id] = [await peakAt(voice, 0), await peakAt(voice, 0.5), await peakAt(voice, 1)];
    }
    for (const [id, [silent, half, full]] of Object.entries(measured)) {
      expect(full, id).toBeGreaterThan(3000);
      expect(silent, id).toBe(0);
      expect(half! / full!, id).toBeCloseTo(0.5, 1);
    }
    console.log(
      `volume peaks at 0 / 0.5 / 1: ${Object.entries(measured)
        .map(([id, levels]) => `${id} ${levels.join('/')}`)
        .join(', ')}`,
    );
  });
});
