import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SETTING_BOUNDS } from '../contract/settings';
import { DEFAULT_INLINE_THRESHOLD, PREVIEW_MAX_CHARS } from '../contract/synthesis';
import { defaultDataDir } from '../storage/data-dir';
import { apiKeyOverride } from './api-key';

export interface GatewayConfig {
  host: string;
  /** 0 picks a free port. */
  port: number;
  dataDir: string;
  /** Overrides the stored key: --api-key-file, --api-key, ORATOR_API_KEY_FILE or ORATOR_API_KEY. */
  apiKey?: string | undefined;
  /** Where apiKey came from, for the start-up line (e.g. "--api-key-file /etc/orator/key"). */
  apiKeySource?: string | undefined;
  /** The file apiKey was read from, when it came from one. */
  apiKeyFile?: string | undefined;
  inlineThreshold: number;
  maxTextLength: number;
  previewMaxChars: number;
  /** Request body limit in bytes (bigger bodies get 413 payload_too_large); default: bodyLimitFor(maxTextLength). */
  bodyLimit?: number | undefined;
  /** Worker threads (and concurrent job chunks); default: one per core. */
  workers: number;
  maxQueuedJobs: number;
  /** Characters of all unfinished jobs together before new ones are refused. */
  maxQueuedChars: number;
  /** Free space on the data dir's disk that job audio never takes (see DiskBudget). */
  minFreeBytes: number;
  /** How long one synthesis (an inline request, a job chunk) may run before its engine is stopped. */
  engineTimeoutMs: number;
  /** Hours the audio of every new job is kept; 0 (the default) keeps it until deleted. */
  retentionHours: number;
  /** The folder of user-supplied voice models; '' scans the default folders (defaultModelDirs). */
  modelsDir: string;
  /** A system engine's program by engine id, where it is not on PATH. */
  engineExecutables: Record<string, string>;
  /**
   * Where job chunks are synthesized: undefined for the embedded queue (this machine's engines,
   * SQLite only), or a redis:// or rediss:// URL for worker hosts behind BullMQ (docs/scale.md).
   */
  queue?: string | undefined;
  /** The secret worker hosts send with chunk audio; default <dataDir>/worker-token (Redis queue only). */
  workerTokenFile?: string | undefined;
  /** The built renderer to serve at "/", if any. */
  staticDir?: string | undefined;
}

export const DEFAULTS = {
  host: '127.0.0.1',
  port: 5700,
  inlineThreshold: DEFAULT_INLINE_THRESHOLD,
  maxTextLength: 2_000_000,
  previewMaxChars: PREVIEW_MAX_CHARS,
  maxQueuedJobs: 1000,
  // ten books of the longest text: a bound on the queue's database and disk, not on memory
  maxQueuedChars: 20_000_000,
  retentionHours: 0,
  engineTimeoutS: 120,
  minFreeMb: 256,
} as const;

/**
 * A body that can carry the longest text whatever the client's JSON encoder does: an astral code
 * point escaped as "\\uXXXX\\uXXXX" takes 12 bytes. Plus room for the other fields.
 */
export function bodyLimitFor(maxTextLength: number): number {
  return 12 * maxTextLength + 64 * 1024;
}

interface Bounds {
  minimum: number;
  maximum?: number;
}

export function integer(name: string, value: string | undefined, fallback: number, { minimum, maximum = Infinity }: Bounds): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < minimum || n > maximum) {
    const range = maximum === Infinity ? `≥ ${minimum}` : `from ${minimum} to ${maximum}`;
    throw new Error(`${name} must be an integer ${range}, got "${value}"`);
  }
  return n;
}

/** Flags win over environment variables, which win over defaults. */
export function configFromArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const { values } = parseArgs({
    args: argv,
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      'api-key': { type: 'string' },
      'api-key-file': { type: 'string' },
      'inline-threshold': { type: 'string' },
      'max-text-length': { type: 'string' },
      workers: { type: 'string' },
      'max-queued-jobs': { type: 'string' },
      'max-queued-chars': { type: 'string' },
      'retention-hours': { type: 'string' },
      'engine-timeout': { type: 'string' },
      'min-free-mb': { type: 'string' },
      'models-dir': { type: 'string' },
      'engine-executable': { type: 'string', multiple: true },
      queue: { type: 'string' },
      'worker-token-file': { type: 'string' },
    },
    strict: true,
  });
  return {
    host: values.host ?? env.ORATOR_HOST ?? DEFAULTS.host,
    port: integer('--port', values.port ?? env.ORATOR_PORT, DEFAULTS.port, { minimum: 0, maximum: 65535 }),
    dataDir: path.resolve(values['data-dir'] ?? env.ORATOR_DATA_DIR ?? defaultDataDir(process.platform, env)),
    ...apiKeyOverride({ file: values['api-key-file'], key: values['api-key'] }, env),
    inlineThreshold: integer('--inline-threshold', values['inline-threshold'], DEFAULTS.inlineThreshold, SETTING_BOUNDS.inline_threshold),
    maxTextLength: integer('--max-text-length', values['max-text-length'], DEFAULTS.maxTextLength, SETTING_BOUNDS.max_text_length),
    previewMaxChars: DEFAULTS.previewMaxChars,
    workers: integer(
      '--workers',
      values.workers,
      Math.min(os.availableParallelism(), SETTING_BOUNDS.workers.maximum),
      SETTING_BOUNDS.workers,
    ),
    maxQueuedJobs: integer('--max-queued-jobs', values['max-queued-jobs'], DEFAULTS.maxQueuedJobs, { minimum: 1 }),
    maxQueuedChars: integer('--max-queued-chars', values['max-queued-chars'], DEFAULTS.maxQueuedChars, { minimum: 1 }),
    retentionHours: integer('--retention-hours', values['retention-hours'], DEFAULTS.retentionHours, SETTING_BOUNDS.retention_hours),
    minFreeBytes: 1024 * 1024 * integer('--min-free-mb', values['min-free-mb'], DEFAULTS.minFreeMb, { minimum: 1, maximum: 1_048_576 }),
    engineTimeoutMs: 1000 * integer('--engine-timeout', values['engine-timeout'], DEFAULTS.engineTimeoutS, { minimum: 1, maximum: 3600 }),
    modelsDir: values['models-dir'] === undefined ? '' : absolute('--models-dir', values['models-dir']),
    engineExecutables: Object.fromEntries((values['engine-executable'] ?? []).map(engineExecutable)),
    queue: queueUrl(values.queue ?? env.ORATOR_QUEUE),
    workerTokenFile: optionalPath(values['worker-token-file'] ?? env.ORATOR_WORKER_TOKEN_FILE),
  };
}

/** "sqlite" (or nothing) is the embedded queue; a Redis URL is the shared one. */
export function queueUrl(given: string | undefined): string | undefined {
  if (given === undefined || given === '' || given === 'sqlite') return undefined;
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    // the value is not echoed: a Redis URL may carry a password
    throw new Error('--queue must be "sqlite" or a Redis URL such as redis://host:6379; the value given is no URL');
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new Error(`--queue must be "sqlite" or a redis:// or rediss:// URL, got "${url.protocol}//…"`);
  }
  return given;
}

function optionalPath(given: string | undefined): string | undefined {
  return given ? path.resolve(given) : undefined;
}

export function absolute(flag: string, file: string): string {
  if (!path.isAbsolute(file)) throw new Error(`${flag} must be an absolute path, got "${file}"`);
  return file;
}

/** "--engine-executable piper=/opt/piper/piper": the engine id, then its program. */
export function engineExecutable(given: string): [string, string] {
  const match = /^([a-z0-9-]+)=(.+)$/.exec(given);
  if (!match) throw new Error(`--engine-executable must be <engine id>=<absolute path>, e.g. piper=/opt/piper/piper; got "${given}"`);
  return [match[1]!, absolute('--engine-executable', match[2]!)];
}
