import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { int16View } from '../../audio/wav';
import { PRIVATE_DIR_MODE } from '../../storage/private-files';
import { writeSamples } from '../files';
import { CACHE_KEY } from './key';

export const RENDER_CACHE_DIR = 'render-cache';
const EXTENSION = '.pcm';

/**
 * The cache's files: one per entry, its 16-bit samples as they are (no header: the rate is in
 * SQLite), in <data dir>/render-cache/<first two digits of the key>/<key>.pcm, so that no folder
 * holds more than a few hundred of a book's thousands of sentences.
 */
export class RenderCacheFiles {
  readonly root: string;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, RENDER_CACHE_DIR);
  }

  file(key: string): string {
    return path.join(this.root, key.slice(0, 2), key + EXTENSION);
  }

  /** Writes an entry's samples under a temporary name and renames it: a cache file is always whole. */
  async write(key: string, samples: Int16Array): Promise<void> {
    await writeSamples(this.file(key), samples);
  }

  /** An entry's samples, or null when its file is gone or not the size recorded. */
  async read(key: string, bytes: number): Promise<Int16Array | null> {
    const data = await readFile(this.file(key)).catch(() => null);
    return data && data.length === bytes ? int16View(data) : null;
  }

  async remove(key: string): Promise<void> {
    await rm(this.file(key), { force: true }).catch((error: Error) => {
      console.warn(`Orator could not remove a file of its render cache: ${error.message}`);
    });
  }

  /**
   * At start, before the cache is used: removes what a stop or crash left between a file and its
   * record (a file half-written, or written whose entry was never recorded), so that the disk the
   * cache holds is what its entries say.
   */
  async sweep(recorded: (key: string) => boolean): Promise<void> {
    await mkdir(this.root, { recursive: true, mode: PRIVATE_DIR_MODE });
    for (const shard of await readdir(this.root)) {
      const dir = path.join(this.root, shard);
      const names = await readdir(dir).catch(() => []);
      for (const name of names) {
        const key = name.slice(0, -EXTENSION.length);
        if (name.endsWith(EXTENSION) && CACHE_KEY.test(key) && recorded(key)) continue;
        await rm(path.join(dir, name), { recursive: true, force: true });
      }
    }
  }
}
