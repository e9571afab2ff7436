import { describe, expect, it } from 'vitest';
import { blindTake, soundSpan } from './blind-audio';
import { wavData } from './wav-gain';

function wav(samples: number[], rate = 1000): ArrayBuffer {
  const out = new ArrayBuffer(44 + samples.length * 2);
  const view = new DataView(out);
  [...'RIFF'].forEach((c, i) => view.setUint8(i, c.charCodeAt(0)));
  view.setUint32(4, 36 + samples.length * 2, true);
  [...'WAVEfmt '].forEach((c, i) => view.setUint8(8 + i, c.charCodeAt(0)));
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, rate, true);
  view.setUint32(28, rate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  [...'data'].forEach((c, i) => view.setUint8(36 + i, c.charCodeAt(0)));
  view.setUint32(40, samples.length * 2, true);
  new Int16Array(out, 44).set(samples);
  return out;
}

describe('blind takes', () => {
  it('cuts edge silence and pads to a common length, so takes of other lengths come out equal', () => {
    const short = wav([0, 0, 0, 5000, -5000, 3000, 0, 0]);
    const long = wav([0, 4000, 4000, 4000, 4000, 4000, 4000, 10]);
    const spans = [soundSpan(short)!, soundSpan(long)!];
    expect(spans.map((s) => [s.start, s.end])).toEqual([
      [3, 6],
      [1, 7],
    ]);
    const seconds = Math.max(...spans.map((s) => (s.end - s.start) / s.sampleRate));
    const played = [blindTake(short, spans[0]!, seconds, 0), blindTake(long, spans[1]!, seconds, 0)];
    expect(played.map((file) => wavData(file)!.length)).toEqual([12, 12]);
    expect([...new Int16Array(played[0]!, 44)]).toEqual([5000, -5000, 3000, 0, 0, 0]);
  });
});
