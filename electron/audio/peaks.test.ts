import { describe, expect, it } from 'vitest';
import { PeakAccumulator } from './peaks';

/** The obvious definition, to check the fast one against. */
function naivePeaks(samples: Int16Array, window: number): number[] {
  const peaks: number[] = [];
  for (let start = 0; start < samples.length; start += window) {
    let level = 0;
    for (const s of samples.subarray(start, start + window)) level = Math.max(level, Math.abs(s));
    peaks.push(Math.round((level / 32768) * 1000) / 1000);
  }
  return peaks;
}

describe('PeakAccumulator', () => {
  const samples = Int16Array.from({ length: 10_007 }, (_, i) => Math.round(20_000 * Math.sin(i / 37) * Math.cos(i / 501)));
  samples[5] = -32768;

  it('gives the max absolute level per window, whatever the pieces the audio comes in', () => {
    const expected = naivePeaks(samples, 100); // 5,000 Hz at 50 peaks a second
    for (const piece of [1, 7, 100, 333, 10_007]) {
      const peaks = new PeakAccumulator(5000);
      for (let at = 0; at < samples.length; at += piece) peaks.push(samples.subarray(at, at + piece));
      expect(peaks.finish()).toEqual(expected);
    }
    expect(expected[0]).toBe(1);
  });

  it('counts silence as zero-level windows', () => {
    const peaks = new PeakAccumulator(5000);
    peaks.push(samples.subarray(0, 150));
    peaks.pushSilence(250);
    peaks.push(samples.subarray(150, 300));
    const withSilence = new Int16Array(550);
    withSilence.set(samples.subarray(0, 150), 0);
    withSilence.set(samples.subarray(150, 300), 400);
    expect(peaks.finish()).toEqual(naivePeaks(withSilence, 100));
  });
});
