/**
 * A job's waveform peaks file (v3, binary): every level of PeakLevels, so that a player asks for
 * the resolution it can draw, of the span it shows, and never reads megabytes of peaks for a
 * 16-hour job. Layout, little-endian:
 *   0   "ORPK", u32 version (3), u32 sample rate, u32 level-0 peaks per second, u32 level factor,
 *       u32 levels, f64 bytes of 16-bit samples (the duration)
 *   32  per level (16 slots): u32 peaks, u32 byte offset
 *   160 the levels' peaks, u16 each (largest absolute sample of the window, 0–32768), level 0 first
 * Level 0 is written as the audio arrives; the header and the coarser levels at the end.
 */
import { createReadStream } from 'node:fs';
import { open, readFile, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { LEVEL_FACTOR, normalisedPeak, PEAKS_PER_SECOND, PeakLevels } from '../audio/peak-levels';
import { durationSeconds, int16View, parseWav, WAV_HEADER_BYTES } from '../audio/wav';
import type { JobPeaks, JobPeaksQuery } from '../contract';
import { PRIVATE_FILE_MODE } from '../storage/private-files';
import { fileExists, PARTIAL, type JobFiles } from './files';

const MAGIC = 'ORPK';
const VERSION = 3;
const LEVEL_SLOTS = 16;
const HEADER_BYTES = 32 + LEVEL_SLOTS * 8;

const bytesOf = (peaks: Uint16Array) => new Uint8Array(peaks.buffer, peaks.byteOffset, peaks.byteLength);

/** Writes a peaks file under its temporary name while audio arrives; publish() gives it its name. */
export class PeaksFileWriter {
  private readonly levels: PeakLevels;
  private baseCount = 0;

  private constructor(
    private readonly file: string,
    private readonly handle: FileHandle,
    sampleRate: number,
  ) {
    this.levels = new PeakLevels(sampleRate);
  }

  static async create(file: string, sampleRate: number): Promise<PeaksFileWriter> {
    const handle = await open(file + PARTIAL, 'w', PRIVATE_FILE_MODE);
    await handle.write(new Uint8Array(HEADER_BYTES), 0, HEADER_BYTES, 0);
    return new PeaksFileWriter(file, handle, sampleRate);
  }

  async push(samples: Int16Array): Promise<void> {
    this.levels.push(samples);
    await this.appendBase(this.levels.takeBase());
  }

  /** Writes the last level-0 peaks, the coarser levels and the header; flushes and closes. */
  async finish(dataBytes: number): Promise<void> {
    const { base, coarse } = this.levels.finish();
    await this.appendBase(base);
    const header = Buffer.alloc(HEADER_BYTES);
    header.write(MAGIC, 0, 'latin1');
    header.writeUInt32LE(VERSION, 4);
    header.writeUInt32LE(this.levels.sampleRate, 8);
    header.writeUInt32LE(PEAKS_PER_SECOND, 12);
    header.writeUInt32LE(LEVEL_FACTOR, 16);
    header.writeUInt32LE(1 + coarse.length, 20);
    header.writeDoubleLE(dataBytes, 24);
    let offset = HEADER_BYTES;
    for (const [k, count] of [this.baseCount, ...coarse.map((c) => c.length)].entries()) {
      header.writeUInt32LE(count, 32 + k * 8);
      header.writeUInt32LE(offset, 36 + k * 8);
      offset += count * 2;
    }
    let position = HEADER_BYTES + this.baseCount * 2;
    for (const level of coarse) {
      await this.handle.write(bytesOf(level), 0, level.byteLength, position);
      position += level.byteLength;
    }
    await this.handle.write(header, 0, HEADER_BYTES, 0);
    await this.handle.sync();
    await this.handle.close();
  }

  publish(): Promise<void> {
    return rename(this.file + PARTIAL, this.file);
  }

  close(): Promise<void> {
    return this.handle.close().catch(() => undefined); // already closed by finish()
  }

  private async appendBase(peaks: Uint16Array): Promise<void> {
    if (peaks.length === 0) return;
    await this.handle.write(bytesOf(peaks), 0, peaks.byteLength, HEADER_BYTES + this.baseCount * 2);
    this.baseCount += peaks.length;
  }
}

interface Header {
  sampleRate: number;
  basePerSecond: number;
  factor: number;
  dataBytes: number;
  levels: { count: number; offset: number }[];
}

function parseHeader(bytes: Buffer): Header {
  if (bytes.toString('latin1', 0, 4) !== MAGIC || bytes.readUInt32LE(4) !== VERSION) throw new Error('Not a v3 peaks file');
  const levels = Array.from({ length: bytes.readUInt32LE(20) }, (_, k) => ({
    count: bytes.readUInt32LE(32 + k * 8),
    offset: bytes.readUInt32LE(36 + k * 8),
  }));
  return {
    sampleRate: bytes.readUInt32LE(8),
    basePerSecond: bytes.readUInt32LE(12),
    factor: bytes.readUInt32LE(16),
    dataBytes: bytes.readDoubleLE(24),
    levels,
  };
}

/**
 * The /peaks answer from a v3 file, reading only what it returns: without `columns`, level 0 over
 * the span asked; with it, the coarsest level that still has a peak per column over that span.
 */
export async function readPeaks(file: string, query: JobPeaksQuery = {}): Promise<JobPeaks> {
  const handle = await open(file);
  try {
    const head = Buffer.alloc(HEADER_BYTES);
    await handle.read(head, 0, HEADER_BYTES, 0);
    const header = parseHeader(head);
    const duration = durationSeconds(header.sampleRate, header.dataBytes);
    const start = Math.min(duration, query.start_s ?? 0);
    const end = Math.max(start, Math.min(duration, query.end_s ?? duration));
    let k = 0;
    if (query.columns !== undefined) {
      const fits = (level: number) => (end - start) * (header.basePerSecond / header.factor ** level) >= query.columns!;
      while (k + 1 < header.levels.length && fits(k + 1)) k++;
    }
    const perSecond = header.basePerSecond / header.factor ** k;
    const level = header.levels[k]!;
    const first = Math.min(level.count, Math.floor(start * perSecond));
    const last = Math.min(level.count, Math.max(first, Math.ceil(end * perSecond - 1e-9)));
    const raw = Buffer.alloc((last - first) * 2);
    if (raw.length > 0) await handle.read(raw, 0, raw.length, level.offset + first * 2);
    const peaks = Array.from(new Uint16Array(raw.buffer, raw.byteOffset, last - first), normalisedPeak);
    return { duration_s: duration, sample_rate: header.sampleRate, peaks_per_second: perSecond, start_s: first / perSecond, peaks };
  } finally {
    await handle.close();
  }
}

/**
 * Peaks of finished jobs. The job's audio writer writes the v3 file; a job without one (finished
 * by an older version, or its file lost) has it computed from its WAV at the first request, once,
 * however many requests come at the same time. A compressed job of an older version, which has no
 * WAV to compute it from, is answered from its v2 JSON file, whole.
 */
export class PeaksFiles {
  private readonly computing = new Map<string, Promise<void>>();

  constructor(private readonly files: JobFiles) {}

  /**
   * The peaks asked for, and a tag of the file they come from (its size and time) for an ETag.
   * Throws ENOENT when the job has neither peaks nor a WAV to compute them from.
   */
  async read(jobId: string, query: JobPeaksQuery = {}): Promise<{ peaks: JobPeaks; tag: string }> {
    let file = this.files.peaksFile(jobId);
    if (!(await fileExists(file))) {
      const v2 = this.files.legacyPeaksFiles(jobId)[0]!;
      if (!(await fileExists(this.files.audioFile(jobId))) && (await fileExists(v2))) file = v2;
      else await this.ensure(jobId);
    }
    const { size, mtimeMs } = await stat(file);
    const tag = `${size.toString(36)}-${Math.round(mtimeMs).toString(36)}`;
    if (file.endsWith('.bin')) return { peaks: await readPeaks(file, query), tag };
    return { peaks: { ...(JSON.parse(await readFile(file, 'utf8')) as Omit<JobPeaks, 'start_s'>), start_s: 0 }, tag };
  }

  private ensure(jobId: string): Promise<void> {
    let pending = this.computing.get(jobId);
    if (!pending) {
      pending = this.compute(jobId).finally(() => this.computing.delete(jobId));
      this.computing.set(jobId, pending);
    }
    return pending;
  }

  private async compute(jobId: string): Promise<void> {
    await peaksOfWav(this.files.audioFile(jobId), this.files.peaksFile(jobId));
    await Promise.all(this.files.legacyPeaksFiles(jobId).map((f) => rm(f, { force: true })));
  }
}

/** Streams a job's WAV (as the runner writes it: a 44-byte header) into a peaks file. */
async function peaksOfWav(wavFile: string, peaksFile: string): Promise<void> {
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
  const writer = await PeaksFileWriter.create(peaksFile, sampleRate);
  try {
    let odd: Buffer | undefined;
    for await (const piece of createReadStream(wavFile, { start: dataOffset })) {
      const bytes: Buffer = odd ? Buffer.concat([odd, piece as Buffer]) : (piece as Buffer);
      const even = bytes.length - (bytes.length % 2);
      await writer.push(int16View(bytes.subarray(0, even)));
      odd = even < bytes.length ? bytes.subarray(even) : undefined;
    }
    await writer.finish(size - dataOffset);
  } finally {
    await writer.close();
  }
  await writer.publish();
}
