/**
 * A tool's speech request read the way tools send it (docs/openai.md): fields Orator does not know
 * are noted and ignored, null is "not given", numbers may come as text, Kokoro-FastAPI's extras
 * are taken where they mean something here. What is left is one plain request for the service.
 */
import {
  ApiError,
  numberProblem,
  OPENAI_NUMBERS,
  OpenAISpeechBody,
  type OpenAIResponseFormat,
  type OpenAISpeechBody as SpeechBody,
} from '../contract';

export interface SpeechRequest {
  model: string;
  input: string;
  /** As named: an OpenAI voice name, an Orator voice id, or with an engine's model that engine's own name. */
  voice: string;
  format: OpenAIResponseFormat;
  /** OpenAI's speed, 0.25 to 4; undefined: 1. */
  speed: number | undefined;
  /** Kokoro-FastAPI's volume_multiplier, 0 to 4; undefined: 1. */
  volume: number | undefined;
  /** stream_format "sse". */
  events: boolean;
  /** Kokoro-FastAPI's lang_code as sent. */
  langCode: string | undefined;
  /** return_download_link: keep the audio as a job too. */
  keep: boolean;
  /** The fields sent that change nothing: unknown ones, and the known ones no local engine takes. */
  ignored: string[];
}

/** The fields the request schema names; any other is accepted and ignored. */
const KNOWN: ReadonlySet<string> = new Set(Object.keys(OpenAISpeechBody.properties));
/** Known, accepted, and without effect here. */
const WITHOUT_EFFECT = ['instructions', 'normalization_options'] as const;

export function readSpeechRequest(body: SpeechBody): SpeechRequest {
  const ignored = Object.keys(body).filter((name) => !KNOWN.has(name));
  for (const name of WITHOUT_EFFECT) if (body[name] !== undefined && body[name] !== null) ignored.push(name);
  return {
    model: body.model,
    input: body.input,
    voice: typeof body.voice === 'string' ? body.voice : body.voice.id,
    format: body.response_format ?? 'mp3',
    speed: numberOf(body.speed, 'speed'),
    volume: numberOf(body.volume_multiplier, 'volume_multiplier'),
    events: body.stream_format === 'sse',
    langCode: body.lang_code ?? undefined,
    keep: body.return_download_link === true,
    ignored,
  };
}

/** A number given as a number or as text, checked against its range (the schema can check only the former). */
function numberOf(value: number | string | null | undefined, field: keyof typeof OPENAI_NUMBERS): number | undefined {
  if (value === undefined || value === null) return undefined;
  const number = typeof value === 'number' ? value : Number(value);
  const { min, max } = OPENAI_NUMBERS[field];
  if (number >= min && number <= max) return number;
  throw new ApiError('invalid_request', numberProblem(field), { field });
}

/** Kokoro's one-letter language codes (its KPipeline's), as BCP 47. */
const KOKORO_LANGUAGES: Readonly<Record<string, string>> = {
  a: 'en-US',
  b: 'en-GB',
  e: 'es',
  f: 'fr',
  h: 'hi',
  i: 'it',
  j: 'ja',
  p: 'pt-BR',
  z: 'zh',
};

/** The language a lang_code names: Kokoro's letter, or a BCP 47 tag ("en_gb" too); undefined when it names none. */
export function languageOfCode(code: string): string | undefined {
  const given = code.trim().replace(/_/g, '-');
  if (Object.hasOwn(KOKORO_LANGUAGES, given.toLowerCase())) return KOKORO_LANGUAGES[given.toLowerCase()];
  if (!/^[a-z]{2,3}(-[a-z0-9]{1,8})*$/i.test(given)) return undefined;
  try {
    return Intl.getCanonicalLocales(given)[0];
  } catch {
    return undefined;
  }
}
