import { readFileSync } from 'node:fs';
import { chmod, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PRIVATE_FILE_MODE } from '../storage/private-files';

/**
 * `<data-dir>/gateway-url`: where the running gateway listens (one line, e.g.
 * "http://127.0.0.1:5700"), for local clients such as the `orator` command, which take the key
 * from `api-key` beside it. Written once the gateway listens, removed when it stops; a crash
 * leaves it behind, and the next start overwrites it.
 */
export const GATEWAY_URL_FILE = 'gateway-url';

/** Records the URL (mode 0600, like everything in the data folder); returns its removal. */
export async function recordGatewayUrl(dataDir: string, url: string): Promise<() => Promise<void>> {
  const file = path.join(dataDir, GATEWAY_URL_FILE);
  await writeFile(file, `${url}\n`, { mode: PRIVATE_FILE_MODE });
  await chmod(file, PRIVATE_FILE_MODE); // a file left by a crash keeps its mode through writeFile
  return () => rm(file, { force: true });
}

/** The recorded URL, or undefined when no gateway has recorded one. */
export function readGatewayUrl(dataDir: string): string | undefined {
  try {
    return readFileSync(path.join(dataDir, GATEWAY_URL_FILE), 'utf8').trim() || undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
