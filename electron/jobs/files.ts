import { access, mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pcmBytes } from '../audio/wav';
import { AUDIO_MEDIA, OUTPUT_FORMATS, type OutputFormat } from '../contract';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../storage/private-files';

/** Where a job's files live in the data dir. */
export class JobFiles {
  constructor(private readonly dataDir: string) {}

  chunkDir(jobId: string): string {
    return path.join(this.dataDir, 'chunks', jobId);
  }
  chunkFile(jobId: string, idx: number): string {
    return path.join(this.chunkDir(jobId), `${String(idx).padStart(6, '0')}.pcm`);
  }
  /** Writes a chunk's audio under a temporary name and renames it: a chunk file is always whole. */
  async writeChunk(jobId: string, idx: number, samples: Int16Array): Promise<void> {
    await writeSamples(this.chunkFile(jobId, idx), samples);
  }
  /** The WAV of an earlier render whose audio the job reuses (jobs/base-audio/), linked among its work files. */
  baseFile(jobId: string): string {
    return path.join(this.chunkDir(jobId), 'base.wav');
  }
  audioDir(): string {
    return path.join(this.dataDir, 'audio');
  }
  /** A finished job's audio in `format`: the format it is stored in, or its WAV kept beside it. */
  audioFile(jobId: string, format: OutputFormat = 'wav'): string {
    return path.join(this.audioDir(), `${jobId}.${AUDIO_MEDIA[format].extension}`);
  }
  /** The waveform peaks at every resolution (see peaks-file.ts). */
  peaksFile(jobId: string): string {
    return path.join(this.audioDir(), `${jobId}.peaks.v3.bin`);
  }
  /** Peaks as older versions stored them, newest first: v2 JSON, and before it JSON without the duration. */
  legacyPeaksFiles(jobId: string): string[] {
    return [path.join(this.audioDir(), `${jobId}.peaks.v2.json`), path.join(this.audioDir(), `${jobId}.peaks.json`)];
  }
  /** What a finished job may leave: its audio (in its format, and a WAV kept beside it) and its peaks. */
  outputs(jobId: string): string[] {
    return [...OUTPUT_FORMATS.map((format) => this.audioFile(jobId, format)), this.peaksFile(jobId), ...this.legacyPeaksFiles(jobId)];
  }
  async removeOutputs(jobId: string): Promise<void> {
    await Promise.all(this.outputs(jobId).map((f) => rm(f, { force: true })));
  }
  /**
   * Removes a job's chunk audio (it is joined, or the job failed), one file at a time, in the
   * background of whatever else the gateway reads and writes: a recursive rm queues an unlink per
   * file on libuv's four threads at once, and the first request of the player that opened the
   * finished 1,000,000-character job (4,170 chunk files) waited 2.5 s behind them.
   */
  async removeChunks(jobId: string): Promise<void> {
    const dir = this.chunkDir(jobId);
    try {
      for (const name of await readdir(dir)) await rm(path.join(dir, name), { force: true });
      await rm(dir, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      console.warn(`Orator could not remove the chunks of job ${jobId}: ${(error as Error).message}`);
    }
  }
  /** Removes everything a job that failed may have left: chunks, partial files, audio being written. */
  async removeWork(jobId: string): Promise<void> {
    const outputs = this.outputs(jobId).flatMap((f) => [f, f + PARTIAL]);
    await this.removeChunks(jobId);
    await Promise.all(outputs.map((f) => rm(f, { force: true }))).catch((error: Error) => {
      console.warn(`Orator could not remove the work files of job ${jobId}: ${error.message}`);
    });
  }
}

export function fileExists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

/** Files being written carry this suffix until they are complete and renamed. */
export const PARTIAL = '.partial';

/**
 * Writes 16-bit samples to `file` under a temporary name and renames it, so that the file is
 * always whole. Its folder is made only when the write finds it missing: a chapter of a sentence
 * per chunk writes hundreds of files in a few folders, and a mkdir before each cost the render.
 */
export async function writeSamples(file: string, samples: Int16Array): Promise<void> {
  const bytes = pcmBytes(samples);
  try {
    await writeFile(file + PARTIAL, bytes, { mode: PRIVATE_FILE_MODE });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await mkdir(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
    await writeFile(file + PARTIAL, bytes, { mode: PRIVATE_FILE_MODE });
  }
  await rename(file + PARTIAL, file);
}
