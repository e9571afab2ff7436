/**
 * The detector's shortcut for callers that need only levels over a floor (the limiter, a meter's
 * running peak): every level over the floor as the full interpolation gives it, every other at or
 * under the floor.
 */
import { describe, expect, it } from 'vitest';
import { speech } from '../testing/speech';
import { TruePeakDetector } from './true-peak';

describe('TruePeakDetector with a floor', () => {
  it('gives every level over the floor exactly, and no level under it as over', async () => {
    const said = await speech('The keeper counted the ships that passed in the night.', { pitch: 1.4 });
    // a tone at a quarter of the rate sampled 45° off its crests: its true peak is 3 dB over its samples
    const tone = Array.from({ length: 400 }, (_, i) => 0.5 * Math.sin((Math.PI / 2) * i + Math.PI / 4));
    const signal = [...Array.from(said.samples, (s) => s / 32768), ...tone];
    for (const floor of [0.05, 0.2, 0.4, 0.6]) {
      const [full, floored] = [new TruePeakDetector(), new TruePeakDetector()];
      let over = 0;
      let shortcuts = 0;
      for (const x of signal) {
        const level = full.push(x);
        const cheap = floored.push(x, floor);
        if (level > floor) {
          over++;
          expect(cheap).toBe(level);
        } else expect(cheap).toBeLessThanOrEqual(floor);
        if (cheap !== level) shortcuts++;
      }
      expect(over).toBeGreaterThan(0);
      // the shortcut is taken (it is what makes the limiter cheap)
      if (floor >= 0.4) expect(shortcuts).toBeGreaterThan(signal.length / 4);
    }
  });
});
