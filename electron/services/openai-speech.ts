/**
 * OpenAI's speech request in Orator's terms: its models, voices, speed and formats mapped onto
 * engines, voices, rate and encoders; the audio streamed as it is made (speech-stream.ts).
 * Knows nothing of HTTP; the /v1 routes turn its answers and errors into OpenAI's.
 */
import {
  ApiError,
  codePoints,
  OPENAI_MAX_INPUT,
  OPENAI_MODELS,
  OPTION_RANGES,
  OUTPUT_TOKENS_PER_SECOND,
  type OpenAIModel,
  type OpenAIResponseFormat,
  type OpenAISpeechBody,
  type OpenAISpeechUsage,
} from '../contract';
import type { AudioFormat } from '../audio/encode/formats';
import type { EngineRegistry, ResolvedVoice } from '../engines/registry';
import { looksLikeSsml, planSsml } from '../ssml/plan';
import { openSpeechStream, type SpeechStream } from './speech-stream';
import { spokenBy, withoutControls, type Pronouncer } from './synthesis';
import type { VoiceResolver } from './voices';

/** OpenAI's `opus` is Opus in Ogg; the other names are Orator's own. */
export const FORMAT_OF: Readonly<Record<OpenAIResponseFormat, AudioFormat>> = {
  mp3: 'mp3',
  opus: 'ogg',
  aac: 'aac',
  flac: 'flac',
  wav: 'wav',
  pcm: 'pcm',
};

export class OpenAISpeechService {
  /** Models carry the gateway's start as their creation time: there is no better date for an engine found at start. */
  private readonly created = Math.floor(Date.now() / 1000);

  constructor(
    private readonly registry: EngineRegistry,
    /** Voice names as every route takes them, OpenAI's mapped by the openai_voices setting (voices.ts). */
    private readonly voices: VoiceResolver,
    /** The pronunciation lexicon, applied to each sentence as on Orator's own routes. */
    private readonly lexicon?: Pronouncer,
  ) {}

  /** OpenAI's model names, then one model per available engine. */
  models(): OpenAIModel[] {
    const engines = this.registry
      .summaries()
      .filter((e) => e.available)
      .map((e) => e.id);
    return [...OPENAI_MODELS, ...engines].map((id) => ({ id, object: 'model' as const, created: this.created, owned_by: 'orator' }));
  }

  model(id: string): OpenAIModel {
    const model = this.models().find((m) => m.id === id);
    if (!model) throw modelNotFound(id, this.unavailableReason(id));
    return model;
  }

  /** Resolves the request and synthesizes its first sentence; the rest streams as `audio` is read. */
  async speak(body: OpenAISpeechBody, signal: AbortSignal): Promise<SpeechStream> {
    const length = codePoints(body.input);
    if (length > OPENAI_MAX_INPUT) {
      throw new ApiError('text_too_long', `"input" has ${length} characters; the maximum is ${OPENAI_MAX_INPUT}.`);
    }
    const engine = this.engineOfModel(body.model);
    const voice = this.resolveVoice(typeof body.voice === 'string' ? body.voice : body.voice.id, engine);
    const text = withoutControls(body.input);
    const prosody = { rate: rateOfSpeed(body.speed), pitch: 1, volume: 1 };
    // an input that is a <speak> document is SSML (docs/ssml.md): OpenAI's API has no field to say so
    const plan = looksLikeSsml(text)
      ? {
          segments: planSsml(text, voice, prosody, (id) => this.voices.resolve({ voice: id })),
          spokenFor: (speaking: ResolvedVoice) => spokenBy(this.lexicon, speaking),
        }
      : undefined;
    return openSpeechStream({
      voice,
      text,
      prosody,
      format: FORMAT_OF[body.response_format ?? 'mp3'],
      signal,
      spoken: spokenBy(this.lexicon, voice),
      ...(plan ? { plan } : {}),
    });
  }

  /** What `speech.audio.done` reports: Orator has no tokens (see OUTPUT_TOKENS_PER_SECOND). */
  usage(input: string, durationS: number): OpenAISpeechUsage {
    const input_tokens = codePoints(input);
    const output_tokens = Math.ceil(durationS * OUTPUT_TOKENS_PER_SECOND);
    return { input_tokens, output_tokens, total_tokens: input_tokens + output_tokens };
  }

  /** The engine a model names; undefined for OpenAI's model names, which take any voice. */
  private engineOfModel(model: string): string | undefined {
    if ((OPENAI_MODELS as readonly string[]).includes(model)) return undefined;
    if (this.registry.summaries().some((e) => e.id === model && e.available)) return model;
    throw modelNotFound(model, this.unavailableReason(model));
  }

  private unavailableReason(model: string): string | undefined {
    return this.registry.summaries().find((e) => e.id === model && !e.available)?.reason;
  }

  /** With an engine's model, `voice` may be that engine's own voice name (voices.ts says the rest). */
  private resolveVoice(name: string, engine: string | undefined): ResolvedVoice {
    return this.voices.resolve({ voice: name, ...(engine === undefined ? {} : { engine }) });
  }
}

/** OpenAI's speed (0.25 to 4) as an engine rate, clamped to what every engine can honour (0.5 to 2). */
export function rateOfSpeed(speed: number | undefined): number {
  const { min, max, default: normal } = OPTION_RANGES.rate;
  return Math.min(max, Math.max(min, speed ?? normal));
}

function modelNotFound(model: string, unavailable: string | undefined): ApiError {
  const why = unavailable ? ` Its engine is unavailable here: ${unavailable}` : ' GET /v1/models lists the models.';
  return new ApiError('engine_not_found', `The model \`${model}\` does not exist.${why}`);
}
