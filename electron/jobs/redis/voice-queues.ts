import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { chunkQueueName, EPOCH_KEY, queueOptions, WANTED_VOICES_KEY, type ChunkTask } from './names';

/** What the gateway hears from the chunk queues: a chunk taken by a host, a chunk failed for good. */
export interface TaskListener {
  active(taskId: string): void;
  failed(taskId: string, reason: string | undefined): void;
}

interface VoiceQueue {
  queue: Queue<ChunkTask>;
  events: QueueEvents;
}

/**
 * The gateway's side of the per-voice BullMQ queues: one Queue (to add and withdraw chunk tasks)
 * and one QueueEvents (to hear of starts and failures) per voice in use, opened when a job needs
 * the voice and closed when none does. The set of those voices is kept in Redis for the worker
 * hosts, which run workers for the wanted voices they have.
 */
export class VoiceQueues {
  private readonly open = new Map<string, VoiceQueue>();
  private readonly client: Redis;
  private paused = false;
  /** Writes of the wanted set, in order. */
  private writing: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly url: string,
    private readonly listener: TaskListener,
  ) {
    this.client = new Redis(url, { maxRetriesPerRequest: null, lazyConnect: true });
    this.client.on('error', (error: Error) => console.warn(`Orator: Redis (${redactedUrl(url)}): ${error.message}`));
  }

  /**
   * The voice's queue, opened on first use, paused or running as this gateway is (a gateway that
   * stopped while paused left it paused in Redis).
   */
  async queue(voice: string): Promise<Queue<ChunkTask>> {
    let open = this.open.get(voice);
    if (!open) {
      const name = chunkQueueName(voice);
      const options = queueOptions(this.url);
      open = { queue: new Queue<ChunkTask>(name, options), events: new QueueEvents(name, options) };
      open.events.on('active', ({ jobId }) => this.listener.active(jobId));
      open.events.on('failed', ({ jobId, failedReason }) => this.listener.failed(jobId, failedReason));
      open.events.on('error', (error: Error) => console.warn(`Orator: chunk events of ${voice}: ${error.message}`));
      this.open.set(voice, open);
      await (this.paused ? open.queue.pause() : open.queue.resume());
    }
    return open.queue;
  }

  /** Tells the worker hosts which voices have chunks; closes the queues of the others. */
  setWanted(voices: Set<string>): Promise<unknown> {
    const unused = [...this.open.keys()].filter((voice) => !voices.has(voice));
    for (const voice of unused) {
      const { queue, events } = this.open.get(voice)!;
      this.open.delete(voice);
      void Promise.all([queue.close(), events.close()]).catch(() => undefined);
    }
    this.writing = this.writing
      .then(() => {
        const write = this.client.multi().del(WANTED_VOICES_KEY);
        if (voices.size) write.sadd(WANTED_VOICES_KEY, ...voices);
        return write.exec();
      })
      .catch((error: Error) => console.warn(`Orator could not publish the wanted voices to Redis: ${error.message}`));
    return this.writing;
  }

  /** Connects, and marks this start in Redis. */
  async start(): Promise<void> {
    await this.client.connect();
    await this.markEpoch();
  }

  /** Whether Redis still holds what this gateway put there (it has not been flushed or restarted empty). */
  async epochKept(): Promise<boolean> {
    return (await this.client.exists(EPOCH_KEY)) === 1;
  }

  markEpoch(): Promise<unknown> {
    return this.client.set(EPOCH_KEY, new Date().toISOString());
  }

  /** Failed tasks of the voices in use (BullMQ keeps them until the gateway withdraws them). */
  async failedTasks(): Promise<{ id: string; reason: string | undefined }[]> {
    const lists = await Promise.all([...this.open.values()].map(({ queue }) => queue.getFailed()));
    return lists.flat().map((task) => ({ id: task.id!, reason: task.failedReason }));
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /** BullMQ's pause: hosts take no new chunks of these queues; those they hold finish. */
  async pause(): Promise<void> {
    this.paused = true;
    await Promise.all([...this.open.values()].map(({ queue }) => queue.pause()));
  }

  async resume(): Promise<void> {
    this.paused = false;
    await Promise.all([...this.open.values()].map(({ queue }) => queue.resume()));
  }

  async close(): Promise<void> {
    await this.writing;
    const all = [...this.open.values()];
    this.open.clear();
    await Promise.allSettled(all.flatMap(({ queue, events }) => [queue.close(), events.close()]));
    this.client.disconnect();
  }
}

/** A Redis URL without its password, for messages. */
export function redactedUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}
