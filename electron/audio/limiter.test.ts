import { describe, expect, it } from 'vitest';
import { PeakLimiter } from './limiter';
import { TruePeakMeter } from './true-peak';

const RATE = 22_050;

function run(limiter: PeakLimiter, input: Int16Array, piece = 1000): Float32Array {
  const parts: Float32Array[] = [];
  for (let at = 0; at < input.length; at += piece) parts.push(limiter.push(input.subarray(at, at + piece)));
  parts.push(limiter.finish());
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

// speech-like: bursts of a tone with sharp peaks on top
const input = Int16Array.from({ length: RATE * 2 }, (_, i) => {
  const burst = Math.sin((2 * Math.PI * 3 * i) / RATE) > 0 ? 1 : 0.1;
  const spike = i % 5000 === 2500 ? 30000 : 0;
  return Math.round(burst * 9000 * Math.sin((2 * Math.PI * 220 * i) / RATE)) + spike;
});

describe('PeakLimiter', () => {
  it('keeps every sample under the ceiling, with as many samples out as in, in place', () => {
    const ceiling = 0.5;
    const out = run(new PeakLimiter(RATE, 1.5, ceiling), input, 777);
    expect(out.length).toBe(input.length);
    expect(Math.max(...out.map(Math.abs))).toBeLessThanOrEqual(ceiling + 1e-6);
    // away from the spikes, the gain is what was asked: aligned, not delayed
    const quiet = 1200;
    expect(out[quiet]).toBeCloseTo((input[quiet]! / 32768) * 1.5, 3);
  });

  it('leaves audio under the ceiling alone, whatever the pieces', () => {
    const out = run(new PeakLimiter(RATE, 0.5, 0.99), input, 1);
    for (let i = 0; i < input.length; i += 97) expect(out[i]).toBeCloseTo((input[i]! / 32768) * 0.5, 6);
  });

  it('holds the peaks between samples too: a tone at a quarter of the rate, sampled off its crests', () => {
    // every sample at 0.707 of the crest: a sample-peak limiter sees 3 dB less than a player makes
    const tone = Int16Array.from({ length: RATE }, (_, i) => Math.round(20000 * Math.sin((Math.PI * i) / 2 + Math.PI / 4)));
    const ceiling = 0.5;
    const out = run(new PeakLimiter(RATE, 1, ceiling), tone, 500);
    const meter = new TruePeakMeter();
    for (const sample of out) meter.push(sample);
    expect(meter.finish()).toBeLessThanOrEqual(ceiling * 1.01);
    expect(meter.finish()).toBeGreaterThan(ceiling * 0.95);
  });

  it('gives back every sample of pieces shorter than its detector', () => {
    for (const length of [1, 3, 6, 7, 13]) expect(run(new PeakLimiter(RATE, 1, 0.5), input.subarray(0, length), 2)).toHaveLength(length);
  });
});
