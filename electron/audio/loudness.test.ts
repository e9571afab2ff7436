import { describe, expect, it } from 'vitest';
import { LoudnessMeter, kWeighting, measureLoudness } from './loudness';

/** `seconds` of a sine whose peak is at `dbfs`, as floats. */
function sine(dbfs: number, seconds: number, rate: number, hz = 1000, phase = 0): Float32Array {
  const amplitude = 10 ** (dbfs / 20);
  return Float32Array.from({ length: Math.round(seconds * rate) }, (_, i) => amplitude * Math.sin((2 * Math.PI * hz * i) / rate + phase));
}

function joined(...parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * EBU Tech 3341 defines its test signals in stereo, the sine in both channels; one channel of
 * weight 1 reads 3.01 dB lower, so the mono equivalent of its "−23 dBFS" sine is at −20 dBFS.
 */
const MONO = 3.0103;

describe('K-weighting', () => {
  it('gives BS.1770-4 tables 1 and 2 at 48 kHz', () => {
    const [shelf, highPass] = kWeighting(48_000);
    expect(shelf.b0).toBeCloseTo(1.53512485958697, 7);
    expect(shelf.b1).toBeCloseTo(-2.69169618940638, 7);
    expect(shelf.b2).toBeCloseTo(1.19839281085285, 7);
    expect(shelf.a1).toBeCloseTo(-1.69065929318241, 7);
    expect(shelf.a2).toBeCloseTo(0.73248077421585, 7);
    expect([highPass.b0, highPass.b1, highPass.b2]).toEqual([1, -2, 1]);
    expect(highPass.a1).toBeCloseTo(-1.99004745483398, 7);
    expect(highPass.a2).toBeCloseTo(0.99007225036621, 7);
  });
});

describe('integrated loudness (EBU Tech 3341, mono equivalents)', () => {
  it('reads a 1 kHz sine at −23 dBFS (stereo) as −23.0 LUFS at any rate', () => {
    for (const rate of [48_000, 44_100, 22_050, 16_000, 11_025]) {
      const report = measureLoudness(sine(-23 + MONO, 20, rate), rate);
      expect(Math.abs(report.integratedLufs - -23), `${rate} Hz: ${report.integratedLufs}`).toBeLessThan(0.1);
    }
  });

  it('reads a 997 Hz sine at 0 dBFS in one channel as −3.01 LUFS (BS.1770-4 §2.1)', () => {
    const report = measureLoudness(sine(0, 10, 44_100, 997), 44_100);
    expect(report.integratedLufs).toBeCloseTo(-3.01, 1);
  });

  it('case 3: −36/−23/−36 dBFS for 10/60/10 s reads −23 LUFS (relative gate drops the quiet parts)', () => {
    const rate = 16_000;
    const signal = joined(sine(-36 + MONO, 10, rate), sine(-23 + MONO, 60, rate), sine(-36 + MONO, 10, rate));
    expect(Math.abs(measureLoudness(signal, rate).integratedLufs - -23)).toBeLessThan(0.1);
  });

  it('case 4: −72/−36/−23/−36/−72 dBFS for 10/10/60/10/10 s reads −23 LUFS (absolute gate)', () => {
    const rate = 16_000;
    const parts: [number, number][] = [
      [-72, 10],
      [-36, 10],
      [-23, 60],
      [-36, 10],
      [-72, 10],
    ];
    const signal = joined(...parts.map(([level, seconds]) => sine(level + MONO, seconds, rate)));
    expect(Math.abs(measureLoudness(signal, rate).integratedLufs - -23)).toBeLessThan(0.1);
  });

  it('case 5: −26/−20/−26 dBFS for 20/20.1/20 s reads −23 LUFS', () => {
    const rate = 16_000;
    const signal = joined(sine(-26 + MONO, 20, rate), sine(-20 + MONO, 20.1, rate), sine(-26 + MONO, 20, rate));
    expect(Math.abs(measureLoudness(signal, rate).integratedLufs - -23)).toBeLessThan(0.1);
  });

  it('gates out silence: a tone with 20 s of silence around it reads as the tone alone', () => {
    const rate = 22_050;
    const tone = sine(-18, 8, rate, 440);
    const alone = measureLoudness(tone, rate);
    const padded = measureLoudness(joined(new Float32Array(10 * rate), tone, new Float32Array(10 * rate)), rate);
    // Ungated, the mean square would fall by 28/8 (5.4 dB); only the six blocks that straddle
    // the tone's edges (a quarter to three quarters tone) pass the gates and lower it a little.
    expect(Math.abs(padded.integratedLufs - alone.integratedLufs)).toBeLessThan(0.3);
    expect(padded.blocks).toBeGreaterThan(alone.blocks + 190);
    expect(padded.gatedBlocks).toBeLessThanOrEqual(alone.gatedBlocks + 6);
  });

  it('reads silence and signals shorter than one block as −Infinity', () => {
    expect(measureLoudness(new Float32Array(48_000), 48_000).integratedLufs).toBe(-Infinity);
    expect(measureLoudness(sine(-10, 0.3, 48_000), 48_000).integratedLufs).toBe(-Infinity);
  });

  it('gives the same figures for Int16 and float input, and for any pieces', () => {
    const rate = 22_050;
    const floats = joined(sine(-30, 3, rate, 300), new Float32Array(rate), sine(-12, 2, rate, 2500));
    const ints = Int16Array.from(floats, (x) => Math.round(x * 32768));
    const whole = measureLoudness(floats, rate);
    const fromInts = measureLoudness(ints, rate);
    expect(Math.abs(fromInts.integratedLufs - whole.integratedLufs)).toBeLessThan(0.01);
    for (const piece of [1, 333, 4410]) {
      const meter = new LoudnessMeter(rate);
      for (let at = 0; at < floats.length; at += piece) meter.push(floats.subarray(at, at + piece));
      const report = meter.finish();
      expect(report.integratedLufs).toBeCloseTo(whole.integratedLufs, 9);
      expect(report.truePeakDbtp).toBeCloseTo(whole.truePeakDbtp, 9);
    }
  });
});

describe('true peak (BS.1770-4 Annex 2)', () => {
  it('finds the peak between samples: a sine at rate/4 sampled 45° off its crests', () => {
    const rate = 48_000;
    // Every sample is at ±A/√2 while the waveform reaches A between them: sample peak −3 dB.
    const signal = sine(-6, 1, rate, rate / 4, Math.PI / 4);
    const report = measureLoudness(signal, rate);
    expect(report.samplePeakDbfs).toBeCloseTo(-9.01, 1);
    // EBU Tech 3341 allows +0.2/−0.4 dB for true-peak meters.
    expect(report.truePeakDbtp).toBeGreaterThan(-6.4);
    expect(report.truePeakDbtp).toBeLessThan(-5.8);
  });

  it('equals the amplitude of a low-frequency sine, and reads full-scale Int16 as 0 dBTP', () => {
    expect(measureLoudness(sine(-3, 1, 22_050, 200), 22_050).truePeakDbtp).toBeCloseTo(-3, 1);
    const square = Int16Array.from({ length: 2205 }, (_, i) => (i % 100 < 50 ? -32768 : 32767));
    expect(measureLoudness(square, 22_050).truePeakDbtp).toBeGreaterThan(0); // square waves overshoot
    expect(measureLoudness(new Int16Array(100), 22_050).truePeakDbtp).toBe(-Infinity);
  });
});

describe('the steps of a signal', () => {
  it('are the blocks in 100 ms pieces, with the largest sample of each', () => {
    const rate = 22_050;
    // a quiet second, a loud second, a quiet half second
    const meter = new LoudnessMeter(rate);
    meter.push(joined(sine(-30, 1, rate), sine(-6, 1, rate), sine(-30, 0.5, rate)));
    const { powers, peaks } = meter.steps();
    const blocks = meter.blockPowers();
    expect(powers.length).toBe(25);
    blocks.forEach((block, i) => expect((powers[i]! + powers[i + 1]! + powers[i + 2]! + powers[i + 3]!) / 4).toBeCloseTo(block, 9));
    expect(20 * Math.log10(peaks[5]!)).toBeCloseTo(-30, 1);
    expect(20 * Math.log10(peaks[15]!)).toBeCloseTo(-6, 1);
    expect(20 * Math.log10(Math.max(...peaks))).toBeCloseTo(meter.finish().samplePeakDbfs, 6);
  });
});
