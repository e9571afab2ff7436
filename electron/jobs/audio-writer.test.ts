import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, open, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { decodeWav, parseWav } from '../audio/wav';
import { JobAudioWriter } from './audio-writer';
import { DiskBudget } from './disk-budget';
import { JobFiles, PARTIAL } from './files';

// The job's WAV on a real disk. Its flushes go through the real FileHandle.prototype.datasync,
// counted by a spy; the one failure is a double: a disk that fails a flush cannot be made here.

const RATE = 22050;
const JOB = { id: 'flushed', format: 'wav', bitrate_kbps: null, keep_wav: 0 } as const;
/** One MiB of samples, never silent. */
const PIECE = Int16Array.from({ length: 1 << 19 }, (_, i) => ((i % 200) - 100) * 50);

let dir: string;
let files: JobFiles;
let datasync: ReturnType<typeof vi.spyOn>;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'orator-writer-'));
  files = new JobFiles(dir);
  await mkdir(files.audioDir());
  const handle = await open(path.join(dir, 'probe'), 'w');
  datasync = vi.spyOn(Object.getPrototypeOf(handle) as { datasync(): Promise<void> }, 'datasync');
  await handle.close();
});
afterEach(async () => {
  datasync.mockRestore();
  await rm(dir, { recursive: true, force: true });
});

const openWriter = () => JobAudioWriter.open(files, JOB, RATE, new DiskBudget(dir, 0));

async function append(writer: JobAudioWriter, mib: number): Promise<JobAudioWriter> {
  for (let i = 0; i < mib; i++) await writer.append(PIECE);
  return writer;
}

const eio = () => Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });

describe('JobAudioWriter flushes', () => {
  it('flushes a long WAV to disk as it is written, not only at the end', async () => {
    const writer = await append(await openWriter(), 100);
    // one every 32 MiB at most: a flush still under way when the next 32 MiB are written is not doubled
    expect(datasync.mock.calls.length).toBeGreaterThanOrEqual(1);
    expect(datasync.mock.calls.length).toBeLessThanOrEqual(3);
    const written = await writer.finish();
    expect(written.dataBytes).toBe(100 * PIECE.byteLength);
    const file = await readFile(files.audioFile(JOB.id));
    // the header's own sizes, written last, and every sample
    expect(parseWav(file)).toMatchObject({ sampleRate: RATE, channels: 1, dataBytes: written.dataBytes });
    expect(file.readUInt32LE(40)).toBe(written.dataBytes);
    const { samples } = decodeWav(file);
    expect(samples.length).toBe(100 * PIECE.length);
    expect(samples.subarray(-PIECE.length)).toEqual(PIECE);
  });

  it('writes a short WAV with no flush before the final one', async () => {
    const writer = await append(await openWriter(), 8);
    expect(datasync).not.toHaveBeenCalled();
    await writer.finish();
    expect(decodeWav(await readFile(files.audioFile(JOB.id))).samples.length).toBe(8 * PIECE.length);
  });

  it('fails the next append after a flush that failed', async () => {
    datasync.mockRejectedValueOnce(eio());
    const writer = await openWriter();
    await expect(append(writer, 40)).rejects.toThrow(/EIO/);
    expect(datasync).toHaveBeenCalledTimes(1);
    await writer.close();
    expect(existsSync(files.audioFile(JOB.id))).toBe(false);
  });

  it('fails at the end after a flush that failed, and publishes nothing', async () => {
    datasync.mockRejectedValueOnce(eio());
    // the flush starts with the 32nd MiB, the last one written
    const writer = await append(await openWriter(), 32);
    await expect(writer.finish()).rejects.toThrow(/EIO/);
    await writer.close();
    expect(existsSync(files.audioFile(JOB.id))).toBe(false);
    expect(existsSync(files.audioFile(JOB.id) + PARTIAL)).toBe(true);
  });
});
