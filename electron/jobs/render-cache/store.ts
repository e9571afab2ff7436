import type { Statement } from 'better-sqlite3';
import { statementCache, type Db } from '../../storage/database';

/** One sentence's audio in the cache; its samples are in its file (files.ts). */
export interface CacheEntry {
  key: string;
  sample_rate: number;
  /** The size of its file: 16-bit samples, two bytes each. */
  bytes: number;
  /** When it was last used, as a count that only grows (RenderCacheStore.nextUse): the least recent goes first. */
  used: number;
}

/** All SQL about the render cache (migration 13). */
export class RenderCacheStore {
  private readonly prepare: (sql: string) => Statement;

  constructor(private readonly db: Db) {
    this.prepare = statementCache(db);
  }

  get(key: string): CacheEntry | undefined {
    return this.prepare('SELECT key, sample_rate, bytes, used FROM render_cache WHERE key = ?').get(key) as CacheEntry | undefined;
  }

  /** Marks an entry used now. */
  touch(key: string, used: number): void {
    this.prepare('UPDATE render_cache SET used = ? WHERE key = ?').run(used, key);
  }

  /** Records an entry (its file is in place); returns the entry it replaced under the same key, if any. */
  put(entry: CacheEntry): CacheEntry | undefined {
    return this.db.transaction(() => {
      const replaced = this.get(entry.key);
      this.prepare(
        `INSERT OR REPLACE INTO render_cache (key, sample_rate, bytes, used, created_at)
         VALUES (@key, @sample_rate, @bytes, @used, @created_at)`,
      ).run({ ...entry, created_at: new Date().toISOString() });
      return replaced;
    })();
  }

  /** Forgets an entry; returns what it was, if it was there. */
  delete(key: string): CacheEntry | undefined {
    return this.prepare('DELETE FROM render_cache WHERE key = ? RETURNING key, sample_rate, bytes, used').get(key) as
      CacheEntry | undefined;
  }

  /** The least recently used entries, at most `limit`. */
  leastRecent(limit: number): CacheEntry[] {
    return this.prepare('SELECT key, sample_rate, bytes, used FROM render_cache ORDER BY used LIMIT ?').all(limit) as CacheEntry[];
  }

  totals(): { entries: number; bytes: number; seconds: number; lastUse: number } {
    return this.prepare(
      `SELECT COUNT(*) AS entries, COALESCE(SUM(bytes), 0) AS bytes, COALESCE(SUM(bytes / 2.0 / sample_rate), 0) AS seconds,
              COALESCE(MAX(used), 0) AS lastUse FROM render_cache`,
    ).get() as { entries: number; bytes: number; seconds: number; lastUse: number };
  }

  /** Whether a key is recorded, for the sweep of files no entry names. */
  has(key: string): boolean {
    return this.prepare('SELECT 1 FROM render_cache WHERE key = ?').get(key) !== undefined;
  }
}
