import { createHmac, randomBytes } from 'node:crypto';
import path from 'node:path';
import { version } from '../../package.json';
import { proofMessage } from '../contract';
import { readOrCreateValue } from '../storage/private-files';

export const INSTANCE_FILE = 'instance-id';

/** Orator's version, as `whoami` reports it. */
export const ORATOR_VERSION: string = version;

/**
 * The id of this data folder's gateway, made at its first start: not a secret (whoami tells it to
 * anyone), but a fingerprint people can compare between the tray, the start-up line and a client.
 */
export async function loadOrCreateInstanceId(dataDir: string): Promise<string> {
  const { value } = await readOrCreateValue(path.join(dataDir, INSTANCE_FILE), () => randomBytes(9).toString('base64url'));
  return value;
}

/**
 * Shows that the server holds the key without showing the key, bound to this gateway's instance
 * and port: HMAC-SHA256(key, "<instance>:<port>:<nonce>"), base64url.
 */
export function keyProof(apiKey: string, binding: { instance: string; port: number; nonce: string }): string {
  return createHmac('sha256', apiKey).update(proofMessage(binding)).digest('base64url');
}
