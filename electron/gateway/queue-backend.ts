import path from 'node:path';
import type { ChunkHandler, ChunkQueue } from '../jobs/chunk-queue';
import type { FleetEngines } from '../jobs/redis/fleet-engines';
import type { RedisChunkQueue } from '../jobs/redis/redis-chunk-queue';
import type { JobStore } from '../jobs/store';
import { loadOrCreateSecretFile, WORKER_TOKEN_FILE } from '../storage/credentials';
import { readSecretFile } from './api-key';
import type { GatewayConfig } from './config';
import type { InternalOptions } from './routes/internal';

/** What the gateway runs for its chunk queue: nothing more for the embedded one; for Redis, the queue and the workers' routes. */
export interface QueueBackend {
  chunkQueue?: (handler: ChunkHandler) => ChunkQueue;
  internal?: Omit<InternalOptions, 'instance'>;
  workerTokenFile?: string;
  fleet?: FleetEngines;
}

/**
 * The embedded queue (config.queue unset) needs nothing here. The Redis queue needs the worker
 * token (made in the data folder at the first start, mode 0600; refused when others can read it)
 * and the routes worker hosts send chunk audio to.
 */
export async function queueBackend(config: GatewayConfig, store: JobStore): Promise<QueueBackend> {
  const url = config.queue;
  if (url === undefined) return {};
  const workerTokenFile = config.workerTokenFile ?? path.join(config.dataDir, WORKER_TOKEN_FILE);
  await loadOrCreateSecretFile(workerTokenFile);
  const workerToken = readSecretFile(workerTokenFile, 'worker token');
  // Redis's client and BullMQ load only for this queue: a gateway without one never holds them
  const [{ FleetEngines }, { RedisChunkQueue }] = await Promise.all([
    import('../jobs/redis/fleet-engines'),
    import('../jobs/redis/redis-chunk-queue'),
  ]);
  const fleet = new FleetEngines(url);
  let queue: RedisChunkQueue | undefined;
  return {
    chunkQueue: (handler) => (queue = new RedisChunkQueue(url, store, handler, fleet)),
    internal: {
      workerToken,
      chunks: { receive: (...args) => queue!.receive(...args) },
    },
    workerTokenFile,
    fleet,
  };
}
