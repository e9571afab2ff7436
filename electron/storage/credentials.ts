import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { readOrCreateValue } from './private-files';

/** The TTS key: what clients send to speak. */
export const API_KEY_FILE = 'api-key';
/** The admin token: what changes settings and replaces the TTS key; never handed to clients. */
export const ADMIN_TOKEN_FILE = 'admin-token';
/** The worker token: what worker hosts send with chunk audio (docs/scale.md); opens nothing else. */
export const WORKER_TOKEN_FILE = 'worker-token';

export interface StoredSecret {
  value: string;
  file: string;
  /** Made by this call: the only time it may be shown. */
  created: boolean;
}

/** Reads a secret kept in the data dir, creating it (32 random bytes, base64url, mode 0600) when missing. */
export async function loadOrCreateSecret(
  dataDir: string,
  name: typeof API_KEY_FILE | typeof ADMIN_TOKEN_FILE | typeof WORKER_TOKEN_FILE,
): Promise<StoredSecret> {
  return loadOrCreateSecretFile(path.join(dataDir, name));
}

/** A secret in a file of its own (e.g. --worker-token-file), made like the others when missing. */
export async function loadOrCreateSecretFile(file: string): Promise<StoredSecret> {
  const { value, created } = await readOrCreateValue(file, () => randomBytes(32).toString('base64url'));
  return { value, file, created };
}
