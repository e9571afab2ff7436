import { describe, expect, it } from 'vitest';
import { absolutePeak, windowPeaks } from './peak';

describe('windowPeaks', () => {
  // noise over a swell, with both extremes: -32768 has no 16-bit absolute value, so it must not wrap
  let seed = 7;
  const noise = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31) * 2 - 1;
  const samples = Int16Array.from({ length: 200_003 }, (_, i) => Math.round(30_000 * noise() * Math.abs(Math.sin(i / 5000))));
  samples[17] = -32768;
  samples[150_001] = 32767;

  it('gives each window the largest absolute sample, for windows of any size and any start', () => {
    // 1 and 7: no lane of eight fills; 441 and 221: a second of 22,050 Hz audio by 50 and 100;
    // 100,000: a window larger than the slice the kernel's memory holds
    for (const window of [1, 7, 8, 9, 221, 441, 100_000]) {
      for (const start of [0, 3, 199_999]) {
        const expected: number[] = [];
        for (let at = start; at < samples.length; at += window)
          expected.push(absolutePeak(samples, at, Math.min(samples.length, at + window)));
        expect([...windowPeaks(samples, start, window)], `window ${window} from ${start}`).toEqual(expected);
      }
    }
    expect(Math.max(...windowPeaks(samples, 0, 441))).toBe(32768);
  });

  it('gives nothing for nothing', () => {
    expect(windowPeaks(new Int16Array(0), 0, 441)).toHaveLength(0);
    expect(windowPeaks(samples, samples.length, 441)).toHaveLength(0);
  });
});
