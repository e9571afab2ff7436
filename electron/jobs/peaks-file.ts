import { createReadStream } from 'node:fs';
import { open, rename, rm, writeFile } from 'node:fs/promises';
import { PeakAccumulator, PEAKS_PER_SECOND } from '../audio/peaks';
import { durationSeconds, int16View, parseWav, WAV_HEADER_BYTES } from '../audio/wav';
import { PRIVATE_FILE_MODE } from '../storage/private-files';
import { fileExists, PARTIAL, type JobFiles } from './files';

/** The /peaks answer, serialised once: it is stored and served as it is. */
export function peaksBody(sampleRate: number, dataBytes: number, peaks: number[]): string {
  return JSON.stringify({
    duration_s: durationSeconds(sampleRate, dataBytes),
    sample_rate: sampleRate,
    peaks_per_second: PEAKS_PER_SECOND,
    peaks,
  });
}

/** Writes under a temporary name and renames, so a half-written file is never served. */
export async function writeWhole(file: string, content: string): Promise<void> {
  await writeFile(file + PARTIAL, content, { mode: PRIVATE_FILE_MODE });
  await rename(file + PARTIAL, file);
}

/**
 * Peaks files of finished jobs. The runner writes one when it assembles a job's WAV; a job
 * without one (finished by an older version, or its file lost) has it computed from its WAV at
 * the first request, once, however many requests come at the same time.
 */
export class PeaksFiles {
  private readonly computing = new Map<string, Promise<string>>();

  constructor(private readonly files: JobFiles) {}

  /** The peaks file of a job whose WAV exists; throws ENOENT when the WAV is gone. */
  async ensure(jobId: string): Promise<string> {
    const file = this.files.peaksFile(jobId);
    if (await fileExists(file)) return file;
    let pending = this.computing.get(jobId);
    if (!pending) {
      pending = this.compute(jobId).finally(() => this.computing.delete(jobId));
      this.computing.set(jobId, pending);
    }
    return pending;
  }

  private async compute(jobId: string): Promise<string> {
    const body = await peaksOfWav(this.files.audioFile(jobId));
    const file = this.files.peaksFile(jobId);
    await writeWhole(file, body);
    await rm(this.files.legacyPeaksFile(jobId), { force: true });
    return file;
  }
}

/** Streams a job's WAV (as the runner writes it: a 44-byte header) through the peak accumulator. */
async function peaksOfWav(wavFile: string): Promise<string> {
  const handle = await open(wavFile);
  const header = Buffer.alloc(WAV_HEADER_BYTES);
  let size: number;
  try {
    await handle.read(header, 0, WAV_HEADER_BYTES, 0);
    size = (await handle.stat()).size;
  } finally {
    await handle.close();
  }
  const { sampleRate, dataOffset } = parseWav(header);
  const dataBytes = size - dataOffset;
  const peaks = new PeakAccumulator(sampleRate);
  let odd: Buffer | undefined;
  for await (const piece of createReadStream(wavFile, { start: dataOffset })) {
    const bytes: Buffer = odd ? Buffer.concat([odd, piece as Buffer]) : (piece as Buffer);
    const even = bytes.length - (bytes.length % 2);
    peaks.push(int16View(bytes.subarray(0, even)));
    odd = even < bytes.length ? bytes.subarray(even) : undefined;
  }
  return peaksBody(sampleRate, dataBytes, peaks.finish());
}
