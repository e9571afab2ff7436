import { open } from 'node:fs/promises';
import { encodeStream } from '../audio/encode/encoder';
import { PCM_SAMPLE_RATE } from '../audio/encode/formats';
import { WAV_HEADER_BYTES } from '../audio/wav';
import type { OutputChoice } from '../contract';
import type { JobFiles } from './files';
import type { JobRow } from './rows';

/** Read at a time: an hour of WAV goes out in the memory of a few seconds of it. */
const BLOCK_BYTES = 1 << 18;

/** Where a finished job keeps plain samples to encode from: its WAV (own or kept), or its pcm file. */
export interface SampleSource {
  file: string;
  /** Bytes before the first sample. */
  offset: number;
  sampleRate: number;
}

/** The job's plain samples, or null when it keeps only compressed audio (it cannot be sent in another format). */
export function sampleSource(files: JobFiles, row: Pick<JobRow, 'id' | 'format' | 'keep_wav' | 'sample_rate'>): SampleSource | null {
  if (row.format === 'wav' || row.keep_wav === 1) {
    return { file: files.audioFile(row.id, 'wav'), offset: WAV_HEADER_BYTES, sampleRate: row.sample_rate! };
  }
  if (row.format === 'pcm') return { file: files.audioFile(row.id, 'pcm'), offset: 0, sampleRate: PCM_SAMPLE_RATE };
  return null;
}

/** The 16-bit samples of a file from `offset` on, a block at a time. */
export async function* readSamples(source: SampleSource): AsyncGenerator<Int16Array> {
  const handle = await open(source.file, 'r');
  try {
    let position = source.offset;
    for (;;) {
      const block = Buffer.alloc(BLOCK_BYTES);
      const { bytesRead } = await handle.read(block, 0, BLOCK_BYTES, position);
      // an odd last byte is no sample
      const whole = bytesRead - (bytesRead % 2);
      if (whole === 0) return;
      position += whole;
      yield new Int16Array(block.buffer, block.byteOffset, whole / 2);
    }
  } finally {
    await handle.close();
  }
}

/**
 * A stored job's audio encoded afresh, as it is read (GET …/audio?format=): one pass, a block at a
 * time, never the whole file in memory. The file is opened at once, so a missing one fails before
 * anything is sent.
 */
export async function transcode(source: SampleSource, output: OutputChoice): Promise<AsyncIterable<Uint8Array>> {
  await open(source.file, 'r').then((handle) => handle.close());
  return encodeStream(output.format, { sampleRate: source.sampleRate, bitrateKbps: output.bitrateKbps }, readSamples(source));
}
