/**
 * Entry of the export threads (built to dist/export-worker.mjs): one segment of a book
 * (segments.ts) measured as it is, measured after gain and limiting, or conditioned and encoded to
 * AAC (its raw frames) or MP3 (its frames as LAME writes them), written to a file. Each thread does one segment at a time; the pool runs one
 * thread per core, so a book's segments are encoded side by side.
 */
import { open } from 'node:fs/promises';
import { AdtsReader } from '../../audio/adts';
import { createEncoder } from '../../audio/encode/encoder';
import { LoudnessMeter, type StepLevels } from '../../audio/loudness';
import { segmentSamples, type Segment } from './book-audio';
import { conditioned } from './normalise';
import { lowerThisThreadsPriority } from '../../engines/thread-priority';

// an export is batch work: every core it takes, it gives up to the gateway's requests first
lowerThisThreadsPriority();

export interface SegmentTask {
  segment: Segment;
  /** Absent: the segment as it is. Present: after this gain and the limiter. */
  gainDb?: number;
  ceilingDbtp?: number;
  /**
   * Encodes the conditioned segment at this bitrate, its frames to `file`; only its first `samples`
   * when given (an MP3 segment leaves out the end of its trailing silence: segments.ts).
   */
  encode?: { format: 'aac' | 'mp3'; bitrateKbps: number; file: string; samples?: number };
}

export interface SegmentResult {
  /** The mean square of each 400 ms block (LoudnessMeter.blockPowers). */
  blocks: Float64Array;
  /** −Infinity when not measured (a limited measure) or silent. */
  truePeakDbtp: number;
  /** The segment as it is: its 100 ms steps, for the limiter's model (limiting-model.ts). */
  steps?: StepLevels;
  /** The encoded track: every frame, the encoder's priming frame first. */
  aac?: { config: Uint8Array; sampleRate: number; channels: number; frameSizes: Uint16Array };
  /** The MP3 frames' bytes. */
  mp3?: { bytes: number };
}

export default async function runSegment(task: SegmentTask): Promise<SegmentResult> {
  const { segment, gainDb } = task;
  const raw = segmentSamples(segment);
  const samples =
    gainDb === undefined ? raw : conditioned(raw, segment.sampleRate, { targetLufs: 0, ceilingDbtp: task.ceilingDbtp! }, gainDb);
  // the true peak is what the export reports of the book it made, and what decides the limiter
  const meter = new LoudnessMeter(segment.sampleRate, { truePeak: task.encode !== undefined || gainDb === undefined });
  if (!task.encode) {
    for await (const piece of samples) meter.push(piece);
    const steps = gainDb === undefined ? { steps: meter.steps() } : {};
    return { blocks: meter.blockPowers(), truePeakDbtp: meter.finish().truePeakDbtp, ...steps };
  }
  const { format, bitrateKbps, samples: encoded = Infinity } = task.encode;
  const encoder = await createEncoder(format, { sampleRate: segment.sampleRate, bitrateKbps, inThisThread: true });
  const file = await open(task.encode.file, 'w', 0o600);
  const reader = format === 'aac' ? new AdtsReader() : null;
  let bytes = 0;
  try {
    const keep = async (chunk: Uint8Array) => {
      const frames = reader ? reader.push(chunk) : chunk;
      bytes += frames.length;
      if (frames.length > 0) await file.write(frames);
    };
    let sent = 0;
    for await (const piece of samples) {
      meter.push(piece);
      const fit = piece.subarray(0, Math.max(0, encoded - sent));
      sent += fit.length;
      if (fit.length > 0) await keep(await encoder.push(fit));
    }
    await keep(await encoder.finish());
  } finally {
    await encoder.close();
    await file.close();
  }
  const measures = { blocks: meter.blockPowers(), truePeakDbtp: meter.finish().truePeakDbtp };
  if (!reader) return { ...measures, mp3: { bytes } };
  const track = reader.track();
  const aac = { config: track.config, sampleRate: track.sampleRate, channels: track.channels, frameSizes: track.frameSizes.slice() };
  return { ...measures, aac };
}
