import { Type, type Static } from 'typebox';
import { ApiError } from './errors';

/**
 * The audio formats Orator writes, as the API names them. `ogg` is Opus in Ogg; `m4a` is AAC in
 * fragmented MP4; `aac` is AAC in ADTS (OpenAI's `aac`); `pcm` is raw 16-bit LE mono at 24 kHz
 * (OpenAI's `pcm`). Encoders and the reasons for each: docs/formats.md.
 */
export const AUDIO_FORMATS = ['wav', 'mp3', 'ogg', 'flac', 'm4a', 'aac', 'pcm'] as const;
export type AudioFormat = (typeof AUDIO_FORMATS)[number];

/** The formats of the Orator API (`format` of synthesize, preview, jobs and job audio). */
export const OUTPUT_FORMATS = ['wav', 'mp3', 'ogg', 'flac', 'm4a', 'pcm'] as const satisfies readonly AudioFormat[];
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
export const DEFAULT_OUTPUT_FORMAT: OutputFormat = 'wav';

export interface BitrateRange {
  defaultKbps: number;
  minKbps: number;
  maxKbps: number;
  /** When the codec takes only some values in the range. */
  choices?: readonly number[];
}

export interface AudioMedia {
  contentType: string;
  extension: string;
  /** Lossy formats only. */
  bitrate?: BitrateRange;
}

/** LAME's constant bitrates; below 32 kHz (MPEG-2) it caps them at 160. */
const MP3_KBPS = [8, 16, 24, 32, 40, 48, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const AAC_BITRATE: BitrateRange = { defaultKbps: 64, minKbps: 16, maxKbps: 256 };

/** How HTTP names each format, and the bitrates of the lossy ones. */
export const AUDIO_MEDIA: Record<AudioFormat, AudioMedia> = {
  wav: { contentType: 'audio/wav', extension: 'wav' },
  mp3: { contentType: 'audio/mpeg', extension: 'mp3', bitrate: { defaultKbps: 128, minKbps: 8, maxKbps: 320, choices: MP3_KBPS } },
  ogg: { contentType: 'audio/ogg', extension: 'ogg', bitrate: { defaultKbps: 48, minKbps: 6, maxKbps: 256 } },
  flac: { contentType: 'audio/flac', extension: 'flac' },
  m4a: { contentType: 'audio/mp4', extension: 'm4a', bitrate: AAC_BITRATE },
  aac: { contentType: 'audio/aac', extension: 'aac', bitrate: AAC_BITRATE },
  pcm: { contentType: 'audio/pcm', extension: 'pcm' },
};

export function isOutputFormat(name: string): name is OutputFormat {
  return (OUTPUT_FORMATS as readonly string[]).includes(name);
}

/**
 * Other names Orator's routes take for its formats: `opus`, OpenAI's name for Opus in Ogg, so that
 * one name works on every entry point (the /v1 route, Orator's routes, the command line).
 */
export const FORMAT_ALIASES = { opus: 'ogg' } as const satisfies Record<string, OutputFormat>;
/** The names a request may give a format by. */
export const FORMAT_NAMES = [...OUTPUT_FORMATS, ...(Object.keys(FORMAT_ALIASES) as (keyof typeof FORMAT_ALIASES)[])] as const;
export type FormatName = (typeof FORMAT_NAMES)[number];

/** The format a request's name stands for. */
export function formatNamed(name: FormatName): OutputFormat {
  return isOutputFormat(name) ? name : FORMAT_ALIASES[name];
}

/** The bitrates a format takes, in words: "one of 8, 16, … kbps" or "a whole number from 6 to 256 kbps". */
export function allowedBitrates(range: BitrateRange): string {
  return range.choices ? `one of ${range.choices.join(', ')} kbps` : `a whole number from ${range.minKbps} to ${range.maxKbps} kbps`;
}

/** Why `kbps` does not suit `format`, or null when it does (absent: the format's default). */
export function bitrateProblem(format: AudioFormat, kbps: number | undefined): string | null {
  const range = AUDIO_MEDIA[format].bitrate;
  if (kbps === undefined) return null;
  if (!range) return `${format} is not lossy: it takes no bitrate_kbps`;
  const fits = range.choices ? range.choices.includes(kbps) : Number.isInteger(kbps) && kbps >= range.minKbps && kbps <= range.maxKbps;
  return fits ? null : `The ${format} bitrate must be ${allowedBitrates(range)}, not ${kbps}`;
}

/** Every lossy Orator format's bitrates and default, for descriptions and error messages. */
export const BITRATE_RULES = OUTPUT_FORMATS.flatMap((format) => {
  const range = AUDIO_MEDIA[format].bitrate;
  return range ? [`${format}: ${allowedBitrates(range)}, default ${range.defaultKbps}`] : [];
}).join('; ');

const FORMAT_DESCRIPTION =
  'Audio format: wav (16-bit PCM at the voice rate), mp3, ogg (Opus; also named opus), flac, m4a (AAC in MP4), pcm (raw 16-bit LE mono at 24 kHz)';

/** A format as a request names it: one of the formats, or an alias (`opus`). */
export const RequestFormat = (description: string, options: { default?: OutputFormat } = {}) =>
  Type.Enum(FORMAT_NAMES, { ...options, description });
const BITRATE_DESCRIPTION = `Bitrate of a lossy format in kbps (${BITRATE_RULES}); refused for wav, flac and pcm`;

/** `format` and `bitrate_kbps` of a JSON body. */
export const FormatFields = {
  format: Type.Optional(RequestFormat(FORMAT_DESCRIPTION, { default: DEFAULT_OUTPUT_FORMAT })),
  bitrate_kbps: Type.Optional(Type.Integer({ minimum: 1, maximum: 320, description: BITRATE_DESCRIPTION })),
};

/** `format` and `bitrate_kbps` of a job audio download (query numbers are coerced from text, see gateway/validators.ts). */
export const FormatQuery = Type.Object({
  format: Type.Optional(
    RequestFormat(
      `${FORMAT_DESCRIPTION}; default: the job's own. Another format is encoded as it is sent, when the job has samples to encode from (docs/formats.md)`,
    ),
  ),
  bitrate_kbps: FormatFields.bitrate_kbps,
});
export type FormatQuery = Static<typeof FormatQuery>;

/** An output format as a request chose it, its bitrate resolved (the default of a lossy format). */
export interface OutputChoice {
  format: OutputFormat;
  /** Lossy formats only. */
  bitrateKbps: number | undefined;
}

/** The output a request asks for; 400 invalid_request, naming what would work, when the bitrate does not suit the format. */
export function outputChoice(request: { format?: FormatName | undefined; bitrate_kbps?: number | undefined }): OutputChoice {
  const format = request.format === undefined ? DEFAULT_OUTPUT_FORMAT : formatNamed(request.format);
  const problem = bitrateProblem(format, request.bitrate_kbps);
  if (problem) throw new ApiError('invalid_request', `${problem}.`);
  return { format, bitrateKbps: request.bitrate_kbps ?? AUDIO_MEDIA[format].bitrate?.defaultKbps };
}
