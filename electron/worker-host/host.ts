import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { ApiError } from '../contract';
import type { Pcm } from '../audio/pcm';
import { knownEngines } from '../engines/installed';
import { defaultModelDirs } from '../engines/model-dirs';
import { EngineRegistry } from '../engines/registry';
import { EmbeddedPool } from '../engines/worker-pool';
import { isRetryable } from '../jobs/chunk-retry';
import { advertise, HEARTBEAT_MS, withdrawAdvert } from '../jobs/redis/hosts';
import { chunkQueueName, failureReason, MAX_STALLED, queueOptions, WANTED_VOICES_KEY, type ChunkTask } from '../jobs/redis/names';
import { readSecretFile } from '../gateway/api-key';
import type { WorkerHostConfig } from './config';
import { GatewayClient } from './gateway-client';

/** How often a host looks at which voices have chunks waiting. */
const FOLLOW_EVERY_MS = 500;

export interface WorkerHost {
  name: string;
  /** The voices this host can take chunks of. */
  voices: string[];
  /** Stops taking chunks, lets those in hand finish (for up to `graceMs`), withdraws its advert. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * A worker host: this machine's engines, taking chunk tasks from the gateway's Redis for the
 * voices it has. It runs a BullMQ worker for each of its voices that has chunks waiting (the
 * gateway's wanted set), sends each chunk's audio to the gateway, and advertises its voices.
 */
export async function startWorkerHost(config: WorkerHostConfig, options: { workerFile: string | URL }): Promise<WorkerHost> {
  const gateway = new GatewayClient(config.gateway, readSecretFile(config.workerTokenFile, 'worker token'));
  await gateway.check();
  const pool = new EmbeddedPool({ workerFile: options.workerFile, threads: config.concurrency });
  const tempDir = await mkdtemp(path.join(os.tmpdir(), 'orator-worker-'));
  const registry = new EngineRegistry(
    knownEngines(pool, {
      modelDirs: config.modelsDir ? [config.modelsDir] : defaultModelDirs(),
      executables: config.engineExecutables,
      tempDir,
      timeoutMs: config.engineTimeoutMs,
    }),
  );
  await registry.probeAll();
  const engines = registry
    .summaries()
    .filter((engine) => engine.available)
    .map((engine) => registry.detail(engine.id));
  const voices = new Set(engines.flatMap((engine) => engine.voices.map((voice) => voice.id)));

  const client = new Redis(config.queue, { maxRetriesPerRequest: null });
  client.on('error', (error: Error) => console.warn(`Orator worker: Redis: ${error.message}`));
  const id = randomUUID();
  const beat = () =>
    advertise(client, { id, name: config.name, engines, seenAt: new Date().toISOString() }).catch((error: Error) =>
      console.warn(`Orator worker: could not advertise this host's voices: ${error.message}`),
    );
  await beat();
  const heartbeat = setInterval(() => void beat(), HEARTBEAT_MS);

  const stopping = new AbortController();
  const synthesize = async (task: ChunkTask, signal: AbortSignal): Promise<Pcm> => {
    const { text, rate, pitch, volume } = task;
    return registry.resolve({ voice: task.voice }).synthesize({ text, rate, pitch, volume }, { lane: 'batch', signal });
  };
  const process = async (job: Job<ChunkTask>, _token?: string, taken?: AbortSignal): Promise<string> => {
    const task = job.data;
    console.log(`Orator worker ${config.name}: chunk ${task.idx} of job ${task.job} (${task.voice}), start ${job.attemptsStarted}`);
    const signal = AbortSignal.any([stopping.signal, ...(taken ? [taken] : [])]);
    let pcm: Pcm;
    try {
      pcm = await synthesize(task, signal);
    } catch (error) {
      // BullMQ keeps one string per failure: the code travels in it (see failureOf); a failure
      // no try can change is not retried (chunk-retry.ts)
      const reason = failureReason(error);
      throw isRetryable(error) ? new Error(reason, { cause: error }) : new UnrecoverableError(reason);
    }
    return gateway.upload(task.job, task.idx, pcm, job.attemptsStarted, signal);
  };

  const workers = new Map<string, Worker<ChunkTask>>();
  const open = (voice: string) => {
    const worker = new Worker<ChunkTask>(chunkQueueName(voice), process, {
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
    workers.set(voice, worker);
  };
  const follow = async () => {
    const wanted = new Set(await client.smembers(WANTED_VOICES_KEY));
    for (const voice of wanted) if (voices.has(voice) && !workers.has(voice)) open(voice);
    for (const [voice, worker] of workers) {
      if (wanted.has(voice)) continue;
      workers.delete(voice);
      void worker.close().catch((error: Error) => console.warn(`Orator worker: closing ${voice}: ${error.message}`));
    }
  };
  let following = Promise.resolve();
  const follower = setInterval(() => {
    following = following.then(follow).catch((error: Error) => console.warn(`Orator worker: ${error.message}`));
  }, FOLLOW_EVERY_MS);

  return {
    name: config.name,
    voices: [...voices],
    async stop(graceMs = 30_000) {
      clearInterval(follower);
      clearInterval(heartbeat);
      await following;
      const closing = Promise.allSettled([...workers.values()].map((worker) => worker.close()));
      const timer = setTimeout(() => stopping.abort(new ApiError('engine_error', 'The worker host stopped.')), graceMs);
      await closing;
      clearTimeout(timer);
      await withdrawAdvert(client, id).catch(() => undefined);
      client.disconnect();
      await pool.close();
      await rm(tempDir, { recursive: true, force: true });
    },
  };
}
