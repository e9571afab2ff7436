import { wavData, withGain } from './wav-gain';

/** Below this a sample counts as silence at a take's edges (about −50 dBFS). */
const SILENCE = 100;

/** Where a 16-bit WAV's sound starts and ends, in samples, and its rate. */
export interface SoundSpan {
  start: number;
  end: number;
  sampleRate: number;
}

export function soundSpan(file: ArrayBuffer): SoundSpan | null {
  const data = wavData(file);
  if (!data) return null;
  const samples = new Int16Array(file.slice(data.offset, data.offset + data.length));
  let start = 0;
  while (start < samples.length && Math.abs(samples[start]!) < SILENCE) start++;
  let end = samples.length;
  while (end > start && Math.abs(samples[end - 1]!) < SILENCE) end--;
  return { start, end, sampleRate: new DataView(file).getUint32(24, true) };
}

/**
 * A blind take as played: its edge silence cut and silence added at its end up to `seconds`, so
 * that every take of a text is as long as the longest and its length tells nothing; its gain
 * applied. Sentence times move by −(start / rate).
 */
export function blindTake(file: ArrayBuffer, span: SoundSpan, seconds: number, gainDb: number): ArrayBuffer {
  const data = wavData(file)!;
  const gained = gainDb !== 0 ? withGain(file, data, gainDb) : file;
  const length = Math.max(span.end - span.start, Math.round(seconds * span.sampleRate));
  const out = new ArrayBuffer(44 + length * 2);
  const view = new DataView(out);
  const ascii = (at: number, text: string) => [...text].forEach((c, i) => view.setUint8(at + i, c.charCodeAt(0)));
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + length * 2, true);
  ascii(8, 'WAVEfmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, span.sampleRate, true);
  view.setUint32(28, span.sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  ascii(36, 'data');
  view.setUint32(40, length * 2, true);
  new Int16Array(out, 44).set(new Int16Array(gained.slice(data.offset + span.start * 2, data.offset + span.end * 2)));
  return out;
}
