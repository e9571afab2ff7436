import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SETTING_BOUNDS } from '../contract/settings';
import { queueUrl } from '../gateway/config';
import { SETTINGS_TABLE } from '../settings/table';
import { absolute, engineExecutable, integer } from '../settings/text-values';

export interface WorkerHostConfig {
  /** The Redis URL the gateway runs its queue on (the gateway's --queue). */
  queue: string;
  /** The gateway's URL, where chunk audio goes. */
  gateway: string;
  /** A copy of the gateway's worker token file (mode 0600). */
  workerTokenFile: string;
  /** How the host is listed in the gateway's /engines; default: the machine's name. */
  name: string;
  /** Chunks synthesized at once (engine threads); default: one per core. */
  concurrency: number;
  /** A chunk whose host has not renewed its lock for this long goes back to the queue (BullMQ's lockDuration). */
  stalledAfterMs: number;
  /** At most this many chunks per minute per voice over all hosts (BullMQ's rate limiter); 0: no limit. */
  chunksPerMinute: number;
  engineTimeoutMs: number;
  modelsDir: string;
  engineExecutables: Record<string, string>;
}

export const WORKER_DEFAULTS = { stalledAfterS: 30, chunksPerMinute: 0 } as const;

/** `npm run worker -- --queue redis://… --gateway http://… --worker-token-file …`; flags win over ORATOR_* variables. */
export function workerConfigFromArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): WorkerHostConfig {
  const { values } = parseArgs({
    args: argv,
    options: {
      queue: { type: 'string' },
      gateway: { type: 'string' },
      'worker-token-file': { type: 'string' },
      name: { type: 'string' },
      concurrency: { type: 'string' },
      'stalled-after': { type: 'string' },
      'chunks-per-minute': { type: 'string' },
      'engine-timeout': { type: 'string' },
      'models-dir': { type: 'string' },
      'engine-executable': { type: 'string', multiple: true },
    },
    strict: true,
  });
  const queue = queueUrl(values.queue ?? env.ORATOR_QUEUE);
  if (!queue) throw new Error('A worker host needs --queue redis://host:6379 (or ORATOR_QUEUE): the Redis of its gateway.');
  const tokenFile = values['worker-token-file'] ?? env.ORATOR_WORKER_TOKEN_FILE;
  if (!tokenFile)
    throw new Error("A worker host needs --worker-token-file (or ORATOR_WORKER_TOKEN_FILE): a copy of the gateway's worker-token.");
  return {
    queue,
    gateway: gatewayUrl(values.gateway ?? env.ORATOR_GATEWAY),
    workerTokenFile: path.resolve(tokenFile),
    name: values.name ?? env.ORATOR_WORKER_NAME ?? os.hostname(),
    concurrency: integer(
      '--concurrency',
      values.concurrency,
      Math.min(os.availableParallelism(), SETTING_BOUNDS.workers.maximum),
      SETTING_BOUNDS.workers,
    ),
    stalledAfterMs:
      1000 * integer('--stalled-after', values['stalled-after'], WORKER_DEFAULTS.stalledAfterS, { minimum: 2, maximum: 3600 }),
    chunksPerMinute: integer('--chunks-per-minute', values['chunks-per-minute'], WORKER_DEFAULTS.chunksPerMinute, { minimum: 0 }),
    engineTimeoutMs:
      1000 *
      integer('--engine-timeout', values['engine-timeout'], SETTINGS_TABLE.engine_timeout_s.default(), SETTING_BOUNDS.engine_timeout_s),
    modelsDir: values['models-dir'] === undefined ? '' : absolute('--models-dir', values['models-dir']),
    engineExecutables: Object.fromEntries((values['engine-executable'] ?? []).map((given) => engineExecutable(given))),
  };
}

function gatewayUrl(given: string | undefined): string {
  if (!given) throw new Error('A worker host needs --gateway http://host:port (or ORATOR_GATEWAY): where it sends chunk audio.');
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new Error(`--gateway must be the gateway's URL, e.g. http://gateway:5700; got "${given}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`--gateway must be an http:// or https:// URL; got "${given}"`);
  return url.origin;
}
