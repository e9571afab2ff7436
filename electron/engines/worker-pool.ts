import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { LaneLimiter, type Lane } from './lanes';
import type { WorkerReply, WorkerTask } from './worker-protocol';

export type { Lane } from './lanes';

export interface PoolOptions {
  /** The built worker entry (dist/synth-worker.mjs). */
  workerFile: string | URL;
  /** Threads; default: one per core. */
  threads?: number;
}

export interface RunOptions {
  /** The caller's cancel: a waiting task leaves the queue, a running one has its thread stopped. */
  signal?: AbortSignal | undefined;
  /** Counted from when the task gets a thread; past it the thread is stopped and run() rejects with TaskTimeout. */
  timeoutMs?: number | undefined;
}

/** A task that overran its time limit; its worker thread was terminated (a fresh one replaces it). */
export class TaskTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`The task did not finish within ${timeoutMs / 1000} s; its worker thread was stopped.`);
    this.name = 'TaskTimeout';
  }
}

/**
 * The worker-thread pool that runs all embedded engines. Tasks reach Piscina only when a thread is
 * free, through a LaneLimiter: Piscina's own queue would let tasks that carry an AbortSignal skip
 * the lanes (it parks them in a plain FIFO served first), and every task here carries one.
 */
export class EmbeddedPool {
  private readonly piscina: Piscina;
  private readonly slots: LaneLimiter;
  /** The worker bundle, which also serves neural models in a child process (see worker.ts). */
  readonly workerFile: string;

  constructor(options: PoolOptions) {
    this.workerFile = options.workerFile instanceof URL ? fileURLToPath(options.workerFile) : options.workerFile;
    const threads = options.threads ?? Math.max(1, os.availableParallelism());
    this.piscina = new Piscina({
      filename: options.workerFile instanceof URL ? options.workerFile.href : options.workerFile,
      minThreads: 1,
      maxThreads: threads,
      idleTimeout: 60_000,
    });
    this.slots = new LaneLimiter(threads);
  }

  get threads(): number {
    return this.piscina.options.maxThreads;
  }

  /**
   * Runs a task on a worker thread, interactive before batch. An abort by the caller rejects with
   * the signal's reason; a timeout with TaskTimeout. Either way a running task's thread is
   * terminated, which also stops a WASM engine stuck in a loop.
   */
  run<T extends WorkerTask>(task: T, lane: Lane, options: RunOptions = {}): Promise<WorkerReply<T>> {
    const { signal, timeoutMs } = options;
    return this.slots.run(
      lane,
      async () => {
        // One controller for both causes, so that Piscina sees a single signal; its listeners go when the task ends.
        const stop = new AbortController();
        const onAbort = () => stop.abort(signal!.reason);
        signal?.addEventListener('abort', onAbort, { once: true });
        const timer = timeoutMs === undefined ? undefined : setTimeout(() => stop.abort(new TaskTimeout(timeoutMs)), timeoutMs);
        try {
          return (await this.piscina.run(task, { signal: stop.signal })) as WorkerReply<T>;
        } catch (error) {
          if (stop.signal.aborted) throw stop.signal.reason;
          throw error;
        } finally {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        }
      },
      signal,
    );
  }

  async close(): Promise<void> {
    await this.piscina.close({ force: true });
  }
}
