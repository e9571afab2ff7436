/**
 * The voice list tools read to fill their pickers (GET /v1/audio/voices): OpenAI's names first,
 * each with the voice it speaks with now, then every voice of the available engines, the most
 * natural first, since tools that page ask for the first hundred and show those.
 */
import { ApiError, type OpenAIVoiceEntry, type QualityTier, type Voice } from '../contract';
import type { EngineRegistry } from '../engines/registry';
import type { VoiceResolver } from './voices';

const QUALITY_RANK: Record<QualityTier, number> = { high: 0, medium: 1, low: 2 };
const rank = (voice: Voice) => (voice.quality === undefined ? 3 : QUALITY_RANK[voice.quality]);

/** `engine`: that engine's voices only (a model named after it), without OpenAI's names. */
export function openAIVoiceEntries(registry: EngineRegistry, names: VoiceResolver, engine: string | undefined): OpenAIVoiceEntry[] {
  const engines = registry.summaries().filter((e) => e.available && (engine === undefined || e.id === engine));
  const voices = engines
    .flatMap((e) => registry.detail(e.id).voices.map((voice) => ({ voice, engineName: e.name })))
    .sort((a, b) => rank(a.voice) - rank(b.voice));
  const plain = voices.map(({ voice, engineName }) => entry(voice.id, `${voice.name} · ${engineName}`, voice));
  return engine === undefined ? [...openAINames(names), ...plain] : plain;
}

/** Each name of the openai_voices map, as the voice that speaks for it now (its fallback when the mapped one cannot). */
function openAINames(names: VoiceResolver): OpenAIVoiceEntry[] {
  return names.names().flatMap(([name]) => {
    try {
      const { voice, adapter } = names.resolve({ voice: name });
      return [entry(name, `${name} · ${voice.name} · ${adapter.name}`, voice)];
    } catch (error) {
      if (error instanceof ApiError) return []; // no engine available at all
      throw error;
    }
  });
}

function entry(id: string, name: string, voice: Voice): OpenAIVoiceEntry {
  return { id, name, language: voice.language, ...(voice.quality ? { quality: voice.quality } : {}) };
}
