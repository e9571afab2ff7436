import { describe, expect, it } from 'vitest';
import { Resampler } from './resampler';

const sine = (rate: number, hz: number, seconds: number) =>
  Int16Array.from({ length: Math.round(rate * seconds) }, (_, i) => Math.round(16000 * Math.sin((2 * Math.PI * hz * i) / rate)));

/** Frequency from upward zero crossings, amplitude from the RMS, away from the edges. */
function measure(samples: Int16Array, rate: number) {
  const middle = samples.subarray(rate / 10, samples.length - rate / 10);
  let crossings = 0;
  let energy = 0;
  for (let i = 1; i < middle.length; i++) {
    if (middle[i - 1]! < 0 && middle[i]! >= 0) crossings++;
    energy += middle[i]! ** 2;
  }
  return { hz: (crossings * rate) / middle.length, peak: Math.sqrt((2 * energy) / middle.length) };
}

async function resample(input: Int16Array, from: number, to: number, piece: number) {
  const resampler = await Resampler.create(from, to);
  const parts: Int16Array[] = [];
  for (let at = 0; at < input.length; at += piece) parts.push(resampler.push(input.subarray(at, at + piece)));
  parts.push(resampler.finish());
  const out = new Int16Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

describe('Resampler', () => {
  it.each([
    [22050, 24000],
    [16000, 48000],
    [44100, 24000],
  ])('%i Hz to %i Hz keeps pitch, level and length', async (from, to) => {
    const out = await resample(sine(from, 1000, 2), from, to, 4410);
    expect(out.length).toBe(2 * to);
    const { hz, peak } = measure(out, to);
    expect(hz).toBeCloseTo(1000, -1);
    expect(peak).toBeGreaterThan(16000 * 0.97);
    expect(peak).toBeLessThan(16000 * 1.03);
  });

  it('gives the same samples whatever pieces the input comes in', async () => {
    const input = sine(22050, 440, 1.3);
    const whole = await resample(input, 22050, 24000, input.length);
    for (const piece of [1, 97, 2048]) expect(await resample(input, 22050, 24000, piece)).toEqual(whole);
  });

  it('starts in step with its input: no filter delay in front', async () => {
    const click = new Int16Array(22050);
    click[11025] = 30000;
    const out = await resample(click, 22050, 24000, 22050);
    const at = out.indexOf(Math.max(...out));
    expect(Math.abs(at - 12000)).toBeLessThanOrEqual(1);
  });

  it('refuses audio once finished', async () => {
    const resampler = await Resampler.create(22050, 24000);
    resampler.finish();
    expect(() => resampler.push(new Int16Array(10))).toThrow('closed');
  });
});
