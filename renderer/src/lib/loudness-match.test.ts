import { describe, expect, it } from 'vitest';
import { gainToTarget, LOUDNESS_TARGET_LUFS, matchTarget } from './loudness-match';

describe('loudness matching', () => {
  it('brings takes to −23 LUFS when each can get there without clipping', () => {
    const levels = [
      { lufs: -16, peak: 0.9 },
      { lufs: -30, peak: 0.1 },
    ];
    const target = matchTarget(levels);
    expect(target).toBe(LOUDNESS_TARGET_LUFS);
    expect(levels.map((l) => l.lufs + gainToTarget(l, target))).toEqual([-23, -23]);
  });

  it("settles lower when a quiet take's peaks would clip at −23 LUFS", () => {
    // raising this take 20 dB would put its peak at 0.5 × 10 = 5× full scale
    const quiet = { lufs: -43, peak: 0.5 };
    const target = matchTarget([{ lufs: -18, peak: 1 }, quiet])!;
    expect(target).toBeLessThan(LOUDNESS_TARGET_LUFS);
    expect(quiet.peak * 10 ** (gainToTarget(quiet, target) / 20)).toBeLessThan(1);
  });

  it('leaves silence alone and has no target without a measured take', () => {
    expect(matchTarget([{ lufs: null, peak: 0 }])).toBeNull();
    expect(gainToTarget({ lufs: null, peak: 0 }, -23)).toBe(0);
    expect(gainToTarget({ lufs: -20, peak: 0.5 }, null)).toBe(0);
  });
});
