/**
 * True peak per ITU-R BS.1770-4 Annex 2: the signal is interpolated 4× with the Annex's 48-tap
 * polyphase FIR (4 phases of 12 taps) and the largest absolute value of the interpolated signal
 * is the true peak. The filter's cutoff is relative to the sampling rate, so it serves any rate;
 * below 48 kHz the interpolated rate is under the 192 kHz the Annex has in mind, which can miss a
 * few tenths of a dB on content near Nyquist (speech has little there).
 *
 * Pure: no Node or DOM imports, so the studio and the export share it.
 */

const TAPS = 12;

/** Annex 2, table 1: phase p gives the point p/4 of a sample period after the centre tap. */
const PHASES: readonly (readonly number[])[] = [
  [
    0.001708984375, 0.010986328125, -0.0196533203125, 0.033203125, -0.0594482421875, 0.1373291015625, 0.97216796875, -0.102294921875,
    0.047607421875, -0.026611328125, 0.014892578125, -0.00830078125,
  ],
  [
    -0.0291748046875, 0.029296875, -0.0517578125, 0.089111328125, -0.16650390625, 0.465087890625, 0.77978515625, -0.2003173828125,
    0.1015625, -0.0582275390625, 0.0330810546875, -0.0189208984375,
  ],
  [
    -0.0189208984375, 0.0330810546875, -0.0582275390625, 0.1015625, -0.2003173828125, 0.77978515625, 0.465087890625, -0.16650390625,
    0.089111328125, -0.0517578125, 0.029296875, -0.0291748046875,
  ],
  [
    -0.00830078125, 0.014892578125, -0.026611328125, 0.047607421875, -0.102294921875, 0.97216796875, 0.1373291015625, -0.0594482421875,
    0.033203125, -0.0196533203125, 0.010986328125, 0.001708984375,
  ],
];

/**
 * No point the interpolator puts between samples is larger than BOUND × the largest magnitude in
 * its window (the largest sum of a phase's absolute taps, a hair over for rounding): a window of
 * samples all under floor / BOUND has no point over the floor.
 */
const BOUND = Math.max(...PHASES.map((p) => p.reduce((sum, tap) => sum + Math.abs(tap), 0))) * (1 + 1e-9);

/**
 * Each sample's true level, as the limiter needs it: the largest of its magnitude and of the 3
 * points the interpolator puts between it and the next sample. The filter is centred DELAY samples
 * back, so the level of a sample is known DELAY pushes after it.
 */
export class TruePeakDetector {
  static readonly DELAY = TAPS / 2;
  /**
   * The last TAPS samples twice over (a ring written at i and i + TAPS), so the window ending at
   * the newest sample is always contiguous: ring[head + 1 .. head + TAPS].
   */
  private readonly ring = new Float64Array(2 * TAPS);
  private head = TAPS - 1;
  /** How many of the newest samples are under the last floor / BOUND: the window is quiet from TAPS. */
  private quiet = 0;

  /**
   * Takes a sample; returns the level of the one DELAY pushes before it (0 before the first). A
   * caller that needs only levels over `floor` (the limiter's ceiling, a meter's peak so far) gets,
   * for a window that cannot reach it, the sample's own magnitude, at or under the floor, without
   * interpolating: most of speech, and most of the filter's cost.
   */
  push(sample: number, floor = -1): number {
    this.head = this.head === TAPS - 1 ? 0 : this.head + 1;
    const ring = this.ring;
    ring[this.head] = sample;
    ring[this.head + TAPS] = sample;
    const at = this.head + 1; // the window, oldest first: ring[at] … ring[at + 11]
    this.quiet = (sample < 0 ? -sample : sample) * BOUND > floor ? 0 : this.quiet + 1;
    if (this.quiet >= TAPS) {
      const x = ring[at + 5]!;
      return x < 0 ? -x : x;
    }
    // unrolled: a loop over PHASES × TAPS runs several times slower in V8
    const x11 = ring[at]!,
      x10 = ring[at + 1]!,
      x9 = ring[at + 2]!,
      x8 = ring[at + 3]!,
      x7 = ring[at + 4]!,
      x6 = ring[at + 5]!;
    const x5 = ring[at + 6]!,
      x4 = ring[at + 7]!,
      x3 = ring[at + 8]!,
      x2 = ring[at + 9]!,
      x1 = ring[at + 10]!,
      x0 = ring[at + 11]!;
    // phase 0 is the sample x6 itself (to within the filter's ripple), phases 1–3 the points after it
    let level = x6 < 0 ? -x6 : x6;
    for (const p of PHASES) {
      const acc =
        p[0]! * x0 +
        p[1]! * x1 +
        p[2]! * x2 +
        p[3]! * x3 +
        p[4]! * x4 +
        p[5]! * x5 +
        p[6]! * x6 +
        p[7]! * x7 +
        p[8]! * x8 +
        p[9]! * x9 +
        p[10]! * x10 +
        p[11]! * x11;
      const magnitude = acc < 0 ? -acc : acc;
      if (magnitude > level) level = magnitude;
    }
    return level;
  }

  /** The sample whose level the last push returned. */
  get delayed(): number {
    const at = this.head - TruePeakDetector.DELAY;
    return this.ring[at < 0 ? at + TAPS : at]!;
  }
}

/** Follows the true peak of a signal pushed in pieces of any size (samples as floats, full scale 1). */
export class TruePeakMeter {
  private readonly detector = new TruePeakDetector();
  /** Samples pushed that the filter has not run past yet. */
  private pending = false;
  private peak = 0;

  push(sample: number): void {
    this.pending = true;
    const level = this.detector.push(sample, this.peak);
    if (level > this.peak) this.peak = level;
  }

  /** Runs the filter's tail out (zeros), so the last samples are interpolated too. */
  finish(): number {
    if (this.pending) for (let i = 0; i < TAPS; i++) this.push(0);
    this.pending = false;
    return this.peak;
  }

  /** The true peak so far, linear (1 = full scale); `finish` first for the signal's end. */
  get linear(): number {
    return this.peak;
  }
}

/** Linear level to dB (full scale 0 dB); silence is −Infinity. */
export function toDb(linear: number): number {
  return linear > 0 ? 20 * Math.log10(linear) : -Infinity;
}
