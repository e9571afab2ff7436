import path from 'node:path';

/** Where a job's files live in the data dir. */
export class JobFiles {
  constructor(private readonly dataDir: string) {}

  chunkDir(jobId: string): string {
    return path.join(this.dataDir, 'chunks', jobId);
  }
  chunkFile(jobId: string, idx: number): string {
    return path.join(this.chunkDir(jobId), `${String(idx).padStart(6, '0')}.pcm`);
  }
  audioDir(): string {
    return path.join(this.dataDir, 'audio');
  }
  audioFile(jobId: string): string {
    return path.join(this.audioDir(), `${jobId}.wav`);
  }
  /** The /peaks answer as it is served (see peaks-file.ts). */
  peaksFile(jobId: string): string {
    return path.join(this.audioDir(), `${jobId}.peaks.v2.json`);
  }
  /** Peaks as versions before v2 stored them, without the duration; replaced at the first request. */
  legacyPeaksFile(jobId: string): string {
    return path.join(this.audioDir(), `${jobId}.peaks.json`);
  }
  /** What a finished job leaves: its WAV and its peaks. */
  outputs(jobId: string): string[] {
    return [this.audioFile(jobId), this.peaksFile(jobId), this.legacyPeaksFile(jobId)];
  }
}

/** Files being written carry this suffix until they are complete and renamed. */
export const PARTIAL = '.partial';
