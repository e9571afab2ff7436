import type { RenderCacheStats } from '../contract';
import type { RenderCache, RenderCacheStats as CacheStats } from '../jobs/render-cache/cache';

/** The render cache as the API shows it: what it holds, what it saved and cost; emptied on request. */
export class RenderCacheService {
  constructor(private readonly cache: RenderCache) {}

  stats(): RenderCacheStats {
    return statsView(this.cache.stats());
  }

  /** Empties the cache: every job keeps its own audio; the next renders synthesize their sentences again. */
  async clear(): Promise<RenderCacheStats> {
    return statsView(await this.cache.clear());
  }
}

function statsView(stats: CacheStats): RenderCacheStats {
  const { entries, bytes, seconds, maxBytes, hits, synthesized, evicted } = stats;
  return { entries, bytes, audio_seconds: Math.round(seconds * 1000) / 1000, max_bytes: maxBytes, hits, synthesized, evicted };
}
