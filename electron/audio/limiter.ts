/**
 * A look-ahead peak limiter that streams: gain, then no sample above `ceiling`. Each sample's
 * needed gain (ceiling / |x|, at most 1) is spread by a sliding minimum over ±L samples, released
 * exponentially, then averaged over L + 1 samples: every averaged value near a peak is at most that
 * peak's need, so the peak lands at or under the ceiling, and the gain moves smoothly (L = 4 ms,
 * no clicks). The output is delayed by 1.5 L inside and handed back aligned: as many samples out
 * as went in, in the same places.
 */

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
  private emitted = 0;
  private pushed = 0;
  private inputPeak = 0;

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
      const value = this.step((samples[i]! / 32768) * this.gain);
      if (value !== null) out[written++] = value;
    }
    return out.subarray(0, written);
  }

  /** The samples still in the delay line. */
  finish(): Float32Array {
    const left = this.pushed - this.emitted;
    const out = new Float32Array(left);
    let written = 0;
    while (written < left) {
      const value = this.step(0, false);
      if (value !== null) out[written++] = value;
    }
    return out;
  }

  /** The largest sample after gain and before limiting: how far over the ceiling it went. */
  get peakBeforeLimiting(): number {
    return this.inputPeak;
  }

  private step(x: number, real = true): number | null {
    const n = this.index++;
    if (real) this.pushed++;
    const level = Math.abs(x);
    if (level > this.inputPeak) this.inputPeak = level;
    this.delay[n % this.delay.length] = x;
    // sliding minimum of the needs over [m − L, m + L], m = n − L
    const need = level > this.ceiling ? this.ceiling / level : 1;
    const capacity = this.minValue.length;
    while (this.dequeSize > 0 && this.minValue[(this.dequeHead + this.dequeSize - 1) % capacity]! >= need) this.dequeSize--;
    const tail = (this.dequeHead + this.dequeSize) % capacity;
    this.minValue[tail] = need;
    this.minIndex[tail] = n;
    this.dequeSize++;
    const m = n - this.lookahead;
    while (this.minIndex[this.dequeHead]! < m - this.lookahead) {
      this.dequeHead = (this.dequeHead + 1) % capacity;
      this.dequeSize--;
    }
    if (m < 0) return null;
    const held = this.minValue[this.dequeHead]!;
    this.released = Math.min(held, this.released + (1 - this.released) * this.release);
    const slot = m % this.window.length;
    this.windowSum += this.released - this.window[slot]!;
    this.window[slot] = this.released;
    // the average over [k − L/2, k + L/2] is complete at m = k + L/2
    const k = m - this.half;
    if (k < 0 || this.emitted >= this.pushed) return null;
    this.emitted++;
    const gain = Math.min(1, this.windowSum / this.window.length);
    return this.delay[k % this.delay.length]! * gain;
  }
}
