import { chmod, readFile, writeFile } from 'node:fs/promises';

/**
 * Everything in the data dir is the user's alone: the texts people synthesize, their audio and the
 * API key. Files are created with these modes whatever the process's umask allows.
 */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/**
 * Reads a one-line value kept in a file (the API key, the instance id), creating the file (mode
 * 0600) with `make()` when it is missing or empty. `created` says whether it was made just now.
 */
export async function readOrCreateValue(file: string, make: () => string): Promise<{ value: string; created: boolean }> {
  try {
    const value = (await readFile(file, 'utf8')).trim();
    if (value) return { value, created: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const value = make();
  await writeFile(file, `${value}\n`, { mode: PRIVATE_FILE_MODE });
  // an empty file that was there keeps its old mode through writeFile
  await chmod(file, PRIVATE_FILE_MODE);
  return { value, created: true };
}
