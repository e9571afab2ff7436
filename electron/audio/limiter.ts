/**
 * A look-ahead true-peak limiter that streams: gain, then no sample and no point between samples
 * above `ceiling`. Each sample's level is its true level (true-peak.ts: the sample and the points
 * ITU-R BS.1770's 4× interpolator puts after it, so that the peaks a player's reconstruction makes
 * between samples are held too); its needed gain (ceiling / level, at most 1) is spread by a sliding minimum over ±L samples, released
 * exponentially, then averaged over L + 1 samples: every averaged value near a peak is at most that
 * peak's need, so the peak lands at or under the ceiling, and the gain moves smoothly (L = 4 ms,
 * no clicks). The output is delayed by 1.5 L inside and handed back aligned: as many samples out
 * as went in, in the same places.
 */

import { TruePeakDetector } from './true-peak';

const LOOKAHEAD_S = 0.004;
const RELEASE_S = 0.08;

export class PeakLimiter {
  private readonly half: number;
  private readonly lookahead: number;
  private readonly release: number;
  /** Needs waiting for the sliding minimum: a monotonic deque of (index, need) in two rings. */
  private readonly minIndex: Float64Array;
  private readonly minValue: Float64Array;
  private dequeHead = 0;
  private dequeSize = 0;
  /** Released gains of the averaging window, and their sum. */
  private readonly window: Float64Array;
  private windowSum = 0;
  private released = 1;
  /** Input samples (after gain) waiting for their gain: a ring of the delay's length. */
  private readonly delay: Float64Array;
  private readonly delaySamples: number;
  private index = 0;
  /** Where sample n goes in `delay`, and released gain m in `window`. */
  private delayAt = 0;
  private windowAt = 0;
  private emitted = 0;
  private pushed = 0;
  /** Levels come DELAY samples late: samples enter the limiter behind it. */
  private readonly detector = new TruePeakDetector();
  private received = 0;

  constructor(
    sampleRate: number,
    private readonly gain: number,
    private readonly ceiling: number,
  ) {
    this.half = Math.max(1, Math.round((LOOKAHEAD_S * sampleRate) / 2));
    this.lookahead = 2 * this.half;
    this.release = 1 - Math.exp(-1 / (RELEASE_S * sampleRate));
    this.minIndex = new Float64Array(2 * this.lookahead + 2);
    this.minValue = new Float64Array(2 * this.lookahead + 2);
    this.window = new Float64Array(this.lookahead + 1).fill(1);
    this.windowSum = this.lookahead + 1;
    // need at n enters the minimum at n; the minimum of n is known at n + L; its average at n + 1.5 L
    this.delaySamples = this.lookahead + this.half;
    this.delay = new Float64Array(this.delaySamples + 1);
  }

  /** Samples in (16-bit), limited samples out as floats (full scale 1), as many as are ready. */
  push(samples: Int16Array): Float32Array {
    const out = new Float32Array(samples.length);
    let written = 0;
    for (let i = 0; i < samples.length; i++) {
      const value = this.detect((samples[i]! / 32768) * this.gain);
      if (value !== null) out[written++] = value;
    }
    return out.subarray(0, written);
  }

  /** The samples still in the delay line. */
  finish(): Float32Array {
    // the last DELAY samples leave the detector behind zeros
    const flushed = new Float32Array(TruePeakDetector.DELAY);
    let held = 0;
    for (let k = 0; k < TruePeakDetector.DELAY; k++) {
      const level = this.detector.push(0, this.ceiling);
      if (this.received + k < TruePeakDetector.DELAY) continue; // the sample before the first
      const value = this.step(this.detector.delayed, level, true);
      if (value !== null) flushed[held++] = value;
    }
    const left = this.pushed - this.emitted;
    const out = new Float32Array(left);
    let written = 0;
    while (written < left) {
      const value = this.step(0, 0, false);
      if (value !== null) out[written++] = value;
    }
    if (held === 0) return out;
    const all = new Float32Array(held + written);
    all.set(flushed.subarray(0, held));
    all.set(out, held);
    return all;
  }

  /** A sample (after gain) into the detector; the one DELAY before it, with its level, into the limiter. */
  private detect(x: number): number | null {
    const level = this.detector.push(x, this.ceiling);
    return this.received++ < TruePeakDetector.DELAY ? null : this.step(this.detector.delayed, level, true);
  }

  private step(x: number, level: number, real: boolean): number | null {
    // rings are walked by wrapping indexes, not by `%`: an integer division per ring and sample
    // was a fifth of the limiter's time
    const n = this.index++;
    if (real) this.pushed++;
    const delayAt = this.delayAt;
    this.delayAt = delayAt + 1 === this.delay.length ? 0 : delayAt + 1;
    this.delay[delayAt] = x;
    // sliding minimum of the needs over [m − L, m + L], m = n − L
    const need = level > this.ceiling ? this.ceiling / level : 1;
    const capacity = this.minValue.length;
    while (this.dequeSize > 0 && this.minValue[wrap(this.dequeHead + this.dequeSize - 1, capacity)]! >= need) this.dequeSize--;
    const tail = wrap(this.dequeHead + this.dequeSize, capacity);
    this.minValue[tail] = need;
    this.minIndex[tail] = n;
    this.dequeSize++;
    const m = n - this.lookahead;
    while (this.minIndex[this.dequeHead]! < m - this.lookahead) {
      this.dequeHead = wrap(this.dequeHead + 1, capacity);
      this.dequeSize--;
    }
    if (m < 0) return null;
    const held = this.minValue[this.dequeHead]!;
    if (m === 0) {
      // before the first sample, the gain is the first one's: a peak at the very start is held too
      this.released = held;
      this.window.fill(held);
      this.windowSum = held * this.window.length;
    }
    this.released = Math.min(held, this.released + (1 - this.released) * this.release);
    const slot = this.windowAt;
    this.windowAt = slot + 1 === this.window.length ? 0 : slot + 1;
    this.windowSum += this.released - this.window[slot]!;
    this.window[slot] = this.released;
    // the average over [k − L/2, k + L/2] is complete at m = k + L/2
    const k = m - this.half;
    if (k < 0 || this.emitted >= this.pushed) return null;
    this.emitted++;
    const gain = Math.min(1, this.windowSum / this.window.length);
    // k = n − (the delay's length − 1): the slot after n's
    return this.delay[this.delayAt]! * gain;
  }
}

/** An index past a ring's end, back into it (at most one length past). */
const wrap = (i: number, length: number) => (i >= length ? i - length : i);
