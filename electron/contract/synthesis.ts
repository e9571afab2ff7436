import { Type, type Static } from 'typebox';
import { FormatFields } from './formats';

/** Longest text answered inline by default (code points; the inline_threshold setting changes it). */
export const DEFAULT_INLINE_THRESHOLD = 1000;
/** Longest preview text (code points). */
export const PREVIEW_MAX_CHARS = 500;
/**
 * Longest text streamed inline by default (code points), as OpenAI's speech input: a streamed
 * answer is for listening now and holds the interactive lane; a higher inline threshold raises it.
 */
export const STREAM_MAX_CHARS = 4096;

/** Allowed ranges of the prosody options; 1 is the engine's normal speech. */
export const OPTION_RANGES = {
  rate: { min: 0.5, max: 2, default: 1 },
  pitch: { min: 0.5, max: 2, default: 1 },
  volume: { min: 0, max: 2, default: 1 },
} as const;
export type OptionName = keyof typeof OPTION_RANGES;

const option = (name: OptionName, what: string) =>
  Type.Optional(
    Type.Number({
      minimum: OPTION_RANGES[name].min,
      maximum: OPTION_RANGES[name].max,
      default: OPTION_RANGES[name].default,
      description: `${what}, ${OPTION_RANGES[name].min} to ${OPTION_RANGES[name].max}; 1 is normal`,
    }),
  );

/** Text must hold at least one character that is neither whitespace nor a control character. */
export const NON_BLANK_PATTERN = '[^\\s\\u0000-\\u001f\\u007f-\\u009f]';

const NonBlank = Type.String({
  pattern: NON_BLANK_PATTERN,
  description: 'Text to speak (Unicode code points are counted); control characters are read as spaces',
});

/** How `text` is read: plain text, or SSML markup (docs/ssml.md). */
export const TextType = Type.Optional(
  Type.Union([Type.Literal('text'), Type.Literal('ssml')], {
    default: 'text',
    description: '"text" (default): plain text; "ssml": a <speak> document of the SSML subset in docs/ssml.md',
  }),
);
export type TextType = 'text' | 'ssml';

const voiceAndEngine = {
  voice: Type.Optional(Type.String({ description: 'Voice id, e.g. "espeak-ng:en-us"; default: the engine default voice' })),
  engine: Type.Optional(Type.String({ description: 'Engine id; default: the engine of `voice`, else the default engine' })),
};

export const SynthesizeBody = Type.Object(
  {
    text: NonBlank,
    text_type: TextType,
    ...voiceAndEngine,
    rate: option('rate', 'Speaking rate multiplier'),
    pitch: option('pitch', 'Pitch multiplier'),
    volume: option('volume', 'Volume gain'),
    mode: Type.Optional(
      Type.Union([Type.Literal('auto'), Type.Literal('job')], {
        default: 'auto',
        description: '"auto": inline audio up to the inline threshold, a job above it; "job": always a job',
      }),
    ),
    ...FormatFields,
    stream: Type.Optional(
      Type.Boolean({
        default: false,
        description: `Inline audio streamed as it is synthesized (chunked, sentence by sentence), up to ${STREAM_MAX_CHARS} characters or the inline threshold if higher; not with mode "job"`,
      }),
    ),
    keep_wav: Type.Optional(
      Type.Boolean({
        default: false,
        description: 'A job in a format other than wav keeps its WAV beside it (for downloads in other formats); inline answers ignore it',
      }),
    ),
  },
  { additionalProperties: false },
);
export type SynthesizeBody = Static<typeof SynthesizeBody>;

export const PreviewBody = Type.Object(
  {
    ...voiceAndEngine,
    text: Type.Optional(NonBlank),
    text_type: TextType,
    rate: option('rate', 'Speaking rate multiplier'),
    pitch: option('pitch', 'Pitch multiplier'),
    volume: option('volume', 'Volume gain'),
    ...FormatFields,
  },
  { additionalProperties: false },
);
export type PreviewBody = Static<typeof PreviewBody>;

export const JobAccepted = Type.Object({
  job_id: Type.String(),
  poll: Type.String(),
  status: Type.Literal('running'),
});
export type JobAccepted = Static<typeof JobAccepted>;

/** Headers of an inline 200 audio answer. */
export const AUDIO_HEADERS = {
  engine: 'x-orator-engine',
  voice: 'x-orator-voice',
  duration: 'x-orator-duration',
} as const;
