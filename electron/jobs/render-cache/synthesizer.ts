import type { Pcm } from '../../audio/pcm';
import type { EngineRegistry } from '../../engines/registry';
import { chunkRequest } from '../chunk-synthesis';
import type { ChunkSynthesizer } from '../local-chunk-queue';
import type { ChunkRow } from '../rows';
import type { JobStore } from '../store';
import type { RenderCache } from './cache';
import { renderCacheKey } from './key';

export interface CachedSynthesisDeps {
  cache: RenderCache;
  registry: EngineRegistry;
  store: JobStore;
}

/**
 * Which jobs' chunks go through the cache: those of a series (a project's chapter, a job
 * re-rendered), or every job's (a sentence edited: a change, never a first take).
 */
export type CacheScope = 'series' | 'every-job';

/**
 * The chunk synthesizer of the embedded queue, in front of the engines. The chunks of a job of a
 * series (a project's chapter: a sentence each) are looked up by their key first; only what the
 * cache does not hold is synthesized, each key once however many chunks of the unit or of other
 * jobs ask for it at the same time, and kept in the cache for the next render. Other jobs go
 * straight to the engines: a client that sends a text twice may want another take (a neural
 * voice says it differently each time), and their chunks of several sentences rarely repeat. A
 * job re-rendered (services/job-rerender.ts) is a series of its own, and a sentence edit takes
 * the cache whatever its job: both are changes to audio already made, not a first take.
 */
export function cachedSynthesizer(deps: CachedSynthesisDeps, synthesize: ChunkSynthesizer, scope: CacheScope = 'series'): ChunkSynthesizer {
  /** Keys being synthesized, until their audio is in the cache: a chunk of the same key waits for it. */
  const inFlight = new Map<string, Promise<Pcm>>();

  const lookUp = async (key: string): Promise<Pcm | null> => {
    const pending = inFlight.get(key);
    if (pending) return pending.catch(() => null); // its job was cancelled, or its engine failed: synthesized here
    return deps.cache.get(key);
  };

  return async (jobId, chunks, signal) => {
    const keys = keysOf(deps, jobId, chunks, scope);
    if (!keys) return synthesize(jobId, chunks, signal);
    const found = await Promise.all(keys.map(lookUp));
    const firstOfKey = new Map<string, number>();
    found.forEach((pcm, i) => {
      if (!pcm && !firstOfKey.has(keys[i]!)) firstOfKey.set(keys[i]!, i);
    });
    deps.cache.record(chunks.length - firstOfKey.size, firstOfKey.size);
    if (firstOfKey.size === 0) return found as Pcm[];

    const missing = [...firstOfKey.values()];
    const started = performance.now();
    const made = synthesize(
      jobId,
      missing.map((i) => chunks[i]!),
      signal,
    );
    missing.forEach((i, n) => {
      const one = made.then((pcms) => pcms[n]!);
      one.catch(() => undefined); // a failure is this unit's to report; those waiting on it synthesize themselves
      inFlight.set(keys[i]!, one);
    });
    let pcms: Pcm[];
    try {
      pcms = await made;
    } catch (error) {
      for (const i of missing) inFlight.delete(keys[i]!);
      throw error;
    }
    const characters = missing.reduce((sum, i) => sum + chunks[i]!.text.length, 0);
    deps.cache.pace.record(deps.store.get(jobId)!.engine, characters, (performance.now() - started) / 1000);
    missing.forEach((i, n) => {
      const key = keys[i]!;
      // the slot is free once the audio is back; the cache keeps it meanwhile
      void deps.cache.put(key, pcms[n]!).finally(() => inFlight.delete(key));
    });
    const byKey = new Map(missing.map((i, n) => [keys[i]!, pcms[n]!]));
    return found.map((pcm, i) => pcm ?? byKey.get(keys[i]!)!);
  };
}

/**
 * Each chunk's key in the cache; null for a job outside a series (unless `scope` takes every job),
 * and when the engine of a chunk is gone (it fails as the engines' path says).
 */
function keysOf(deps: CachedSynthesisDeps, jobId: string, chunks: ChunkRow[], scope: CacheScope): string[] | null {
  const job = deps.store.get(jobId)!;
  if (job.series === null && scope === 'series') return null;
  try {
    return chunks.map((chunk) => {
      const { adapter, request } = chunkRequest(deps.registry, job, chunk);
      return renderCacheKey(adapter, request);
    });
  } catch {
    return null;
  }
}
