import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { LaneLimiter, type Lane } from './lanes';
import type { Voice } from '../contract';
import type { SynthesisTask, WorkerReply } from './worker-protocol';

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
 * Threads kept for interactive tasks beyond those batch work may take. The thread is started when
 * such a task finds the others busy, and exits after a minute idle like any above the first.
 */
const INTERACTIVE_THREADS = 1;

/** A listing thread that has nothing more to list exits after this long, with the engines it loaded. */
const LISTER_IDLE_MS = 2_000;

/**
 * The worker-thread pool that runs all embedded engines. Tasks reach Piscina only when a thread is
 * free, through a LaneLimiter: Piscina's own queue would let tasks that carry an AbortSignal skip
 * the lanes (it parks them in a plain FIFO served first), and every task here carries one.
 *
 * Voices are listed on a thread of their own that exits when idle: listing loads an engine (up to
 * 70 MB for Flite), and a synthesis thread should hold only the engines it synthesizes with.
 */
export class EmbeddedPool {
  private readonly piscina: Piscina;
  private readonly lister: Piscina;
  private readonly slots: LaneLimiter;
  private readonly maxThreads: number;
  private warming = false;
  /** Threads for batch work (job chunks), and the chunks a job runs at once. */
  readonly threads: number;
  /** The worker bundle, which also serves neural models in a child process (see worker.ts). */
  readonly workerFile: string;

  constructor(options: PoolOptions) {
    this.workerFile = options.workerFile instanceof URL ? fileURLToPath(options.workerFile) : options.workerFile;
    this.threads = options.threads ?? Math.max(1, os.availableParallelism());
    const filename = options.workerFile instanceof URL ? options.workerFile.href : options.workerFile;
    // one thread more than batch work may take: an inline request during a job starts at once
    const maxThreads = (this.maxThreads = this.threads + INTERACTIVE_THREADS);
    this.piscina = new Piscina({ filename, minThreads: 1, maxThreads, idleTimeout: 60_000 });
    this.lister = new Piscina({ filename, minThreads: 0, maxThreads: 1, idleTimeout: LISTER_IDLE_MS });
    this.slots = new LaneLimiter(maxThreads, { batch: this.threads });
  }

  /**
   * Runs a task on a worker thread, interactive before batch. An abort by the caller rejects with
   * the signal's reason; a timeout with TaskTimeout. Either way a running task's thread is
   * terminated, which also stops a WASM engine stuck in a loop.
   */
  run<T extends SynthesisTask>(task: T, lane: Lane, options: RunOptions = {}): Promise<WorkerReply<T>> {
    const { signal, timeoutMs } = options;
    if (lane === 'batch') this.warmInteractiveThread(task);
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

  /**
   * While batch work runs, the thread kept for interactive tasks is started, with the batch's
   * engine loaded, before an interactive task needs it: starting both cold took 1.8 s of the first
   * preview during a job. Like any thread it exits after a minute idle, and is started again.
   */
  private warmInteractiveThread(task: SynthesisTask): void {
    if (this.warming || this.piscina.threads.length >= this.maxThreads) return;
    this.warming = true;
    this.piscina
      .run({ ...task, request: { ...task.request, text: 'a' } } satisfies SynthesisTask)
      .catch(() => undefined) // a broken engine fails the batch task itself, with its reason
      .finally(() => (this.warming = false));
  }

  /** An engine's voices, from the listing thread; rejects with TaskTimeout past `timeoutMs`. */
  async voices(engine: string, timeoutMs: number): Promise<Voice[]> {
    const stop = AbortSignal.timeout(timeoutMs);
    try {
      return (await this.lister.run({ kind: 'voices', engine }, { signal: stop })) as Voice[];
    } catch (error) {
      if (stop.aborted) throw new TaskTimeout(timeoutMs);
      throw error;
    }
  }

  /** Threads that hold engines loaded now: the synthesis threads and a listing thread not yet idle long enough. */
  get liveThreads(): number {
    return this.piscina.threads.length + this.lister.threads.length;
  }

  async close(): Promise<void> {
    await Promise.all([this.piscina.close({ force: true }), this.lister.close({ force: true })]);
  }
}
