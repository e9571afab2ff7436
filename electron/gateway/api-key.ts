import { timingSafeEqual, createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** Constant-time comparison (hashing first makes the lengths equal). */
export function keysMatch(given: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

export interface ApiKeyOverride {
  /** Replaces the stored key for this run. */
  apiKey?: string;
  /** Where it came from, for the start-up line: "--api-key-file <path>", "--api-key", "ORATOR_API_KEY"… */
  apiKeySource?: string;
  /** The file it was read from, when it came from one: where local clients find the same key. */
  apiKeyFile?: string;
}

/** The source name of a key given on the command line, which other local users can read. */
export const ARGV_KEY_SOURCE = '--api-key';

/** A key given by flag or environment variable; flags win, a file wins over the key itself. */
export function apiKeyOverride(flags: { file?: string | undefined; key?: string | undefined }, env: NodeJS.ProcessEnv): ApiKeyOverride {
  if (flags.file !== undefined && flags.key !== undefined) throw new Error('Give the API key by --api-key-file or by --api-key, not both.');
  if (flags.file !== undefined) return fromFile('--api-key-file', flags.file);
  if (flags.key !== undefined) return { apiKey: checkedKey(flags.key, ARGV_KEY_SOURCE), apiKeySource: ARGV_KEY_SOURCE };
  if (env.ORATOR_API_KEY_FILE) return fromFile('ORATOR_API_KEY_FILE', env.ORATOR_API_KEY_FILE);
  if (env.ORATOR_API_KEY !== undefined) return { apiKey: checkedKey(env.ORATOR_API_KEY, 'ORATOR_API_KEY'), apiKeySource: 'ORATOR_API_KEY' };
  return {};
}

function fromFile(option: string, given: string): ApiKeyOverride {
  const file = path.resolve(given);
  return { apiKey: readSecretFile(file), apiKeySource: `${option} ${file}`, apiKeyFile: file };
}

/**
 * A key file must be private: a key that other users can read is theirs too. `what` names the
 * secret in messages (the API key, the worker token).
 */
export function readSecretFile(file: string, what = 'API key'): string {
  const stats = explained(file, what, () => statSync(file));
  if (!stats.isFile()) throw new Error(`The ${what} file ${file} is not a file.`);
  const mode = stats.mode & 0o777;
  // Windows has no such mode bits (its ACLs decide); elsewhere group or others must have no access.
  if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
    throw new Error(
      `The ${what} file ${file} is open to other users (mode ${mode.toString(8).padStart(4, '0')}), who could read the key. Make it private first: chmod 600 ${file}`,
    );
  }
  return checkedKey(
    explained(file, what, () => readFileSync(file, 'utf8')),
    `The ${what} file ${file}`,
    what,
  );
}

/** File system errors as sentences that name the key file. */
function explained<T>(file: string, what: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new Error(`The ${what} file ${file} does not exist.`, { cause: error });
    throw new Error(`The ${what} file ${file} cannot be read (${code ?? (error as Error).message}).`, { cause: error });
  }
}

/** Clients send the key as "Bearer <key>": it is one word, without spaces. */
function checkedKey(raw: string, source: string, what = 'API key'): string {
  const key = raw.trim();
  if (!key) throw new Error(`${source} gives an empty ${what}.`);
  if (/\s/.test(key)) throw new Error(`${source} gives a ${what} with spaces or several lines; a key is one word.`);
  return key;
}
