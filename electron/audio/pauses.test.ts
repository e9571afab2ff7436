import { describe, expect, it } from 'vitest';
import { splitAtPauses } from './pauses';

const RATE = 16_000;

/** Speech as tone bursts and silences: [seconds, amplitude] pieces in a row. */
function audio(pieces: [number, number][]): Int16Array {
  const out: number[] = [];
  for (const [seconds, amplitude] of pieces) {
    for (let i = 0; i < Math.round(seconds * RATE); i++) out.push(Math.round(amplitude * Math.sin(i / 3)));
  }
  return Int16Array.from(out);
}

const seconds = (ranges: [number, number][]) => ranges.map(([a, b]): [number, number] => [a / RATE, b / RATE]);

describe('splitAtPauses', () => {
  it('puts boundaries in the pauses between sentences, whatever the characters say', () => {
    // three sentences of 1 s, 2 s and 0.5 s, 0.3 s pauses between; a comma's 40 ms dip inside the second
    const samples = audio([
      [0.2, 0],
      [1, 8000],
      [0.3, 0],
      [1, 8000],
      [0.04, 0],
      [1, 8000],
      [0.3, 0],
      [0.5, 8000],
      [0.25, 0],
    ]);
    // the weights put the first boundary at 1.4 s and the second at 3.3 s: near, not at, the pauses
    const ranges = seconds(splitAtPauses(samples, RATE, [40, 50, 20]));
    expect(ranges[0]![0]).toBeCloseTo(0.2, 2);
    expect(ranges[0]![1]).toBeCloseTo(1.2, 2);
    expect(ranges[1]![0]).toBeCloseTo(1.5, 2);
    expect(ranges[1]![1]).toBeCloseTo(3.54, 2);
    expect(ranges[2]![0]).toBeCloseTo(3.84, 2);
    expect(ranges[2]![1]).toBeCloseTo(4.34, 2);
  });

  it('splits in proportion to the characters where no pause is near', () => {
    const samples = audio([[3, 8000]]);
    expect(seconds(splitAtPauses(samples, RATE, [1, 2]))).toEqual([
      [0, 1],
      [1, 3],
    ]);
  });

  it('takes a pause only near its estimate', () => {
    // one pause, at 0.5 s, far from both boundaries' estimates (4 s and 5 s)
    const samples = audio([
      [0.5, 8000],
      [0.3, 0],
      [5.2, 8000],
    ]);
    const ranges = seconds(splitAtPauses(samples, RATE, [4, 1, 1]));
    for (let i = 1; i < ranges.length; i++) expect(ranges[i]![0]).toBeGreaterThanOrEqual(ranges[i - 1]![1]);
    expect(ranges.map(([start, end]) => [start, Math.round(end * 100) / 100])).toEqual([
      [0, 4],
      [4, 5],
      [5, 6],
    ]);
    expect(ranges.at(-1)![1]).toBeCloseTo(6, 2);
  });

  it('takes each pause once, in order', () => {
    // one pause (0.9 to 1.1 s) within reach of both boundaries (estimates 0.9 s and 1.1 s)
    const samples = audio([
      [0.9, 8000],
      [0.2, 0],
      [0.9, 8000],
    ]);
    const ranges = seconds(splitAtPauses(samples, RATE, [9, 2, 9])).map((r) => r.map((t) => Math.round(t * 100) / 100));
    expect(ranges).toEqual([
      [0, 0.9],
      [1.1, 1.1],
      [1.1, 2],
    ]);
  });

  it('divides silence evenly, and nothing among no sentences', () => {
    expect(splitAtPauses(new Int16Array(900), 900, [1, 1, 1])).toEqual([
      [0, 300],
      [300, 600],
      [600, 900],
    ]);
    expect(splitAtPauses(new Int16Array(10), RATE, [])).toEqual([]);
  });
});
