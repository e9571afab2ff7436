import { describe, expect, it } from 'vitest';
import { LEVEL_FACTOR, PeakLevels } from './peak-levels';

/** The obvious definition: the largest absolute sample of each window. */
function direct(samples: Int16Array, window: number): number[] {
  const peaks: number[] = [];
  for (let start = 0; start < samples.length; start += window) {
    let level = 0;
    for (const s of samples.subarray(start, start + window)) level = Math.max(level, Math.abs(s));
    peaks.push(level);
  }
  return peaks;
}

describe('PeakLevels', () => {
  // 5,000 Hz: level 0 has windows of 100 samples, level k of 100·4^k
  const samples = Int16Array.from({ length: 123_457 }, (_, i) => Math.round(20_000 * Math.sin(i / 37) * Math.cos(i / 1501)));
  samples[5] = -32768;
  samples[90_000] = 32767;

  it('gives every level the peaks of a direct computation, whatever pieces the audio comes in', () => {
    for (const piece of [1, 99, 4410, 123_457]) {
      const levels = new PeakLevels(5000);
      const base: number[] = [];
      for (let at = 0; at < samples.length; at += piece) {
        levels.push(samples.subarray(at, at + piece));
        base.push(...levels.takeBase());
      }
      const { base: rest, coarse } = levels.finish();
      base.push(...rest);
      expect(base).toEqual(direct(samples, 100));
      expect(coarse.length).toBeGreaterThan(3);
      for (const [i, level] of coarse.entries()) expect([...level]).toEqual(direct(samples, 100 * LEVEL_FACTOR ** (i + 1)));
      expect(coarse.at(-1)).toEqual(Uint16Array.of(32768));
    }
  });
});
