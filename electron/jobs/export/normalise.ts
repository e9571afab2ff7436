/**
 * Loudness normalisation of a whole book: measure it (ITU-R BS.1770-4), apply one gain to reach
 * the target, and keep the true peak at or under the limit with a look-ahead true-peak limiter
 * rather than by lowering the gain (speech synthesized at full scale would otherwise end far below
 * an audiobook target). The limit is the goal's: an export asks for its ceiling less the headroom
 * its codec needs (headroom.ts). When the limiter acts, limiting takes loudness away: the gain is
 * chosen by a model of what the limiter takes (limiting-model.ts), the limited book is measured,
 * the model fitted to the measurement and the gain chosen again, up to CORRECTIONS times, until
 * the book is within CLOSE_ENOUGH_LU of the target.
 */
import { LoudnessMeter, type LoudnessReport, type StepLevels } from '../../audio/loudness';
import { PeakLimiter } from '../../audio/limiter';
import { LimitingModel } from '../../audio/limiting-model';

const CORRECTIONS = 4;
const CLOSE_ENOUGH_LU = 0.15;
/**
 * The model's k before any measurement: fitted on eSpeak NG speech (30 min, 22.05 kHz) limited
 * at gains of 3.2 to 9 dB (0.75–0.76 at each: docs/audiobook.md, Loudness).
 */
const FIRST_K = 0.76;

export interface LoudnessGoal {
  targetLufs: number;
  /** The true peak the limiter holds the samples to. */
  ceilingDbtp: number;
}

export interface GainPlan {
  measured: LoudnessReport;
  gainDb: number;
  limited: boolean;
  /** What the limiter would take at a gain, from the measured book's steps. */
  model: LimitingModel;
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
  return gainFor(meter.finish(), [meter.steps()], goal);
}

/**
 * The gain that brings a measured book (`steps`: its parts' steps, in order) to the goal's
 * loudness unlimited, and whether the limiter must act.
 */
export function gainFor(measured: LoudnessReport, steps: readonly StepLevels[], goal: LoudnessGoal): GainPlan {
  // silence stays silence: no gain can bring it to a loudness
  const gainDb = Number.isFinite(measured.integratedLufs) ? goal.targetLufs - measured.integratedLufs : 0;
  const limited = measured.truePeakDbtp + gainDb > goal.ceilingDbtp;
  return { measured, gainDb, limited, model: new LimitingModel(steps, goal.ceilingDbtp) };
}

/**
 * When the limiter acts: the gain the model gives for the target, the limited book measured at it
 * (`loudnessAt`, pass k from 0), the model fitted to what was measured (its k, and what is left as
 * an offset) and the gain chosen again, until close enough. `step` rounds each gain tried
 * (segments.ts quantises them so that measurements and encodes made at a gain can be found again).
 */
export async function correctForLimiting(
  goal: LoudnessGoal,
  plan: GainPlan,
  loudnessAt: (gainDb: number, pass: number) => Promise<number>,
  step: (gainDb: number) => number = (gainDb) => gainDb,
): Promise<GainPlan> {
  const { model } = plan;
  let gainDb = step(model.gainFor(goal.targetLufs, FIRST_K, plan.gainDb));
  for (let pass = 0; pass < CORRECTIONS; pass++) {
    const lufs = await loudnessAt(gainDb, pass);
    if (!Number.isFinite(lufs) || Math.abs(goal.targetLufs - lufs) < CLOSE_ENOUGH_LU) break;
    const k = model.fit(gainDb, lufs);
    const offset = lufs - model.loudness(gainDb, k);
    const next = step(model.gainFor(goal.targetLufs - offset, k, gainDb));
    if (next === gainDb) break;
    gainDb = next;
  }
  return { ...plan, gainDb };
}

/** The loudness of the whole book after gain and limiting, in one pass over it. */
export function limitedLoudness(book: Samples, sampleRate: number, goal: LoudnessGoal, onSamples: (pass: number, n: number) => void) {
  return async (gainDb: number, pass: number): Promise<number> => {
    const meter = new LoudnessMeter(sampleRate, { truePeak: false });
    for await (const piece of conditioned(book(), sampleRate, goal, gainDb)) {
      meter.push(piece);
      onSamples(pass, piece.length);
    }
    return meter.finish().integratedLufs;
  };
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

/** Book gains are tried and kept in steps of 0.1 dB, so that what was made at one can be found again. */
export const quantiseGain = (gainDb: number) => Math.round(gainDb * 10) / 10;

/**
 * The gain of a book made of kept segments (segments.ts). A book's gain moves with any change of
 * its audio, and every segment encoded at another gain is encoded again: so the gain of the last
 * export (`previous`) is kept while it brings the book within CLOSE_ENOUGH_LU of the target (a
 * fixed name, a sentence re-read), and only a change that moves the book's loudness further costs
 * the whole book. Otherwise the gain is the measured one, rounded to 0.1 dB, corrected for
 * limiting as in one pass.
 */
export async function keptGain(
  goal: LoudnessGoal,
  plan: GainPlan,
  previous: number | undefined,
  loudnessAt: (gainDb: number, pass: number) => Promise<number>,
  /** The limited book's loudness at the previous gain: segments.ts encodes at it, the likely outcome. */
  previousLoudness: (gainDb: number) => Promise<number> = (gainDb) => loudnessAt(gainDb, 0),
): Promise<number> {
  if (previous !== undefined) {
    const limitedThen = plan.measured.truePeakDbtp + previous > goal.ceilingDbtp;
    const lufs = limitedThen ? await previousLoudness(previous) : plan.measured.integratedLufs + previous;
    if (Math.abs(goal.targetLufs - lufs) < CLOSE_ENOUGH_LU) return previous;
  }
  if (!plan.limited) return quantiseGain(plan.gainDb);
  return (await correctForLimiting(goal, plan, loudnessAt, quantiseGain)).gainDb;
}
