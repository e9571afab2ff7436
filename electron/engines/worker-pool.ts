import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { LaneLimiter, type Lane } from './lanes';
import type { Voice } from '../contract';
import type { SynthesisTask, WorkerOptions, WorkerReply } from './worker-protocol';

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

/** A thread kept for interactive tasks beyond those batch work may take. */
const INTERACTIVE_THREADS = 1;

/**
 * Each engine thread's young generation, in MB. V8 grows it to 8 MB a thread under an engine's
 * allocation rate, which the engine's short-lived garbage does not need: measured with eSpeak NG,
 * 2 MB took 20–30 MB off two threads' resident memory at no cost in speed (docs/performance.md).
 */
const ENGINE_THREAD_YOUNG_GENERATION_MB = 2;

/** A listing thread that has nothing more to list exits after this long, with the engines it loaded. */
const LISTER_IDLE_MS = 2_000;

/**
 * The worker-thread pool that runs all embedded engines. Tasks reach Piscina only when a thread is
 * free, through a LaneLimiter: Piscina's own queue would let tasks that carry an AbortSignal skip
 * the lanes (it parks them in a plain FIFO served first), and every task here carries one.
 *
 * Two sets of threads: batch threads (as many as batch work may take, started when needed, gone
 * after a minute idle), which run at a lower priority (nice 10, Linux) so that they never hold
 * back the gateway or an inline request, and one interactive thread, always there, which runs
 * interactive tasks first; an interactive task that finds it busy takes a free batch thread.
 *
 * Voices are listed on a thread of their own that exits when idle: listing loads an engine (up to
 * 70 MB for Flite), and a synthesis thread should hold only the engines it synthesizes with.
 */
export class EmbeddedPool {
  private readonly batchThreads: Piscina;
  private readonly interactiveThread: Piscina;
  private readonly lister: Piscina;
  private readonly slots: LaneLimiter;
  private interactiveBusy = 0;
  /** Engines loaded on the interactive thread, so that batch work of another engine warms it. */
  private readonly warmEngines = new Set<string>();
  /** Threads for batch work (job chunks), and the chunks a job runs at once. */
  readonly threads: number;
  /** The worker bundle, which also serves neural models in a child process (see worker.ts). */
  readonly workerFile: string;

  constructor(options: PoolOptions) {
    this.workerFile = options.workerFile instanceof URL ? fileURLToPath(options.workerFile) : options.workerFile;
    this.threads = options.threads ?? Math.max(1, os.availableParallelism());
    const filename = options.workerFile instanceof URL ? options.workerFile.href : options.workerFile;
    const background: WorkerOptions = { background: true };
    const resourceLimits = { maxYoungGenerationSizeMb: ENGINE_THREAD_YOUNG_GENERATION_MB };
    this.batchThreads = new Piscina({
      filename,
      resourceLimits,
      minThreads: 0,
      maxThreads: this.threads,
      idleTimeout: 60_000,
      workerData: background,
    });
    this.interactiveThread = new Piscina({ filename, resourceLimits, minThreads: INTERACTIVE_THREADS, maxThreads: INTERACTIVE_THREADS });
    // a new thread (the last one was stopped) has no engine loaded
    this.interactiveThread.on('workerCreate', () => this.warmEngines.clear());
    this.lister = new Piscina({ filename, resourceLimits, minThreads: 0, maxThreads: 1, idleTimeout: LISTER_IDLE_MS });
    this.slots = new LaneLimiter(this.threads + INTERACTIVE_THREADS, { batch: this.threads });
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
        // the limiter leaves a thread for every task it starts: the interactive one if it is free
        const interactive = lane === 'interactive' && this.interactiveBusy < INTERACTIVE_THREADS;
        if (interactive) {
          this.interactiveBusy++;
          this.warmEngines.add(task.engine);
        }
        // One controller for both causes, so that Piscina sees a single signal; its listeners go when the task ends.
        const stop = new AbortController();
        const onAbort = () => stop.abort(signal!.reason);
        signal?.addEventListener('abort', onAbort, { once: true });
        const timer = timeoutMs === undefined ? undefined : setTimeout(() => stop.abort(new TaskTimeout(timeoutMs)), timeoutMs);
        try {
          const threads = interactive ? this.interactiveThread : this.batchThreads;
          return (await threads.run(task, { signal: stop.signal })) as WorkerReply<T>;
        } catch (error) {
          if (stop.signal.aborted) throw stop.signal.reason;
          throw error;
        } finally {
          if (interactive) this.interactiveBusy--;
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        }
      },
      signal,
    );
  }

  /**
   * Batch work of an engine the interactive thread has not loaded loads it there, with a short
   * text: loading it on the first preview during a job took that preview 1.4–1.8 s.
   */
  private warmInteractiveThread(task: SynthesisTask): void {
    if (this.warmEngines.has(task.engine)) return;
    this.warmEngines.add(task.engine);
    const request = task.kind === 'synthesize' ? task.request : task.requests[0]!;
    this.interactiveThread
      .run({ kind: 'synthesize', engine: task.engine, request: { ...request, text: 'a' } } satisfies SynthesisTask)
      .catch(() => this.warmEngines.delete(task.engine)); // a broken engine fails the batch task itself, with its reason
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
    return this.batchThreads.threads.length + this.interactiveThread.threads.length + this.lister.threads.length;
  }

  async close(): Promise<void> {
    await Promise.all([this.batchThreads, this.interactiveThread, this.lister].map((threads) => threads.close({ force: true })));
  }
}
