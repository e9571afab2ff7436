import { Type, type Static } from 'typebox';

const count = (description: string) => Type.Integer({ minimum: 0, description });

/** What the render cache holds: each sentence's audio by what is said and how (docs/projects.md#the-render-cache). */
export const RenderCacheStats = Type.Object({
  entries: count('Sentences held'),
  bytes: count('Disk they take, in bytes (16-bit samples)'),
  audio_seconds: Type.Number({ minimum: 0, description: 'Their audio, in seconds' }),
  max_bytes: count('What the cache may hold (the render_cache_mb setting); past it the least recently used sentences go'),
  hits: count('Sentences of jobs found in the cache instead of synthesized, since the gateway started'),
  synthesized: count('Sentences of jobs an engine was asked to speak because the cache did not hold them, since the gateway started'),
  evicted: count('Sentences dropped since the gateway started: past the bound, to give disk back to other work, or by a clear'),
});
export type RenderCacheStats = Static<typeof RenderCacheStats>;
