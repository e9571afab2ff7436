/**
 * Loudness normalisation of a whole book: measure it (ITU-R BS.1770-4), apply one gain to reach
 * the target, and keep the true peak at or under the limit with a look-ahead true-peak limiter
 * rather than by lowering the gain (speech synthesized at full scale would otherwise end far below
 * an audiobook target). The limit is the goal's: an export asks for its ceiling less the headroom
 * its codec needs (headroom.ts). When the limiter acts, limiting takes loudness away: the limited
 * book is measured again and the gain corrected, up to CORRECTIONS times, until it is within
 * CLOSE_ENOUGH_LU of the target.
 */
import { LoudnessMeter, type LoudnessReport } from '../../audio/loudness';
import { PeakLimiter } from '../../audio/limiter';

const CORRECTIONS = 4;
const CLOSE_ENOUGH_LU = 0.15;

export interface LoudnessGoal {
  targetLufs: number;
  /** The true peak the limiter holds the samples to. */
  ceilingDbtp: number;
}

export interface GainPlan {
  measured: LoudnessReport;
  gainDb: number;
  limited: boolean;
}

type Samples = () => AsyncIterable<Int16Array>;
const fromDb = (db: number) => 10 ** (db / 20);

/** Measures the book as it is; decides the gain and whether the limiter must act. */
export async function planGain(book: Samples, sampleRate: number, goal: LoudnessGoal, onSamples: (n: number) => void): Promise<GainPlan> {
  const meter = new LoudnessMeter(sampleRate);
  for await (const piece of book()) {
    meter.push(piece);
    onSamples(piece.length);
  }
  const measured = meter.finish();
  // silence stays silence: no gain can bring it to a loudness
  const gainDb = Number.isFinite(measured.integratedLufs) ? goal.targetLufs - measured.integratedLufs : 0;
  const limited = measured.truePeakDbtp + gainDb > goal.ceilingDbtp;
  return { measured, gainDb, limited };
}

/**
 * When the limiter acts: measures the limited book and corrects the gain by what it lost, again
 * until close enough. `onPass(k)` starts pass k (from 0), for progress.
 */
export async function correctForLimiting(
  book: Samples,
  sampleRate: number,
  goal: LoudnessGoal,
  plan: GainPlan,
  onSamples: (pass: number, n: number) => void,
): Promise<GainPlan> {
  let gainDb = plan.gainDb;
  let before: { gainDb: number; lufs: number } | undefined;
  for (let pass = 0; pass < CORRECTIONS; pass++) {
    const meter = new LoudnessMeter(sampleRate, { truePeak: false });
    for await (const piece of conditioned(book(), sampleRate, goal, gainDb)) {
      meter.push(piece);
      onSamples(pass, piece.length);
    }
    const lufs = meter.finish().integratedLufs;
    const miss = goal.targetLufs - lufs;
    if (!Number.isFinite(miss)) break;
    // a dB of gain adds less than a LU when the limiter holds the peaks: the step is scaled by
    // what the last one gave (a secant), or a limiter working hard is never caught up with
    const step = before && Math.abs(gainDb - before.gainDb) > 0.01 ? (lufs - before.lufs) / (gainDb - before.gainDb) : 1;
    before = { gainDb, lufs };
    gainDb += miss / Math.min(1, Math.max(0.1, step));
    if (Math.abs(miss) < CLOSE_ENOUGH_LU) break;
  }
  return { ...plan, gainDb };
}

/** The book after gain and limiting, as 16-bit samples, as long as it was. */
export async function* conditioned(book: AsyncIterable<Int16Array>, sampleRate: number, goal: LoudnessGoal, gainDb: number) {
  const limiter = new PeakLimiter(sampleRate, fromDb(gainDb), fromDb(goal.ceilingDbtp));
  for await (const piece of book) yield toInt16(limiter.push(piece));
  yield toInt16(limiter.finish());
}

function toInt16(floats: Float32Array): Int16Array {
  const out = new Int16Array(floats.length);
  for (let i = 0; i < floats.length; i++) out[i] = Math.max(-32768, Math.min(32767, Math.round(floats[i]! * 32768)));
  return out;
}
