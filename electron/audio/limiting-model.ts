/**
 * What the peak limiter (limiter.ts) takes from a book's loudness at a gain, predicted from the
 * book as it is: each 100 ms step's K-weighted power and largest sample (LoudnessMeter.steps).
 * A step whose peak the gain lifts r times over the ceiling comes out r^k times quieter in
 * amplitude: k = 1 if the limiter held the whole step at its peak's need, less as its gain
 * recovers between peaks. k is a property of the speech more than of the gain: fitted to one
 * measurement of the limited book (`fit`), the model finds the gain for the target within a few
 * hundredths of a LU on eSpeak NG speech where a straight line through two measurements misses
 * by tenths (docs/audiobook.md, Loudness). Pure: the studio and the export share it.
 */
import { gatedLoudness, type StepLevels } from './loudness';

/** Beyond 1 a gain would make the book quieter: the model stays under it, so loudness rises with gain. */
const MAX_K = 0.95;
/** Gains are searched this far from the first guess, to a thousandth of a dB. */
const SEARCH_DB = 48;
const PRECISION_DB = 0.001;
const K_PRECISION = 0.0005;

export class LimitingModel {
  /** Per part: each step's ln(peak / ceiling), and its mean square. */
  private readonly overs: Float64Array[];
  private readonly powers: Float64Array[];
  private readonly scaled: Float64Array[];
  private readonly blocks: Float64Array[];

  constructor(parts: readonly StepLevels[], ceilingDbtp: number) {
    const lnCeiling = (ceilingDbtp / 20) * Math.LN10;
    this.powers = parts.map((p) => p.powers);
    this.overs = parts.map((p) => Float64Array.from(p.peaks, (peak) => (peak > 0 ? Math.log(peak) - lnCeiling : -Infinity)));
    this.scaled = parts.map((p) => new Float64Array(p.powers.length));
    this.blocks = parts.map((p) => new Float64Array(Math.max(0, p.powers.length - 3)));
  }

  /** The predicted integrated loudness (LUFS) of the book after `gainDb` and the limiter. */
  loudness(gainDb: number, k: number): number {
    const lnGain = (gainDb / 20) * Math.LN10;
    const square = Math.exp(2 * lnGain);
    this.powers.forEach((powers, p) => {
      const overs = this.overs[p]!;
      const scaled = this.scaled[p]!;
      for (let i = 0; i < powers.length; i++) {
        const over = overs[i]! + lnGain;
        scaled[i] = powers[i]! * square * (over > 0 ? Math.exp(-2 * k * over) : 1);
      }
      // a block is four steps (loudness.ts): their mean, the steps being as long as each other but for a sample
      const blocks = this.blocks[p]!;
      for (let i = 0; i < blocks.length; i++) blocks[i] = (scaled[i]! + scaled[i + 1]! + scaled[i + 2]! + scaled[i + 3]!) / 4;
    });
    return gatedLoudness(this.blocks).integratedLufs;
  }

  /** The k that makes the model give `lufs` at `gainDb` (held to 0 … MAX_K: the caller adds what is left as an offset). */
  fit(gainDb: number, lufs: number): number {
    let [low, high] = [0, MAX_K];
    if (lufs >= this.loudness(gainDb, low)) return low;
    if (lufs <= this.loudness(gainDb, high)) return high;
    while (high - low > K_PRECISION) {
      const k = (low + high) / 2;
      if (this.loudness(gainDb, k) > lufs) low = k;
      else high = k;
    }
    return (low + high) / 2;
  }

  /** The gain near `fromDb` at which the model gives `targetLufs`. */
  gainFor(targetLufs: number, k: number, fromDb: number): number {
    let [low, high] = [fromDb - SEARCH_DB, fromDb + SEARCH_DB];
    while (high - low > PRECISION_DB) {
      const gainDb = (low + high) / 2;
      if (this.loudness(gainDb, k) < targetLufs) low = gainDb;
      else high = gainDb;
    }
    return (low + high) / 2;
  }
}
