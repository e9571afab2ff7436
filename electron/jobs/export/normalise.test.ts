import { describe, expect, it } from 'vitest';
import { prose } from '../../testing/prose';
import { speech } from '../../testing/speech';
import { correctForLimiting, limitedLoudness, planGain } from './normalise';

describe('the gain search under a limiter working hard', () => {
  it('lands within 0.15 LU of the target in at most two measures of the limited book', async () => {
    // real speech near full scale, to be lifted 3 dB over what its peaks allow: a dB of gain then
    // adds a third of a LU (the export bench's book took four measures before the model)
    const { samples, sampleRate } = await speech(prose(900));
    expect(samples.length / sampleRate).toBeGreaterThan(45);
    const book = async function* () {
      yield samples;
    };
    const goal = { targetLufs: -18, ceilingDbtp: -4.5 };
    const plan = await planGain(book, sampleRate, goal, () => {});
    expect(plan.limited).toBe(true);
    const measure = limitedLoudness(book, sampleRate, goal, () => {});
    const measured: { gainDb: number; lufs: number }[] = [];
    const loudnessAt = async (gainDb: number, pass: number) => {
      const lufs = await measure(gainDb, pass);
      measured.push({ gainDb, lufs });
      return lufs;
    };
    const { gainDb } = await correctForLimiting(goal, plan, loudnessAt);
    // the limiter takes LUs: the gain found is well over the unlimited one
    expect(gainDb).toBeGreaterThan(plan.gainDb + 2);
    expect(measured.length).toBeLessThanOrEqual(2);
    expect(measured.at(-1)!.gainDb).toBe(gainDb);
    expect(Math.abs(measured.at(-1)!.lufs - goal.targetLufs)).toBeLessThan(0.15);
  });
});
