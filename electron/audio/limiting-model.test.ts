import { describe, expect, it } from 'vitest';
import { prose } from '../testing/prose';
import { speech } from '../testing/speech';
import { LimitingModel } from './limiting-model';
import { LoudnessMeter } from './loudness';

describe('the limiter model', async () => {
  const { samples, sampleRate } = await speech(prose(300));
  const meter = new LoudnessMeter(sampleRate);
  meter.push(samples);
  const report = meter.finish();
  const model = new LimitingModel([meter.steps()], -4.5);

  it('is the measured book at no limiting, and rises with gain', () => {
    // far under the ceiling the limiter takes nothing: the book's loudness plus the gain, to the rounding of blocks
    expect(model.loudness(-20, 0.8)).toBeCloseTo(report.integratedLufs - 20, 1);
    const at = [0, 3, 6, 9].map((gainDb) => model.loudness(gainDb, 0.8));
    at.slice(1).forEach((lufs, i) => expect(lufs).toBeGreaterThan(at[i]!));
    // over the ceiling a dB of gain adds less than a LU
    expect(at[3]! - at[2]!).toBeLessThan(3);
  });

  it('finds the k of a loudness back, and the gain for a target', () => {
    const lufs = model.loudness(6, 0.6);
    expect(model.fit(6, lufs)).toBeCloseTo(0.6, 2);
    expect(model.gainFor(lufs, 0.6, 0)).toBeCloseTo(6, 2);
    // louder than no limiting could make it: k holds at 0 (the search keeps what is left as an offset)
    expect(model.fit(6, model.loudness(6, 0) + 1)).toBe(0);
  });
});
