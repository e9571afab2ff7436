/**
 * Loudness per ITU-R BS.1770-4 (the meter of EBU R 128): K-weighting (a high shelf, then the RLB
 * high-pass), mean square over 400 ms blocks overlapping by 75 % (a block every 100 ms), an
 * absolute gate at −70 LUFS and a relative gate 10 LU below the loudness of the blocks above it;
 * integrated loudness from the blocks that pass both. True peak by the 4× interpolator of
 * Annex 2 (`true-peak.ts`).
 *
 * Mono signals are one channel of weight 1, as the standard measures a single channel: a 1 kHz
 * sine at 0 dBFS reads −3.01 LUFS (and EBU Tech 3341's stereo sine at −23 dBFS, −23 LUFS, is the
 * mono sine at −20 dBFS). Pure: no Node or DOM imports, so the studio and the export share it.
 */
import { TruePeakMeter, toDb } from './true-peak';

export interface Biquad {
  b0: number;
  b1: number;
  b2: number;
  a1: number;
  a2: number;
}

/**
 * The two K-weighting stages for any rate: the analogue prototypes of BS.1770's 48 kHz filters
 * (shelf at 1681.97 Hz, +4.0 dB; high-pass at 38.14 Hz) through the bilinear transform. At 48 kHz
 * they give the coefficients printed in the standard's tables 1 and 2.
 */
export function kWeighting(sampleRate: number): [Biquad, Biquad] {
  const shelfK = Math.tan((Math.PI * 1681.974450955533) / sampleRate);
  const shelfQ = 0.7071752369554196;
  const vh = 10 ** (3.999843853973347 / 20);
  const vb = vh ** 0.4996667741545416;
  const shelfA0 = 1 + shelfK / shelfQ + shelfK * shelfK;
  const shelf: Biquad = {
    b0: (vh + (vb * shelfK) / shelfQ + shelfK * shelfK) / shelfA0,
    b1: (2 * (shelfK * shelfK - vh)) / shelfA0,
    b2: (vh - (vb * shelfK) / shelfQ + shelfK * shelfK) / shelfA0,
    a1: (2 * (shelfK * shelfK - 1)) / shelfA0,
    a2: (1 - shelfK / shelfQ + shelfK * shelfK) / shelfA0,
  };
  const passK = Math.tan((Math.PI * 38.13547087602444) / sampleRate);
  const passQ = 0.5003270373238773;
  const passA0 = 1 + passK / passQ + passK * passK;
  // The standard's RLB stage has numerator 1, −2, 1 (unnormalised); only the gain differs from
  // a normalised high-pass, and BS.1770's −0.691 dB offset is computed with it.
  const highPass: Biquad = {
    b0: 1,
    b1: -2,
    b2: 1,
    a1: (2 * (passK * passK - 1)) / passA0,
    a2: (1 - passK / passQ + passK * passK) / passA0,
  };
  return [shelf, highPass];
}

/** A signal's 100 ms steps (LoudnessMeter.steps): K-weighted mean square and largest sample of each. */
export interface StepLevels {
  powers: Float64Array;
  peaks: Float32Array;
}

export interface LoudnessReport {
  /** Integrated loudness in LUFS; −Infinity when no block passes the gates (silence, < 400 ms). */
  integratedLufs: number;
  /** True peak in dBTP (4× interpolated); −Infinity for digital silence, or when not measured. */
  truePeakDbtp: number;
  /** Largest sample, in dBFS. */
  samplePeakDbfs: number;
  /** Blocks that passed both gates, of `blocks` complete 400 ms blocks. */
  gatedBlocks: number;
  blocks: number;
  durationS: number;
}

const ABSOLUTE_GATE_LUFS = -70;
const RELATIVE_GATE_LU = -10;

const loudnessOf = (meanSquare: number): number => -0.691 + 10 * Math.log10(meanSquare);

/** Measures a mono signal pushed in pieces of any size; `Int16Array` full scale is 32768. */
export class LoudnessMeter {
  private readonly stages: [Biquad, Biquad];
  private readonly truePeak = new TruePeakMeter();
  /** Sum of squares and sample count of each 100 ms step; a block is four steps. */
  private readonly stepSums: number[] = [];
  private readonly stepLengths: number[] = [];
  /** The largest sample of each 100 ms step (what the limiter's model reads: limiting-model.ts). */
  private readonly stepPeaks: number[] = [];
  private stepPeak = 0;
  private stepSum = 0;
  private stepFill = 0;
  private samples = 0;
  private samplePeak = 0;
  private readonly s1 = [0, 0, 0, 0]; // shelf: x[n-1], x[n-2], y[n-1], y[n-2]
  private readonly s2 = [0, 0, 0, 0]; // high-pass: the same

  /** `truePeak: false` skips the 4× interpolation (most of the cost) when only loudness is wanted. */
  constructor(
    readonly sampleRate: number,
    private readonly options: { truePeak: boolean } = { truePeak: true },
  ) {
    if (!(sampleRate > 0)) throw new RangeError('The sample rate must be positive.');
    this.stages = kWeighting(sampleRate);
  }

  push(chunk: Int16Array | Float32Array | Float64Array): void {
    const scale = chunk instanceof Int16Array ? 1 / 32768 : 1;
    const [f, g] = this.stages;
    const a = this.s1;
    const b = this.s2;
    for (let i = 0; i < chunk.length; i++) {
      const x = chunk[i]! * scale;
      const y = f.b0 * x + f.b1 * a[0]! + f.b2 * a[1]! - f.a1 * a[2]! - f.a2 * a[3]!;
      a[1] = a[0]!;
      a[0] = x;
      a[3] = a[2]!;
      a[2] = y;
      const z = g.b0 * y + g.b1 * b[0]! + g.b2 * b[1]! - g.a1 * b[2]! - g.a2 * b[3]!;
      b[1] = b[0]!;
      b[0] = y;
      b[3] = b[2]!;
      b[2] = z;
      this.stepSum += z * z;
      this.stepFill++;
      this.samples++;
      const level = x < 0 ? -x : x;
      if (level > this.stepPeak) this.stepPeak = level;
      // Step ends fall on round(k × rate / 10), so rates that are no multiple of 10 stay exact.
      if (this.samples === Math.round(((this.stepSums.length + 1) * this.sampleRate) / 10)) {
        this.stepSums.push(this.stepSum);
        this.stepLengths.push(this.stepFill);
        this.stepPeaks.push(this.stepPeak);
        if (this.stepPeak > this.samplePeak) this.samplePeak = this.stepPeak;
        this.stepSum = 0;
        this.stepFill = 0;
        this.stepPeak = 0;
      }
      if (this.options.truePeak) this.truePeak.push(x);
    }
  }

  /** Pushes `samples` of digital silence (pauses, room tone) without making an array of them. */
  pushSilence(samples: number): void {
    const block = new Float32Array(Math.min(samples, 65536));
    for (let left = samples; left > 0; left -= block.length) this.push(block.subarray(0, Math.min(left, block.length)));
  }

  /** The figures of everything pushed; the meter is spent afterwards. */
  finish(): LoudnessReport {
    const blocks = this.blockPowers();
    const { integratedLufs, gatedBlocks } = gatedLoudness([blocks]);
    return {
      integratedLufs,
      truePeakDbtp: toDb(this.truePeak.finish()),
      samplePeakDbfs: toDb(Math.max(this.samplePeak, this.stepPeak)),
      gatedBlocks,
      blocks: blocks.length,
      durationS: this.samples / this.sampleRate,
    };
  }

  /** The mean square and the largest sample of each complete 100 ms step so far (limiting-model.ts). */
  steps(): StepLevels {
    return {
      powers: Float64Array.from(this.stepSums, (sum, i) => sum / this.stepLengths[i]!),
      peaks: Float32Array.from(this.stepPeaks),
    };
  }

  /** The mean square of each complete 400 ms block so far, for gatedLoudness (a book joined from parts). */
  blockPowers(): Float64Array {
    const blocks = new Float64Array(Math.max(0, this.stepSums.length - 3));
    for (let i = 0; i < blocks.length; i++) {
      let sum = 0;
      let length = 0;
      for (let j = i; j < i + 4; j++) {
        sum += this.stepSums[j]!;
        length += this.stepLengths[j]!;
      }
      blocks[i] = sum / length;
    }
    return blocks;
  }
}

/**
 * Integrated loudness of the blocks of one signal or of several joined (BS.1770's gates apply to
 * the blocks of the whole), each block's power scaled by `gainDb`. Joined parts lose only the
 * blocks that would straddle their joins: silence, in an export, which the gates drop anyway.
 */
export function gatedLoudness(parts: readonly ArrayLike<number>[], gainDb = 0): { integratedLufs: number; gatedBlocks: number } {
  const scale = 10 ** (gainDb / 10);
  const above: number[] = [];
  for (const blocks of parts) {
    for (let i = 0; i < blocks.length; i++) {
      const z = blocks[i]! * scale;
      if (loudnessOf(z) > ABSOLUTE_GATE_LUFS) above.push(z);
    }
  }
  const relativeGate = loudnessOf(mean(above)) + RELATIVE_GATE_LU;
  const gated = above.filter((z) => loudnessOf(z) > relativeGate);
  return { integratedLufs: gated.length > 0 ? loudnessOf(mean(gated)) : -Infinity, gatedBlocks: gated.length };
}

function mean(values: number[]): number {
  let sum = 0;
  for (const v of values) sum += v;
  return values.length > 0 ? sum / values.length : 0;
}

/** Integrated loudness and true peak of a whole mono signal. */
export function measureLoudness(samples: Int16Array | Float32Array | Float64Array, sampleRate: number): LoudnessReport {
  const meter = new LoudnessMeter(sampleRate);
  meter.push(samples);
  return meter.finish();
}
