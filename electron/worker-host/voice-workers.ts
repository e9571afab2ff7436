import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Pcm } from '../audio/pcm';
import type { EngineRegistry } from '../engines/registry';
import { isRetryable } from '../jobs/chunk-retry';
import { chunkQueueName, failureReason, MAX_STALLED, queueOptions, WANTED_VOICES_KEY, type ChunkTask } from '../jobs/redis/names';
import type { WorkerHostConfig } from './config';
import type { GatewayClient } from './gateway-client';

/** How often a host looks at which voices have chunks waiting. */
const FOLLOW_EVERY_MS = 500;

type ChunkProcessor = (job: Job<ChunkTask>, token?: string, taken?: AbortSignal) => Promise<string>;

/**
 * Synthesizes a chunk task on this host's engines and sends its audio to the gateway; `stopping`
 * aborts it when the host stops, as BullMQ's `taken` does when the chunk's lock is lost.
 */
export function chunkProcessor(registry: EngineRegistry, gateway: GatewayClient, hostName: string, stopping: AbortSignal): ChunkProcessor {
  return async (job, _token, taken) => {
    const task = job.data;
    console.log(`Orator worker ${hostName}: chunk ${task.idx} of job ${task.job} (${task.voice}), start ${job.attemptsStarted}`);
    const signal = AbortSignal.any([stopping, ...(taken ? [taken] : [])]);
    const { text, rate, pitch, volume } = task;
    let pcm: Pcm;
    try {
      pcm = await registry.resolve({ voice: task.voice }).synthesize({ text, rate, pitch, volume }, { lane: 'batch', signal });
    } catch (error) {
      // BullMQ keeps one string per failure: the code travels in it (see failureOf); a failure
      // no try can change is not retried (chunk-retry.ts)
      const reason = failureReason(error);
      throw isRetryable(error) ? new Error(reason, { cause: error }) : new UnrecoverableError(reason);
    }
    return gateway.upload(task.job, task.idx, pcm, job.attemptsStarted, signal);
  };
}

/**
 * A BullMQ worker for each voice of this host that has chunks waiting (the gateway's wanted set),
 * opened and closed as that set changes.
 */
export class VoiceWorkers {
  private readonly workers = new Map<string, Worker<ChunkTask>>();
  private following = Promise.resolve();
  private readonly follower: NodeJS.Timeout;

  constructor(
    private readonly client: Redis,
    private readonly voices: Set<string>,
    private readonly config: WorkerHostConfig,
    private readonly process: ChunkProcessor,
  ) {
    this.follower = setInterval(() => {
      this.following = this.following.then(() => this.follow()).catch((error: Error) => console.warn(`Orator worker: ${error.message}`));
    }, FOLLOW_EVERY_MS);
  }

  /** Stops opening and closing workers; resolves once a look at the wanted set under way is over. */
  stopFollowing(): Promise<void> {
    clearInterval(this.follower);
    return this.following;
  }

  /** Closes every worker: no new chunks, those in hand finish. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.workers.values()].map((worker) => worker.close()));
  }

  private async follow(): Promise<void> {
    const wanted = new Set(await this.client.smembers(WANTED_VOICES_KEY));
    for (const voice of wanted) if (this.voices.has(voice) && !this.workers.has(voice)) this.open(voice);
    for (const [voice, worker] of this.workers) {
      if (wanted.has(voice)) continue;
      this.workers.delete(voice);
      void worker.close().catch((error: Error) => console.warn(`Orator worker: closing ${voice}: ${error.message}`));
    }
  }

  private open(voice: string): void {
    const { config } = this;
    const worker = new Worker<ChunkTask>(chunkQueueName(voice), this.process, {
      ...queueOptions(config.queue),
      name: config.name,
      concurrency: config.concurrency,
      lockDuration: config.stalledAfterMs,
      stalledInterval: config.stalledAfterMs,
      maxStalledCount: MAX_STALLED,
      ...(config.chunksPerMinute ? { limiter: { max: config.chunksPerMinute, duration: 60_000 } } : {}),
    });
    worker.on('error', (error: Error) => console.warn(`Orator worker: ${voice}: ${error.message}`));
    worker.on('failed', (job, error) =>
      console.warn(`Orator worker: chunk ${job?.data.idx} of job ${job?.data.job} failed: ${error.message}`),
    );
    this.workers.set(voice, worker);
  }
}
