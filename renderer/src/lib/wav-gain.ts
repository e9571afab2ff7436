/**
 * Gain on the studio's own copy of a take: a 16-bit PCM WAV (what /preview answers by default)
 * whose samples are scaled, header kept, so the player plays and draws exactly the gained audio.
 */

interface WavData {
  /** Byte offset and length of the samples in the file. */
  offset: number;
  length: number;
}

/** Where a 16-bit PCM mono WAV's samples are; null for anything else (which is then played as it is). */
export function wavData(file: ArrayBuffer): WavData | null {
  const view = new DataView(file);
  const tag = (at: number) => String.fromCharCode(...new Uint8Array(file, at, 4));
  if (file.byteLength < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') return null;
  let pcm16 = false;
  for (let at = 12; at + 8 <= file.byteLength;) {
    const id = tag(at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === 'fmt ')
      pcm16 = view.getUint16(body, true) === 1 && view.getUint16(body + 2, true) === 1 && view.getUint16(body + 14, true) === 16;
    // a streamed WAV's size says "to the end"
    if (id === 'data') return pcm16 ? { offset: body, length: Math.min(size, file.byteLength - body) & ~1 } : null;
    at = body + size + (size & 1);
  }
  return null;
}

/** The highest sample magnitude, 0 to 1. */
export function samplePeak(file: ArrayBuffer, data: WavData): number {
  const samples = new Int16Array(file.slice(data.offset, data.offset + data.length));
  let peak = 0;
  for (const sample of samples) peak = Math.max(peak, Math.abs(sample));
  return peak / 32768;
}

/** A copy of the file with its samples scaled by `gainDb` (rounded, clipped at full scale). */
export function withGain(file: ArrayBuffer, data: WavData, gainDb: number): ArrayBuffer {
  const out = file.slice(0);
  const samples = new Int16Array(out, data.offset, data.length / 2);
  const factor = 10 ** (gainDb / 20);
  for (let i = 0; i < samples.length; i++) samples[i] = Math.max(-32768, Math.min(32767, Math.round(samples[i]! * factor)));
  return out;
}
