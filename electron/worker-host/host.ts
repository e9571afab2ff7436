import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { ApiError } from '../contract';
import { advertise, HEARTBEAT_MS, withdrawAdvert } from '../jobs/redis/hosts';
import { readSecretFile } from '../gateway/api-key';
import type { WorkerHostConfig } from './config';
import { openHostEngines } from './engines';
import { GatewayClient } from './gateway-client';
import { chunkProcessor, VoiceWorkers } from './voice-workers';

export interface WorkerHost {
  name: string;
  /** The voices this host can take chunks of. */
  voices: string[];
  /** Stops taking chunks, lets those in hand finish (for up to `graceMs`), withdraws its advert. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * A worker host: this machine's engines (engines.ts), taking chunk tasks from the gateway's Redis
 * for the voices it has. It runs a BullMQ worker for each of its voices that has chunks waiting
 * (voice-workers.ts), sends each chunk's audio to the gateway, and advertises its voices.
 */
export async function startWorkerHost(config: WorkerHostConfig, options: { workerFile: string | URL }): Promise<WorkerHost> {
  const gateway = new GatewayClient(config.gateway, readSecretFile(config.workerTokenFile, 'worker token'));
  await gateway.check();
  const { registry, engines, voices, close: closeEngines } = await openHostEngines(config, options.workerFile);

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
  const workers = new VoiceWorkers(client, voices, config, chunkProcessor(registry, gateway, config.name, stopping.signal));

  return {
    name: config.name,
    voices: [...voices],
    async stop(graceMs = 30_000) {
      clearInterval(heartbeat);
      await workers.stopFollowing();
      const closing = workers.close();
      const timer = setTimeout(() => stopping.abort(new ApiError('engine_error', 'The worker host stopped.')), graceMs);
      await closing;
      clearTimeout(timer);
      await withdrawAdvert(client, id).catch(() => undefined);
      client.disconnect();
      await closeEngines();
    },
  };
}
