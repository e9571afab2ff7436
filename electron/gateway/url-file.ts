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

/**
 * `<data-dir>/gateway-key-source`: where the running gateway's key comes from, never the key: the
 * stored `api-key`, a key file given by flag or variable (which a local client may read too), or
 * a variable or flag holding the key itself (which it cannot: it can only say so). Written and
 * removed with `gateway-url`.
 */
export const GATEWAY_KEY_SOURCE_FILE = 'gateway-key-source';

export interface KeySource {
  /** As the start-up line names it: "ORATOR_API_KEY", "--api-key-file /etc/orator/key", or the stored file's path. */
  source: string;
  /** The file holding the key, when there is one. */
  file?: string;
}

/** Records the URL and the key's source (mode 0600, like everything in the data folder); returns their removal. */
export async function recordGatewayUrl(dataDir: string, url: string, key: KeySource): Promise<() => Promise<void>> {
  const files = [
    [path.join(dataDir, GATEWAY_URL_FILE), `${url}\n`],
    [path.join(dataDir, GATEWAY_KEY_SOURCE_FILE), `${JSON.stringify(key)}\n`],
  ] as const;
  for (const [file, text] of files) {
    await writeFile(file, text, { mode: PRIVATE_FILE_MODE });
    await chmod(file, PRIVATE_FILE_MODE); // a file left by a crash keeps its mode through writeFile
  }
  return async () => {
    for (const [file] of files) await rm(file, { force: true });
  };
}

/** The recorded key source, or undefined (no gateway running, or one older than the record). */
export function readKeySource(dataDir: string): KeySource | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path.join(dataDir, GATEWAY_KEY_SOURCE_FILE), 'utf8')) as Partial<KeySource>;
    if (typeof parsed.source !== 'string') return undefined;
    return { source: parsed.source, ...(typeof parsed.file === 'string' ? { file: parsed.file } : {}) };
  } catch {
    return undefined;
  }
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
