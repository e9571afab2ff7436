import type { Pcm } from '../../audio/pcm';
import type { Db } from '../../storage/database';
import { DiskFull, type DiskBudget, type Reclaimable } from '../disk-budget';
import { RenderCacheFiles } from './files';
import { EnginePace } from './pace';
import { RenderCacheStore, type CacheEntry } from './store';

/** The disk ledger's key of the cache's writes (disk-budget.ts). */
export const RENDER_CACHE_DISK_KEY = 'render-cache';

/** Entries read per query while evicting. */
const EVICTION_PAGE = 64;

export interface RenderCacheOptions {
  db: Db;
  dataDir: string;
  /** Every write asks it first; a write that does not fit is skipped, never failing the job. */
  disk: DiskBudget;
  /** What the cache may hold, in bytes of audio; 0 keeps nothing (bound changes it). */
  maxBytes: number;
}

/** What the cache holds, and what it saved and cost since the gateway started. */
export interface RenderCacheStats {
  entries: number;
  bytes: number;
  /** The audio it holds, in seconds. */
  seconds: number;
  maxBytes: number;
  /** Sentences found in the cache (or being synthesized for another chunk) instead of synthesized again. */
  hits: number;
  /** Sentences an engine was asked to speak, found nowhere. */
  synthesized: number;
  /** Entries dropped to keep within the bound, to give the disk back, or by a clear. */
  evicted: number;
}

/**
 * Each sentence's audio, by the key of what is said and how (key.ts), kept on disk and in SQLite
 * so that it survives restarts. Bounded by `maxBytes`: past it, the least recently used entries
 * go. A job copies what it takes from the cache into its own audio, so an entry evicted later
 * leaves every job whole. The disk ledger is asked before every write, and can take the cache's
 * room back for work that needs it (`reclaim`).
 */
export class RenderCache implements Reclaimable {
  readonly key = RENDER_CACHE_DISK_KEY;
  /** How fast the engines synthesized what the cache did not hold. */
  readonly pace = new EnginePace();
  private readonly files: RenderCacheFiles;
  private readonly store: RenderCacheStore;
  private entries = 0;
  private bytes = 0;
  private lastUse = 0;
  private hits = 0;
  private synthesized = 0;
  private evicted = 0;
  /** Keys being written: a second write of one waits for nothing and is skipped. */
  private readonly writing = new Set<string>();
  /** What it may hold, in bytes of audio (the render_cache_mb setting as it is now). */
  private maxBytes: number;

  private constructor(private readonly options: RenderCacheOptions) {
    this.maxBytes = options.maxBytes;
    this.files = new RenderCacheFiles(options.dataDir);
    this.store = new RenderCacheStore(options.db);
  }

  /** Opens the cache of a data dir: what a stop left half-made is removed, and the bound applied (a smaller setting). */
  static async open(options: RenderCacheOptions): Promise<RenderCache> {
    const cache = new RenderCache(options);
    await cache.files.sweep((key) => cache.store.has(key));
    const totals = cache.store.totals();
    cache.entries = totals.entries;
    cache.bytes = totals.bytes;
    cache.lastUse = totals.lastUse;
    await cache.evictTo(options.maxBytes);
    return cache;
  }

  /** A new bound (the setting changed): a smaller one evicts the least recently used entries now. */
  async bound(maxBytes: number): Promise<void> {
    this.maxBytes = maxBytes;
    await this.evictTo(maxBytes);
  }

  /** Whether the cache holds a key (a render plan's question: nothing is read). */
  holds(key: string): boolean {
    return this.store.has(key);
  }

  /** The audio of a key, or null when the cache does not hold it (any more). */
  async get(key: string): Promise<Pcm | null> {
    const entry = this.store.get(key);
    if (!entry) return null;
    const samples = await this.files.read(key, entry.bytes);
    if (!samples) {
      // removed meanwhile by an eviction, or from outside Orator: not held any more
      this.forget(key);
      return null;
    }
    this.store.touch(key, ++this.lastUse);
    return { sampleRate: entry.sample_rate, samples };
  }

  /**
   * Keeps a sentence's audio under its key, then evicts the least recently used entries past the
   * bound. Skipped when the disk has no room for it above what must stay free and what other
   * work reserved: the cache never costs a job its room.
   */
  async put(key: string, pcm: Pcm): Promise<void> {
    const bytes = pcm.samples.byteLength;
    if (bytes > this.maxBytes || this.writing.has(key)) return;
    this.writing.add(key);
    try {
      await this.options.disk.write(RENDER_CACHE_DISK_KEY, bytes);
      await this.files.write(key, pcm.samples);
      const replaced = this.store.put({ key, sample_rate: pcm.sampleRate, bytes, used: ++this.lastUse });
      this.entries += replaced ? 0 : 1;
      this.bytes += bytes - (replaced?.bytes ?? 0);
    } catch (error) {
      if (!(error instanceof DiskFull)) console.warn(`Orator could not keep a sentence in its render cache: ${(error as Error).message}`);
      return;
    } finally {
      this.writing.delete(key);
    }
    await this.evictTo(this.maxBytes);
  }

  /** Counts what a render took from the cache (or from a synthesis of the same key under way) and what it had synthesized. */
  record(found: number, synthesized: number): void {
    this.hits += found;
    this.synthesized += synthesized;
  }

  /** Gives back at least `bytes` of disk (the least recently used entries first), or all the cache holds; returns what it freed. */
  async reclaim(bytes: number): Promise<number> {
    const before = this.bytes;
    await this.evictTo(Math.max(0, this.bytes - bytes));
    return before - this.bytes;
  }

  /** Empties the cache. */
  async clear(): Promise<RenderCacheStats> {
    await this.evictTo(0);
    return this.stats();
  }

  stats(): RenderCacheStats {
    const { entries, bytes, seconds } = this.store.totals();
    const { hits, synthesized, evicted } = this;
    return { entries, bytes, seconds, maxBytes: this.maxBytes, hits, synthesized, evicted };
  }

  /** Evicts the least recently used entries until the cache holds at most `target` bytes. */
  private async evictTo(target: number): Promise<void> {
    while (this.bytes > target) {
      const page = this.store.leastRecent(EVICTION_PAGE);
      if (page.length === 0) return;
      for (const entry of page) {
        if (this.bytes <= target) return;
        if (this.forget(entry.key)) {
          this.evicted++;
          await this.files.remove(entry.key);
        }
      }
    }
  }

  /** Drops an entry's record (its file is no longer to be read); returns it if it was there. */
  private forget(key: string): CacheEntry | undefined {
    const entry = this.store.delete(key);
    if (entry) {
      this.entries--;
      this.bytes -= entry.bytes;
    }
    return entry;
  }
}
