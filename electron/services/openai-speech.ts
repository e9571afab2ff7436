/**
 * OpenAI's speech request in Orator's terms: its models, voices, speed and formats mapped onto
 * engines, voices, rate and encoders; the audio streamed as it is made (speech-stream.ts).
 * Knows nothing of HTTP; the /v1 routes turn its answers and errors into OpenAI's.
 */
import {
  ApiError,
  codePoints,
  FORMAT_OF,
  OPENAI_MAX_INPUT,
  OPENAI_MODELS,
  OPTION_RANGES,
  OUTPUT_TOKENS_PER_SECOND,
  type OpenAIAudioModelList,
  type OpenAIModel,
  type OpenAIVoiceEntry,
  type OpenAIVoiceQuery,
  type OpenAIResponseFormat,
  speaksLanguage,
  type OutputFormat,
  type OpenAISpeechUsage,
} from '../contract';
import type { EngineRegistry, Prosody, ResolvedVoice } from '../engines/registry';
import { looksLikeSsml, planSsml } from '../ssml/plan';
import { openSpeechStream, type SpeechStream } from './speech-stream';
import { languageOfCode, type SpeechRequest } from './openai-request';
import { openAIVoiceEntries } from './openai-voices';
import { spokenBy, withoutControls, type Pronouncer, type SynthesisService } from './synthesis';
import type { VoiceResolver } from './voices';

/** A speech answer under way: its stream, the fields that changed nothing, the job that keeps its audio. */
export interface Speaking {
  stream: SpeechStream;
  ignored: string[];
  keptJob?: string;
}

/** The job format of each response_format: jobs have no ADTS, so AAC is kept in MP4 (m4a). */
const JOB_FORMAT_OF: Readonly<Record<OpenAIResponseFormat, OutputFormat>> = {
  mp3: 'mp3',
  opus: 'ogg',
  aac: 'm4a',
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
    /** Queues the jobs that keep a speech's audio (return_download_link). */
    private readonly jobs?: Pick<SynthesisService, 'synthesize'>,
  ) {}

  /** OpenAI's model names, then one model per available engine. */
  models(): OpenAIModel[] {
    const engines = this.registry
      .summaries()
      .filter((e) => e.available)
      .map((e) => e.id);
    return [...OPENAI_MODELS, ...engines].map((id) => ({ id, object: 'model' as const, created: this.created, owned_by: 'orator' }));
  }

  /** The models as Open WebUI's picker reads them: `{"models":[{"id","name"}]}`. */
  audioModels(): OpenAIAudioModelList {
    const names = new Map(this.registry.summaries().map((e) => [e.id, e.name]));
    return { models: this.models().map(({ id }) => ({ id, name: names.get(id) ?? id })) };
  }

  /** GET /v1/audio/voices: every voice, or with an engine's model that engine's; a page of them with limit and offset. */
  voiceList(query: OpenAIVoiceQuery): OpenAIVoiceEntry[] {
    const engine = query.model === undefined ? undefined : this.engineOfModel(query.model);
    const offset = query.offset ?? 0;
    return openAIVoiceEntries(this.registry, this.voices, engine).slice(
      offset,
      query.limit === undefined ? undefined : offset + query.limit,
    );
  }

  model(id: string): OpenAIModel {
    const model = this.models().find((m) => m.id === id);
    if (!model) throw modelNotFound(id, this.unavailableReason(id));
    return model;
  }

  /**
   * Resolves the request, queues its job when it asks to keep the audio, and synthesizes its first
   * sentence; the rest streams as `audio` is read. `ignored` adds a lang_code that chose nothing.
   */
  async speak(request: SpeechRequest, signal: AbortSignal): Promise<Speaking> {
    const length = codePoints(request.input);
    if (length > OPENAI_MAX_INPUT) {
      throw new ApiError('text_too_long', `"input" has ${length} characters; the maximum is ${OPENAI_MAX_INPUT}.`);
    }
    const engine = this.engineOfModel(request.model);
    const named = this.voices.resolve({ voice: request.voice, ...(engine === undefined ? {} : { engine }) });
    const language = request.langCode === undefined ? undefined : languageOfCode(request.langCode);
    const inLanguage =
      language === undefined ? undefined : this.inLanguage(named, language, this.voices.mapped(request.voice) !== undefined);
    const voice = inLanguage ?? named;
    const ignored = request.langCode !== undefined && !inLanguage ? [...request.ignored, 'lang_code'] : request.ignored;
    const text = withoutControls(request.input);
    const prosody = { rate: rateOfSpeed(request.speed), pitch: 1, volume: volumeOf(request.volume) };
    // an input that is a <speak> document is SSML (docs/ssml.md): OpenAI's API has no field to say so
    const ssml = looksLikeSsml(text);
    const kept = request.keep ? await this.keep(request, voice, prosody, ssml) : undefined;
    const plan = ssml
      ? {
          segments: planSsml(text, voice, prosody, (id) => this.voices.resolve({ voice: id })),
          spokenFor: (speaking: ResolvedVoice) => spokenBy(this.lexicon, speaking),
        }
      : undefined;
    const stream = await openSpeechStream({
      voice,
      text,
      prosody,
      format: FORMAT_OF[request.format],
      signal,
      spoken: spokenBy(this.lexicon, voice),
      ...(plan ? { plan } : {}),
    });
    return { stream, ignored, ...(kept ? { keptJob: kept } : {}) };
  }

  /**
   * The voice for a lang_code: the voice named when it speaks that language; for an OpenAI name
   * (which stands for a voice of Orator's choosing) the first voice of the same engine that does;
   * else none, and lang_code is ignored (an Orator voice id says its own language).
   */
  private inLanguage(named: ResolvedVoice, language: string, byOpenAIName: boolean): ResolvedVoice | undefined {
    if (speaksLanguage(named.voice.language, language)) return named;
    if (!byOpenAIName) return undefined;
    const { voices } = this.registry.detail(named.adapter.id);
    const primary = language.split('-')[0]!;
    const pick = voices.find((v) => speaksLanguage(v.language, language)) ?? voices.find((v) => speaksLanguage(v.language, primary));
    return pick && this.voices.resolve({ voice: pick.id });
  }

  /** return_download_link: the same speech queued as a job, whose audio stays (Kokoro-FastAPI keeps a file). */
  private async keep(request: SpeechRequest, voice: ResolvedVoice, prosody: Prosody, ssml: boolean): Promise<string> {
    if (!this.jobs) throw new ApiError('invalid_request', 'This gateway keeps no jobs: send return_download_link: false.');
    const result = await this.jobs.synthesize({
      text: request.input,
      text_type: ssml ? 'ssml' : 'text',
      voice: voice.voice.id,
      rate: prosody.rate,
      volume: prosody.volume,
      mode: 'job',
      format: JOB_FORMAT_OF[request.format],
    });
    if (result.kind !== 'job') throw new Error('A job request was answered inline');
    return result.job.job_id;
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
}

/** OpenAI's speed (0.25 to 4) as an engine rate, clamped to what every engine can honour (0.5 to 2). */
export function rateOfSpeed(speed: number | undefined): number {
  const { min, max, default: normal } = OPTION_RANGES.rate;
  return Math.min(max, Math.max(min, speed ?? normal));
}

/** Kokoro-FastAPI's volume_multiplier (0 to 4) as Orator's volume, clamped to its range (0 to 2). */
function volumeOf(multiplier: number | undefined): number {
  const { min, max, default: normal } = OPTION_RANGES.volume;
  return Math.min(max, Math.max(min, multiplier ?? normal));
}

function modelNotFound(model: string, unavailable: string | undefined): ApiError {
  const why = unavailable ? ` Its engine is unavailable here: ${unavailable}` : ' GET /v1/models lists the models.';
  return new ApiError('engine_not_found', `The model \`${model}\` does not exist.${why}`);
}
