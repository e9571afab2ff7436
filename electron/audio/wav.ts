/**
 * RIFF/WAVE for 16-bit mono PCM. Written by hand because jobs stream hours of audio to disk
 * chunk by chunk: only the 44-byte header needs writing, never the whole file in memory.
 */
import type { Pcm } from './pcm';

export const WAV_HEADER_BYTES = 44;
const BYTES_PER_SAMPLE = 2;

export function wavHeader(sampleRate: number, dataBytes: number): Buffer {
  const header = Buffer.alloc(WAV_HEADER_BYTES);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(Math.min(0xffffffff, 36 + dataBytes), 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16); // fmt chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * BYTES_PER_SAMPLE, 28); // byte rate
  header.writeUInt16LE(BYTES_PER_SAMPLE, 32); // block align
  header.writeUInt16LE(16, 34); // bits per sample
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(Math.min(0xffffffff, dataBytes), 40);
  return header;
}

export function pcmBytes(samples: Int16Array): Buffer {
  return Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
}

/** The bytes of 16-bit PCM as samples, without a copy when they are aligned. */
export function int16View(bytes: Buffer): Int16Array {
  const aligned = bytes.byteOffset % 2 === 0 ? bytes : Buffer.from(bytes);
  return new Int16Array(aligned.buffer, aligned.byteOffset, Math.floor(aligned.length / 2));
}

export function encodeWav(pcm: Pcm): Buffer {
  return Buffer.concat([wavHeader(pcm.sampleRate, pcm.samples.byteLength), pcmBytes(pcm.samples)]);
}

export function durationSeconds(sampleRate: number, dataBytes: number): number {
  return dataBytes / BYTES_PER_SAMPLE / sampleRate;
}

export interface WavInfo {
  format: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  dataOffset: number;
  dataBytes: number;
}

/**
 * Reads a WAV header, walking its chunks. A data size of 0 or 0xFFFFFFFF (written by tools
 * that stream to a pipe) means "to the end of the file".
 */
export function parseWav(file: Buffer): WavInfo {
  if (file.length < 12 || file.toString('ascii', 0, 4) !== 'RIFF' || file.toString('ascii', 8, 12) !== 'WAVE') {
    throw new Error('Not a RIFF/WAVE file');
  }
  let offset = 12;
  let fmt: Omit<WavInfo, 'dataOffset' | 'dataBytes'> | undefined;
  while (offset + 8 <= file.length) {
    const id = file.toString('ascii', offset, offset + 4);
    const size = file.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') {
      fmt = {
        format: file.readUInt16LE(body),
        channels: file.readUInt16LE(body + 2),
        sampleRate: file.readUInt32LE(body + 4),
        bitsPerSample: file.readUInt16LE(body + 14),
      };
    } else if (id === 'data') {
      if (!fmt) throw new Error('WAV data chunk before its fmt chunk');
      const rest = file.length - body;
      const dataBytes = size === 0 || size === 0xffffffff || size > rest ? rest : size;
      return { ...fmt, dataOffset: body, dataBytes };
    }
    offset = body + size + (size % 2);
  }
  throw new Error('WAV file has no data chunk');
}

/** Sample rates an engine may plausibly give (telephone to studio quality). */
const SAMPLE_RATES = { min: 4000, max: 192_000 };

/**
 * Throws unless `pcm` is audio Orator can store and play: 16-bit samples at a plausible rate. An
 * engine's output is checked with it before it reaches a WAV header or a job's chunk files.
 * No samples at all is valid: engines say nothing for text that is only punctuation.
 */
export function assertPlausiblePcm(pcm: Pcm): void {
  const { sampleRate, samples } = (pcm ?? {}) as Partial<Pcm>;
  if (!(samples instanceof Int16Array)) throw new Error('no 16-bit samples');
  if (!Number.isInteger(sampleRate) || sampleRate! < SAMPLE_RATES.min || sampleRate! > SAMPLE_RATES.max) {
    throw new Error(`an impossible sample rate of ${String(sampleRate)} Hz`);
  }
}

/** The samples of a 16-bit mono PCM WAV file at a plausible sample rate. */
export function decodeWav(file: Buffer): Pcm {
  const info = parseWav(file);
  if (info.format !== 1 || info.bitsPerSample !== 16 || info.channels !== 1) {
    throw new Error(`Expected 16-bit mono PCM WAV, got format ${info.format}, ${info.bitsPerSample} bit, ${info.channels} channels`);
  }
  // The samples may be modified (gain): a view only where the file has its memory to itself (a
  // file read whole), a copy where it shares it (a small Buffer from Node's pool, or a slice).
  const data = file.subarray(info.dataOffset, info.dataOffset + info.dataBytes);
  const owned = file.byteOffset === 0 && file.buffer.byteLength === file.length;
  const samples = int16View(owned ? data : Buffer.from(data));
  const pcm = { sampleRate: info.sampleRate, samples };
  assertPlausiblePcm(pcm);
  return pcm;
}
