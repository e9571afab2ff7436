import { describe, expect, it } from 'vitest';
import { addSample, formatTimeLeft, secondsLeft, WINDOW_MS, type ProgressSample } from './throughput';

const run = (points: [number, number][]) => points.reduce<ProgressSample[]>((s, [at, done]) => addSample(s, { at, done }), []);

describe('time left from measured throughput', () => {
  it('divides what remains by the rate measured', () => {
    // 10 chunks in 20 s: 0.5 chunk/s; 90 left: 180 s
    expect(
      secondsLeft(
        run([
          [0, 0],
          [10_000, 5],
          [20_000, 10],
        ]),
        100,
      ),
    ).toBeCloseTo(180);
  });

  it('gives nothing before two chunks have been timed', () => {
    expect(secondsLeft([], 10)).toBeNull();
    expect(secondsLeft(run([[0, 3]]), 10)).toBeNull();
    expect(
      secondsLeft(
        run([
          [0, 3],
          [1000, 4],
        ]),
        10,
      ),
    ).toBeNull();
  });

  it('follows the recent rate: samples older than the window are dropped', () => {
    const slowThenFast = run([
      [0, 0],
      [WINDOW_MS, 10],
      [WINDOW_MS + 60_000, 40],
      [WINDOW_MS + 120_000, 70],
      [2 * WINDOW_MS + 1, 100],
    ]);
    // the kept samples span the fast part only (30 chunks a minute)
    expect(secondsLeft(slowThenFast, 130)).toBeCloseTo(60, 0);
  });

  it('ignores repeats and starts again when the count goes back', () => {
    const samples = run([
      [0, 5],
      [1000, 5],
      [2000, 9],
      [3000, 2],
    ]);
    expect(samples).toEqual([{ at: 3000, done: 2 }]);
  });

  it('reads as a person would say it', () => {
    expect(formatTimeLeft(20)).toBe('under a minute');
    expect(formatTimeLeft(250)).toBe('about 4 min');
    expect(formatTimeLeft(3600)).toBe('about 1 h');
    expect(formatTimeLeft(4800)).toBe('about 1 h 20 min');
  });
});
