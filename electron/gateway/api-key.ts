import { randomBytes, timingSafeEqual, createHash } from 'node:crypto';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const API_KEY_FILE = 'api-key';

/** Reads the key stored in the data dir, creating one (32 random bytes, base64url, mode 0600) on first start. */
export async function loadOrCreateApiKey(dataDir: string): Promise<{ key: string; file: string }> {
  const file = path.join(dataDir, API_KEY_FILE);
  try {
    const key = (await readFile(file, 'utf8')).trim();
    if (key) return { key, file };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = randomBytes(32).toString('base64url');
  await writeFile(file, `${key}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return { key, file };
}

/** Constant-time comparison (hashing first makes the lengths equal). */
export function keysMatch(given: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
