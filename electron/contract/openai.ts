/**
 * The OpenAI-compatible dialect (`/v1`): OpenAI's speech request, model list and error shape, as
 * OpenAI documents them, so that tools and the official SDKs work unchanged. docs/api.md says
 * what Orator makes of each field.
 */
import { Type, type Static, type TSchema } from 'typebox';
import { ERROR_STATUS, type ErrorCode } from './errors';
import type { AudioFormat } from './formats';
import { NON_BLANK_PATTERN } from './synthesis';

export const OPENAI_ROOT = '/v1';

/** OpenAI's limit on `input` (code points here, as every Orator length). */
export const OPENAI_MAX_INPUT = 4096;
/** OpenAI's range of `speed`; engines take 0.5 to 2 (OPTION_RANGES.rate), so the ends are clamped. */
export const OPENAI_SPEED = { min: 0.25, max: 4, default: 1 } as const;

/** OpenAI's model names, accepted beside one model per engine id. */
export const OPENAI_MODELS = ['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts'] as const;

export const OPENAI_RESPONSE_FORMATS = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] as const;
export type OpenAIResponseFormat = (typeof OPENAI_RESPONSE_FORMATS)[number];

/** OpenAI's `opus` is Opus in Ogg; the other names are Orator's own. */
export const FORMAT_OF: Readonly<Record<OpenAIResponseFormat, AudioFormat>> = {
  mp3: 'mp3',
  opus: 'ogg',
  aac: 'aac',
  flac: 'flac',
  wav: 'wav',
  pcm: 'pcm',
};

/** OpenAI's built-in voices, each mapped to a local voice by the `openai_voices` setting. */
export const OPENAI_VOICE_NAMES = [
  'alloy',
  'ash',
  'ballad',
  'coral',
  'echo',
  'fable',
  'nova',
  'onyx',
  'sage',
  'shimmer',
  'verse',
  'marin',
  'cedar',
] as const;

/**
 * The default mapping: voices of the embedded engines, which every installation has, chosen to
 * keep OpenAI's voices told apart (female names to female voices, fable British).
 */
export const DEFAULT_OPENAI_VOICES: Readonly<Record<(typeof OPENAI_VOICE_NAMES)[number], string>> = {
  alloy: 'espeak-ng:en-us',
  ash: 'flite:rms',
  ballad: 'espeak-ng:en-gb-x-rp',
  coral: 'svox-pico:en-US',
  echo: 'flite:kal16',
  fable: 'espeak-ng:en-gb',
  nova: 'flite:slt',
  onyx: 'flite:awb',
  sage: 'svox-pico:en-GB',
  shimmer: 'svox-pico:en-US',
  verse: 'espeak-ng:en-029',
  marin: 'flite:slt',
  cedar: 'espeak-ng:en-us-nyc',
};

const ResponseFormat = Type.Enum(OPENAI_RESPONSE_FORMATS, {
  default: 'mp3',
  description: 'mp3 (default), opus (Ogg), aac (ADTS), flac, wav, or pcm: raw 24 kHz 16-bit little-endian mono',
});

/** A number written as text ("1.0", " 2 "), as some tools send their settings. */
export const NUMERIC_TEXT_PATTERN = '^\\s*[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?\\s*$';

/** Kokoro-FastAPI's `volume_multiplier` as Orator takes it: 0 to 4, spoken clamped to the volume range 0 to 2. */
export const OPENAI_VOLUME = { min: 0, max: 4 } as const;

/** The numbers of the speech request, which may come as text. */
export const OPENAI_NUMBERS = { speed: OPENAI_SPEED, volume_multiplier: OPENAI_VOLUME } as const;

/** What is wrong with a number of the speech request, however it came. */
export function numberProblem(field: keyof typeof OPENAI_NUMBERS): string {
  const { min, max } = OPENAI_NUMBERS[field];
  return `Invalid value for '${field}': a number from ${min} to ${max}, as a number or as text like "1.0".`;
}

/** null is "not given", as the tools that send it mean it. */
const orNull = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A bounded number, also as text; null is "not given". */
const Numeric = (range: { min: number; max: number }, description: string) =>
  Type.Union(
    [
      Type.Number({ minimum: range.min, maximum: range.max }),
      Type.String({ pattern: NUMERIC_TEXT_PATTERN, description: 'The same number written as text, e.g. "1.0"' }),
      Type.Null(),
    ],
    { description },
  );

/**
 * OpenAI's speech request as the tools send it. Lenient where they are (docs/openai.md): a field
 * this schema does not name is accepted and ignored, and named in `X-Orator-Ignored-Fields`; null
 * for an optional field is "not given"; numbers may come as text. Orator's own routes stay strict.
 */
export const OpenAISpeechBody = Type.Object(
  {
    model: Type.String({ description: `${OPENAI_MODELS.join(', ')}, or an engine id (GET /v1/models)` }),
    input: Type.String({ pattern: NON_BLANK_PATTERN, description: `The text to speak, at most ${OPENAI_MAX_INPUT} characters` }),
    voice: Type.Union(
      [Type.String({ minLength: 1 }), Type.Object({ id: Type.String({ minLength: 1 }) }, { additionalProperties: false })],
      {
        description: 'An OpenAI voice name (mapped by the openai_voices setting) or an Orator voice id, e.g. "espeak-ng:en-us"',
      },
    ),
    response_format: Type.Optional(orNull(ResponseFormat)),
    speed: Type.Optional(
      Numeric(OPENAI_SPEED, `${OPENAI_SPEED.min} to ${OPENAI_SPEED.max}, default 1; the engine speaks at this rate clamped to 0.5 to 2`),
    ),
    instructions: Type.Optional(
      orNull(Type.String({ maxLength: OPENAI_MAX_INPUT, description: 'Accepted and ignored: no local engine takes them' })),
    ),
    stream_format: Type.Optional(
      orNull(
        Type.Union([Type.Literal('audio'), Type.Literal('sse')], {
          default: 'audio',
          description: '"audio": the audio itself, streamed; "sse": Server-Sent Events with base64 audio',
        }),
      ),
    ),
    // Kokoro-FastAPI's extras, which tools' settings pass on (Home Assistant's extra_payload, Open WebUI's TTS_OPENAI_PARAMS)
    volume_multiplier: Type.Optional(
      Numeric(OPENAI_VOLUME, `Kokoro-FastAPI's: the volume, ${OPENAI_VOLUME.min} to ${OPENAI_VOLUME.max}, spoken clamped to 0 to 2`),
    ),
    lang_code: Type.Optional(
      orNull(
        Type.String({
          maxLength: 35,
          description:
            'Kokoro-FastAPI\'s: a language (Kokoro\'s letter, e.g. "b" British English, or a BCP 47 tag); chooses the voice of that language within the engine of an OpenAI voice name, else ignored',
        }),
      ),
    ),
    return_download_link: Type.Optional(
      orNull(
        Type.Boolean({
          description: "Kokoro-FastAPI's: also keep the audio as a job; X-Download-Path names its audio (GET with the key)",
        }),
      ),
    ),
    stream: Type.Optional(orNull(Type.Boolean({ description: "Kokoro-FastAPI's: accepted; Orator's answer always streams" }))),
    normalization_options: Type.Optional(
      orNull(Type.Object({}, { additionalProperties: true, description: "Kokoro-FastAPI's text normalisation: accepted and ignored" })),
    ),
  },
  { additionalProperties: true },
);
export type OpenAISpeechBody = Static<typeof OpenAISpeechBody>;

/** The fields a tool sent that changed nothing, for the tool's author (not for machines to act on). */
export const IGNORED_FIELDS_HEADER = 'x-orator-ignored-fields';
/** Kokoro-FastAPI's header naming where the kept audio is. */
export const DOWNLOAD_PATH_HEADER = 'x-download-path';
/** At most this many field names are named, each at most 64 characters. */
const IGNORED_NAMED = 32;

/**
 * The names as a header value: each percent-encoded (a name may hold any character), joined by
 * ", "; past 32, "+N more" (a "+" in a name is encoded, so this cannot be one).
 */
export function ignoredFieldsValue(names: readonly string[]): string {
  const shown = names.slice(0, IGNORED_NAMED).map((name) => encodeURIComponent(name.slice(0, 64)));
  if (names.length > IGNORED_NAMED) shown.push(`+${names.length - IGNORED_NAMED} more`);
  return shown.join(', ');
}

export const OpenAIModel = Type.Object({
  id: Type.String(),
  object: Type.Literal('model'),
  created: Type.Integer({ description: 'Unix time (s) the gateway started' }),
  owned_by: Type.String(),
});
export type OpenAIModel = Static<typeof OpenAIModel>;

export const OpenAIModelList = Type.Object({ object: Type.Literal('list'), data: Type.Array(OpenAIModel) });
export type OpenAIModelList = Static<typeof OpenAIModelList>;

export const OpenAIErrorBody = Type.Object({
  error: Type.Object({
    message: Type.String(),
    type: Type.String({ description: 'invalid_request_error, requests (429) or server_error' }),
    param: Type.Union([Type.String(), Type.Null()]),
    code: Type.Union([Type.String(), Type.Null()]),
  }),
});
export type OpenAIErrorBody = Static<typeof OpenAIErrorBody>;

export type OpenAIStatus = 400 | 401 | 403 | 404 | 429 | 500;

/** An Orator error as OpenAI states it, but for its message. */
export interface OpenAIErrorDialect {
  status: OpenAIStatus;
  type: string;
  /** OpenAI's code; null where OpenAI sends none. */
  code: string | null;
  /** The parameter at fault, where the code implies one. */
  param?: string;
}

/**
 * OpenAI's status and code for the Orator errors it has its own for; every other error keeps
 * Orator's code (which says more than null) with OpenAI's status for its class: OpenAI answers a
 * bad request 400 whatever its cause (Orator's 413, 415 and 422 included), a failure of its own
 * 500 (Orator's 502 to 507).
 */
const DIALECT: Partial<Record<ErrorCode, Omit<OpenAIErrorDialect, 'type'>>> = {
  unauthorized: { status: 401, code: 'invalid_api_key' },
  forbidden_host: { status: 403, code: 'forbidden_host' },
  not_found: { status: 404, code: null },
  method_not_allowed: { status: 404, code: null },
  engine_not_found: { status: 404, code: 'model_not_found', param: 'model' },
  text_too_long: { status: 400, code: 'string_above_max_length', param: 'input' },
  invalid_ssml: { status: 400, code: 'invalid_ssml', param: 'input' },
  unknown_voice: { status: 400, code: 'invalid_value', param: 'voice' },
  unknown_engine: { status: 400, code: 'invalid_value', param: 'model' },
  queue_full: { status: 429, code: 'rate_limit_exceeded' },
  too_many_streams: { status: 429, code: 'rate_limit_exceeded' },
};

const TYPE_OF_STATUS: Record<OpenAIStatus, string> = {
  400: 'invalid_request_error',
  401: 'invalid_request_error',
  403: 'invalid_request_error',
  404: 'invalid_request_error',
  429: 'requests',
  500: 'server_error',
};

export function openAIDialectOf(code: ErrorCode): OpenAIErrorDialect {
  const known = DIALECT[code] ?? { status: ERROR_STATUS[code] < 500 ? 400 : 500, code };
  return { ...known, type: TYPE_OF_STATUS[known.status] };
}

/** Usage in `speech.audio.done`: Orator has no tokens, so input counts code points and output 20 ms frames of audio. */
export const OUTPUT_TOKENS_PER_SECOND = 50;

export interface OpenAISpeechUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
}
