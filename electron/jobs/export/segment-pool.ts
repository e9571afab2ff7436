/**
 * The threads that measure and encode a book's segments (segment-worker.ts, built to
 * dist/export-worker.mjs): one per core, started when an export needs them and gone when idle, so
 * a gateway that is not exporting holds none.
 */
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { SegmentResult, SegmentTask } from './segment-worker';

const IDLE_MS = 5_000;

export class SegmentPool {
  private readonly pool: Piscina;
  readonly threads: number;

  /** `workerFile`: the built dist/export-worker.mjs. */
  constructor(workerFile: string | URL, threads = os.availableParallelism()) {
    this.threads = Math.max(1, threads);
    this.pool = new Piscina({
      filename: workerFile instanceof URL ? fileURLToPath(workerFile) : workerFile,
      minThreads: 0,
      maxThreads: this.threads,
      idleTimeout: IDLE_MS,
    });
  }

  run(task: SegmentTask, signal: AbortSignal): Promise<SegmentResult> {
    return this.pool.run(task, { signal }) as Promise<SegmentResult>;
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
