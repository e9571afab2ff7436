import path from 'node:path';
import { parseArgs } from 'node:util';
import { PREVIEW_MAX_CHARS } from '../contract/synthesis';
import { givenSettings, settingFlagOptions, type GivenSettings } from '../settings/given';
import { asConfig, type ConfigSettings } from '../settings/table';
import { integer } from '../settings/text-values';
import { defaultDataDir } from '../storage/data-dir';
import { apiKeyOverride } from './api-key';

/**
 * How the gateway starts. The settings (ConfigSettings: `port`, `inlineThreshold`, ...) are those
 * given for this run, by flag, variable or in code; the ones left out come from settings.json or
 * their default (settings/resolve.ts), and the core runs with them all (RunningConfig).
 */
export interface GatewayConfig extends Partial<ConfigSettings> {
  /** Which flag or variable gave each setting given; a setting given without an entry counts as set by its flag. */
  givenBy?: GivenSettings['givenBy'];
  dataDir: string;
  /** Overrides the stored key: --api-key-file, --api-key, ORATOR_API_KEY_FILE or ORATOR_API_KEY. */
  apiKey?: string | undefined;
  /** Where apiKey came from, for the start-up line (e.g. "--api-key-file /etc/orator/key"). */
  apiKeySource?: string | undefined;
  /** The file apiKey was read from, when it came from one. */
  apiKeyFile?: string | undefined;
  previewMaxChars: number;
  /** Request body limit in bytes (bigger bodies get 413 payload_too_large); default: bodyLimitFor(maxTextLength). */
  bodyLimit?: number | undefined;
  maxQueuedJobs: number;
  /** Characters of all unfinished jobs together before new ones are refused. */
  maxQueuedChars: number;
  /** Free space on the data dir's disk that job audio never takes (see DiskBudget). */
  minFreeBytes: number;
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

/** The config the core runs with: every setting filled in. */
export type RunningConfig = GatewayConfig & ConfigSettings;

export const DEFAULTS = {
  previewMaxChars: PREVIEW_MAX_CHARS,
  maxQueuedJobs: 1000,
  // ten books of the longest text: a bound on the queue's database and disk, not on memory
  maxQueuedChars: 20_000_000,
  minFreeMb: 256,
} as const;

/**
 * A body that can carry the longest text whatever the client's JSON encoder does: an astral code
 * point escaped as "\\uXXXX\\uXXXX" takes 12 bytes. Plus room for the other fields.
 */
export function bodyLimitFor(maxTextLength: number): number {
  return 12 * maxTextLength + 64 * 1024;
}

/** Flags win over environment variables; the settings' flags and variables are the settings table's. */
export function configFromArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...settingFlagOptions(),
      'data-dir': { type: 'string' },
      'api-key': { type: 'string' },
      'api-key-file': { type: 'string' },
      'max-queued-jobs': { type: 'string' },
      'max-queued-chars': { type: 'string' },
      'min-free-mb': { type: 'string' },
      queue: { type: 'string' },
      'worker-token-file': { type: 'string' },
    },
    strict: true,
  });
  const given = givenSettings(values, env);
  return {
    ...asConfig(given.values),
    givenBy: given.givenBy,
    dataDir: path.resolve(values['data-dir'] ?? env.ORATOR_DATA_DIR ?? defaultDataDir(process.platform, env)),
    ...apiKeyOverride({ file: values['api-key-file'], key: values['api-key'] }, env),
    previewMaxChars: DEFAULTS.previewMaxChars,
    maxQueuedJobs: integer('--max-queued-jobs', values['max-queued-jobs'], DEFAULTS.maxQueuedJobs, { minimum: 1 }),
    maxQueuedChars: integer('--max-queued-chars', values['max-queued-chars'], DEFAULTS.maxQueuedChars, { minimum: 1 }),
    minFreeBytes: 1024 * 1024 * integer('--min-free-mb', values['min-free-mb'], DEFAULTS.minFreeMb, { minimum: 1, maximum: 1_048_576 }),
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
