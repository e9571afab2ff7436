/**
 * The one scheduler every engine runs its synthesis through (the worker-thread pool, the neural
 * model process, each system engine): at most `concurrency` tasks at once, and of those waiting,
 * interactive ones (inline requests, previews) always start before batch ones (job chunks).
 */
export type Lane = 'interactive' | 'batch';

interface Waiter {
  start(): void;
}

export class LaneLimiter {
  private running = 0;
  private readonly waiting: Record<Lane, Waiter[]> = { interactive: [], batch: [] };

  constructor(readonly concurrency: number) {
    if (!(concurrency >= 1)) throw new RangeError(`concurrency must be at least 1, got ${concurrency}`);
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
          let result: Promise<T>;
          try {
            result = task();
          } catch (error) {
            result = Promise.reject(error);
          }
          result.then(resolve, reject).finally(() => {
            this.running--;
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
      if (this.running < this.concurrency && this.queued === 0) return waiter.start();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting[lane].push(waiter);
    });
  }

  private next(): void {
    while (this.running < this.concurrency) {
      const waiter = this.waiting.interactive.shift() ?? this.waiting.batch.shift();
      if (!waiter) return;
      waiter.start();
    }
  }
}
