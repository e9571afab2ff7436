import { createHash } from 'node:crypto';
import { version as oratorVersion } from '../../../package.json';
import type { EngineAdapter, SynthesisRequest } from '../../engines/engine';

/**
 * The key of a sentence's audio in the render cache: everything that makes the audio what it is.
 * The text is the spoken form (after the lexicon and SSML's say-as, sub and phonemes), so that a
 * new lexicon entry changes the keys of exactly the sentences it applies to; the engine, its
 * version (`EngineAdapter.version`, else Orator's) and the voice as the engine names it; the
 * prosody. A version prefix lets a future change of the rule start the cache anew.
 */
export function renderCacheKey(adapter: Pick<EngineAdapter, 'id' | 'version'>, request: SynthesisRequest): string {
  const { text, voice, rate, pitch, volume } = request;
  const engine = adapter.version?.() || `orator@${oratorVersion}`;
  return createHash('sha256')
    .update(JSON.stringify(['render-cache-v1', adapter.id, engine, voice, rate, pitch, volume, text]))
    .digest('hex');
}

/** A key as the cache stores it: 64 lower-case hex digits, also its file's name. */
export const CACHE_KEY = /^[0-9a-f]{64}$/;
