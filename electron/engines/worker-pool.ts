import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { TaskQueue } from 'piscina';
import type { WorkerReply, WorkerTask } from './worker-protocol';

export type Lane = 'interactive' | 'batch';
const kLane = Piscina.queueOptionsSymbol;
type Task = Parameters<TaskQueue['push']>[0];

/** Two FIFO lanes: interactive tasks (inline requests, previews) always go before batch (job chunks). */
class LaneQueue implements TaskQueue {
  private readonly lanes: Record<Lane, Task[]> = { interactive: [], batch: [] };

  get size() {
    return this.lanes.interactive.length + this.lanes.batch.length;
  }
  push(task: Task) {
    this.laneOf(task).push(task);
  }
  shift() {
    return this.lanes.interactive.shift() ?? this.lanes.batch.shift() ?? null;
  }
  remove(task: Task) {
    const lane = this.laneOf(task);
    const at = lane.indexOf(task);
    if (at >= 0) lane.splice(at, 1);
  }
  private laneOf(task: Task): Task[] {
    const options = (task as unknown as Record<symbol, { lane?: Lane } | null>)[kLane];
    return this.lanes[options?.lane ?? 'batch'];
  }
}

export interface PoolOptions {
  /** The built worker entry (dist/synth-worker.mjs). */
  workerFile: string | URL;
  /** Threads; default: one per core. */
  threads?: number;
}

/** The worker-thread pool that runs all in-thread engines. */
export class SynthesisPool {
  private readonly piscina: Piscina;
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
      taskQueue: new LaneQueue(),
    });
  }

  get threads(): number {
    return this.piscina.options.maxThreads;
  }

  run<T extends WorkerTask>(task: T, lane: Lane, signal?: AbortSignal): Promise<WorkerReply<T>> {
    return this.piscina.run({ ...task, [kLane]: { lane } }, { signal: signal ?? null });
  }

  async close(): Promise<void> {
    await this.piscina.close({ force: true });
  }
}
