/**
 * The one scheduler every engine runs its synthesis through (the worker-thread pool, the neural
 * model process, each system engine): at most `concurrency` tasks at once, and of those waiting,
 * interactive ones (inline requests, previews) always start before batch ones (job chunks).
 * With `batch` below `concurrency`, the slots above it are kept for interactive tasks: an inline
 * request during a job starts at once instead of waiting for a chunk to end.
 */
export type Lane = 'interactive' | 'batch';

interface Waiter {
  start(): void;
}

export interface LaneOptions {
  /** Batch tasks at once; default `concurrency`. */
  batch?: number;
}

export class LaneLimiter {
  private running = 0;
  private runningBatch = 0;
  private readonly batchLimit: number;
  private readonly waiting: Record<Lane, Waiter[]> = { interactive: [], batch: [] };

  constructor(
    readonly concurrency: number,
    options: LaneOptions = {},
  ) {
    if (!(concurrency >= 1)) throw new RangeError(`concurrency must be at least 1, got ${concurrency}`);
    this.batchLimit = options.batch ?? concurrency;
    if (!(this.batchLimit >= 1 && this.batchLimit <= concurrency)) {
      throw new RangeError(`batch must be from 1 to concurrency (${concurrency}), got ${this.batchLimit}`);
    }
  }

  /** Tasks started and not yet settled. */
  get active(): number {
    return this.running;
  }

  /** Tasks waiting for a slot. */
  get queued(): number {
    return this.waiting.interactive.length + this.waiting.batch.length;
  }

  /**
   * Runs `task` when a slot is free and its lane's turn has come. An abort while it waits takes it
   * out of the queue and rejects with the signal's reason; once started, the task itself must
   * honour the signal.
   */
  run<T>(lane: Lane, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter = {
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          this.running++;
          if (lane === 'batch') this.runningBatch++;
          let result: Promise<T>;
          try {
            result = task();
          } catch (error) {
            result = Promise.reject(error);
          }
          result.then(resolve, reject).finally(() => {
            this.running--;
            if (lane === 'batch') this.runningBatch--;
            this.next();
          });
        },
      };
      const onAbort = () => {
        const queue = this.waiting[lane];
        const at = queue.indexOf(waiter);
        if (at >= 0) queue.splice(at, 1);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting[lane].push(waiter);
      this.next();
    });
  }

  private hasRoom(lane: Lane): boolean {
    return this.running < this.concurrency && (lane === 'interactive' || this.runningBatch < this.batchLimit);
  }

  private next(): void {
    for (;;) {
      const lane: Lane | undefined =
        this.waiting.interactive.length > 0 && this.hasRoom('interactive')
          ? 'interactive'
          : this.waiting.batch.length > 0 && this.hasRoom('batch')
            ? 'batch'
            : undefined;
      if (!lane) return;
      this.waiting[lane].shift()!.start();
    }
  }
}
