/**
 * One streaming encoder for every output format: push 16-bit mono samples as synthesis makes them,
 * get back the encoded bytes ready so far, finish() for the tail. Nothing keeps the whole audio:
 * an hour is encoded in the memory of a few seconds. Formats and defaults: docs/formats.md.
 */
import { bitrateProblem } from '../../contract/formats';
import type { Pcm } from '../pcm';
import { encodeWav } from '../wav';
import { AUDIO_FORMATS, FORMATS, encodedSampleRate, isAudioFormat, type AudioFormat } from './formats';
import { rawSink } from './raw-sink';
import { Resampler } from './resampler';
import { concatBytes, type EncoderSink } from './sink';

export interface EncoderOptions {
  /** The rate of the samples that will be pushed (the voice's native rate). */
  sampleRate: number;
  /** Lossy formats only; the format's default when absent. */
  bitrateKbps?: number;
  /**
   * AAC only: encode in this thread rather than in a worker of the encoder's own (aac-sink.ts),
   * for callers that are themselves off the main thread (the export threads).
   */
  inThisThread?: boolean;
}

export interface StreamingEncoder {
  readonly format: AudioFormat;
  readonly contentType: string;
  readonly extension: string;
  /** The rate of the encoded audio: the input's, or the one the codec needed (resampled). */
  readonly sampleRate: number;
  /** The requested bitrate of lossy formats; the codec may round it (docs/formats.md). */
  readonly bitrateKbps: number | undefined;
  /** Encodes samples at the rate given to createEncoder; resolves with the bytes ready so far. */
  push(samples: Int16Array): Promise<Uint8Array>;
  /** Ends the stream; resolves with the remaining bytes. The encoder is released. */
  finish(): Promise<Uint8Array>;
  /** Releases the encoder without finishing the stream (client gone, job cancelled). */
  close(): Promise<void>;
}

/** Options no encoder can honour: the caller's mistake, to be answered with a 400. */
export class EncoderOptionError extends RangeError {
  override name = 'EncoderOptionError';
}

/** Far above any voice; keeps the resampler's buffers sane. */
const MAX_SAMPLE_RATE = 384_000;

export async function createEncoder(format: AudioFormat, options: EncoderOptions): Promise<StreamingEncoder> {
  const bitrateKbps = checkOptions(format, options);
  const sampleRate = encodedSampleRate(format, options.sampleRate);
  const resampler = sampleRate === options.sampleRate ? undefined : await Resampler.create(options.sampleRate, sampleRate);
  let sink: EncoderSink;
  try {
    sink = await openSink(format, sampleRate, bitrateKbps, options.inThisThread === true);
  } catch (error) {
    resampler?.close();
    throw error;
  }
  let state: 'open' | 'finishing' | 'done' = 'open';
  const release = async () => {
    state = 'done';
    resampler?.close();
    await sink.close();
  };
  return {
    format,
    contentType: FORMATS[format].contentType,
    extension: FORMATS[format].extension,
    sampleRate,
    bitrateKbps,
    async push(samples) {
      if (state !== 'open') throw new Error(`The ${format} encoder is ${state === 'done' ? 'closed' : 'finishing'}`);
      return sink.push(resampler ? resampler.push(samples) : samples);
    },
    async finish() {
      if (state !== 'open') throw new Error(`The ${format} encoder is ${state === 'done' ? 'closed' : 'finishing'}`);
      state = 'finishing';
      try {
        const tail = resampler ? await sink.push(resampler.finish()) : new Uint8Array(0);
        return concatBytes([tail, await sink.finish()]);
      } finally {
        await release();
      }
    },
    async close() {
      if (state === 'open') await release(); // a finish() under way releases by itself
    },
  };
}

/** Encodes audio held whole in memory (an inline answer); a WAV gets its exact length in its header. */
export async function encodeWhole(format: AudioFormat, pcm: Pcm, bitrateKbps?: number): Promise<Buffer> {
  if (format === 'wav') {
    checkOptions(format, { sampleRate: pcm.sampleRate, bitrateKbps });
    return encodeWav(pcm);
  }
  const encoder = await createEncoder(format, { sampleRate: pcm.sampleRate, bitrateKbps });
  try {
    const body = await encoder.push(pcm.samples);
    return Buffer.concat([body, await encoder.finish()]);
  } finally {
    await encoder.close();
  }
}

/**
 * Encodes samples as they are read (a stored WAV sent in another format): yields the bytes of each
 * piece. Stopping early (the client went away) releases the encoder.
 */
export async function* encodeStream(
  format: AudioFormat,
  options: EncoderOptions,
  samples: AsyncIterable<Int16Array>,
): AsyncGenerator<Uint8Array> {
  const encoder = await createEncoder(format, options);
  try {
    for await (const piece of samples) {
      const bytes = await encoder.push(piece);
      if (bytes.length > 0) yield bytes;
    }
    yield await encoder.finish();
  } finally {
    await encoder.close();
  }
}

/**
 * The codecs' libraries (LAME, Opus, mediabunny's AAC and FLAC) load with the first encoder of
 * their format: a gateway that only writes WAV never holds them (docs/performance.md, Memory).
 */
async function openSink(format: AudioFormat, sampleRate: number, kbps: number | undefined, inThisThread: boolean): Promise<EncoderSink> {
  if (format === 'aac' && inThisThread) return (await import('./aac-sink')).aacSink(sampleRate, kbps! * 1000);
  switch (format) {
    case 'wav':
    case 'pcm':
      return rawSink(sampleRate, format === 'wav');
    case 'mp3':
      return (await import('./mp3-sink')).mp3Sink(sampleRate, kbps!);
    case 'ogg':
      return (await import('./ogg-opus-sink')).oggOpusSink(sampleRate, kbps! * 1000);
    case 'flac':
    case 'm4a':
    case 'aac':
      return (await import('./worker-codec-sink')).workerCodecSink(format, sampleRate, kbps === undefined ? undefined : kbps * 1000);
  }
}

/** Validates the options; returns the bitrate to use (lossy formats), in kbps. */
export function checkOptions(format: AudioFormat, options: EncoderOptions): number | undefined {
  if (!isAudioFormat(format)) throw new EncoderOptionError(`Unknown audio format "${format}"; known: ${AUDIO_FORMATS.join(', ')}`);
  if (!Number.isInteger(options.sampleRate) || options.sampleRate < 1 || options.sampleRate > MAX_SAMPLE_RATE) {
    throw new EncoderOptionError(`The sample rate must be a whole number of Hz from 1 to ${MAX_SAMPLE_RATE}, not ${options.sampleRate}`);
  }
  const problem = bitrateProblem(format, options.bitrateKbps);
  if (problem) throw new EncoderOptionError(problem);
  return options.bitrateKbps ?? FORMATS[format].bitrate?.defaultKbps;
}
