/**
 * The listings OpenAI-compatible tools read to fill their pickers, in the shapes they parse:
 * Open WebUI's `{"models":[{"id"}]}` and `{"voices":[{"id","name"}]}`, Home Assistant's
 * `voices`/`data` (docs/openai.md has each tool's reading).
 */
import { Type, type Static } from 'typebox';
import { QualityTier } from './engines';

export const OpenAIVoiceEntry = Type.Object({
  id: Type.String({ description: 'What `voice` takes: an OpenAI voice name, or an Orator voice id' }),
  name: Type.String({ description: 'For people: an OpenAI name with the voice it speaks with, or the voice with its engine' }),
  language: Type.String({ description: 'BCP 47' }),
  quality: Type.Optional(QualityTier),
});
export type OpenAIVoiceEntry = Static<typeof OpenAIVoiceEntry>;

export const OpenAIVoiceList = Type.Object({
  voices: Type.Array(OpenAIVoiceEntry, {
    description: "OpenAI's voice names first, then every voice, the most natural first (neural, then medium, then low quality)",
  }),
  data: Type.Array(OpenAIVoiceEntry, { description: 'The same list, for clients that read OpenAI-style `data`' }),
});
export type OpenAIVoiceList = Static<typeof OpenAIVoiceList>;

export const OpenAIVoiceQuery = Type.Object({
  model: Type.Optional(
    Type.String({ minLength: 1, description: "An OpenAI model: every voice; an engine's model: that engine's voices only" }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, description: 'At most this many voices (default: all)' })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'Skip this many first (default 0)' })),
});
export type OpenAIVoiceQuery = Static<typeof OpenAIVoiceQuery>;

export const OpenAIAudioModelList = Type.Object({
  models: Type.Array(Type.Object({ id: Type.String(), name: Type.String() }), {
    description: "OpenAI's speech model names, then one model per available engine (as GET /v1/models)",
  }),
});
export type OpenAIAudioModelList = Static<typeof OpenAIAudioModelList>;
