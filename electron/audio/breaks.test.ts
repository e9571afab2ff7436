import { describe, expect, it } from 'vitest';
import { splitAtBreaks } from './breaks';

/** Sound (a run of 1000s) and digital silence (zeros), as [samples, sound?] pieces in a row. */
function audio(pieces: [number, boolean][]): Int16Array {
  return Int16Array.from(pieces.flatMap(([n, sound]) => Array<number>(n).fill(sound ? 1000 : 0)));
}

describe('splitAtBreaks', () => {
  it('cuts at the long runs of zeros, each text keeping the lead and tail a text of its own has', () => {
    // lead 5, text, short pause 20 (inside a text), text, break 100, text, break 100, text, tail 8
    const samples = audio([
      [5, false],
      [50, true],
      [20, false],
      [50, true],
      [100, false],
      [60, true],
      [100, false],
      [40, true],
      [8, false],
    ]);
    const ranges = splitAtBreaks(samples, 3, 50)!;
    expect(ranges).toEqual([
      [0, 125 + 8],
      [225 - 5, 285 + 8],
      [385 - 5, 433],
    ]);
    for (const [start, end] of ranges) {
      const piece = samples.subarray(start, end);
      expect(piece.findIndex((s) => s !== 0)).toBe(5);
      expect(piece.length - 1 - piece.findLastIndex((s) => s !== 0)).toBe(8);
    }
  });

  it('gives up unless it finds exactly one break fewer than texts', () => {
    const two = audio([
      [50, true],
      [100, false],
      [50, true],
    ]);
    expect(splitAtBreaks(two, 3, 50)).toBeNull(); // a text that made no sound merges two breaks
    expect(splitAtBreaks(two, 1, 50)).toBeNull();
    expect(splitAtBreaks(two, 2, 101)).toBeNull(); // the break is shorter than asked
    expect(splitAtBreaks(two, 2, 100)).toEqual([
      [0, 50],
      [150, 200],
    ]);
  });

  it('takes one text whole', () => {
    const one = audio([
      [3, false],
      [50, true],
      [4, false],
    ]);
    expect(splitAtBreaks(one, 1, 10)).toEqual([[0, 57]]);
  });
});
