/**
 * How far under the true-peak ceiling the limiter aims, so that the file a listener plays stays
 * under it: lossy encoding adds quantisation noise to every peak. Measured (docs/audiobook.md,
 * "True peak after encoding"): 30 minutes of eSpeak NG speech in six voices and pitches, held to a
 * true peak, encoded by Orator's encoders at each bitrate, decoded by FFmpeg; the headroom is the
 * largest overshoot seen plus 0.5 dB, rounded up to 0.5 dB.
 * AAC below 96 kb/s is the exception no headroom fixes: FFmpeg's encoder (its "twoloop" coder, the
 * only one the WASM build runs) makes a few frames whose decoded error is as large as the speech,
 * whose peaks follow the loudness, not the limiter. Those bitrates get the 96 kb/s headroom; the
 * M4B's default is 96 kb/s (contract/exports.ts).
 */
import type { ExportFormat } from '../../contract';

/** [bitrate at 22.05 kHz, headroom dB] from the highest bitrate down: a bitrate takes the row at or below it. */
const AAC_HEADROOM: readonly (readonly [number, number])[] = [
  [128, 1],
  [0, 1.5],
];
const MP3_HEADROOM: readonly (readonly [number, number])[] = [
  [128, 0.5],
  [96, 1],
  [64, 1.5],
  [48, 1.5],
  [32, 2],
  [0, 3],
];
const MEASURED_RATE = 22_050;

/**
 * The headroom for an export's format at its bitrate. What counts is the bits per sample: a book
 * at another rate is looked up at the bitrate that gives as many bits at 22.05 kHz (64 kb/s at
 * 44.1 kHz is 32 kb/s at 22.05 kHz).
 */
export function encodingHeadroomDb(format: ExportFormat, bitrateKbps: number, sampleRate: number): number {
  const table = format === 'm4b' ? AAC_HEADROOM : MP3_HEADROOM;
  const kbps = (bitrateKbps * MEASURED_RATE) / sampleRate;
  return (table.find(([rowKbps]) => kbps >= rowKbps) ?? table.at(-1)!)[1];
}
