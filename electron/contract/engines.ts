import { Type, type Static } from 'typebox';

export const Capabilities = Type.Object({
  rate: Type.Boolean(),
  pitch: Type.Boolean(),
  volume: Type.Boolean(),
});
export type Capabilities = Static<typeof Capabilities>;

export const QualityTier = Type.Union([Type.Literal('low'), Type.Literal('medium'), Type.Literal('high')], {
  description:
    'How natural the voice sounds: low = formant or diphone synthesis (robotic), medium = unit selection or statistical parametric (HMM, clustergen), high = neural',
});
export type QualityTier = Static<typeof QualityTier>;

const OptionHandling = (after: 'after_synthesis' | 'ignored') => Type.Union([Type.Literal('engine'), Type.Literal(after)]);
export const OptionSupport = Type.Object(
  {
    rate: OptionHandling('ignored'),
    pitch: OptionHandling('ignored'),
    volume: OptionHandling('after_synthesis'),
  },
  {
    description:
      'Who applies each option: "engine" = the engine itself; "after_synthesis" = Orator scales the audio afterwards; "ignored" = nobody, the audio is at the default',
  },
);
export type OptionSupport = Static<typeof OptionSupport>;

export const Voice = Type.Object({
  id: Type.String({ description: 'Globally unique: "<engine id>:<voice>"', examples: ['espeak-ng:en-us'] }),
  name: Type.String(),
  language: Type.String({ description: 'BCP 47 tag' }),
  gender: Type.Optional(Type.Union([Type.Literal('male'), Type.Literal('female')])),
  sampleRate: Type.Integer(),
  quality: Type.Optional(QualityTier),
  options: Type.Optional(OptionSupport),
  hosts: Type.Optional(
    Type.Array(Type.String(), {
      description:
        'With the Redis job queue only (docs/scale.md): the worker hosts that serve this for jobs, by name. Absent with the embedded queue, where this machine runs every job',
    }),
  ),
});
export type Voice = Static<typeof Voice>;

export const EngineSummary = Type.Object({
  id: Type.String(),
  name: Type.String(),
  available: Type.Boolean(),
  reason: Type.Optional(Type.String({ description: 'Why the engine is unavailable and how to fix it' })),
  voiceCount: Type.Integer(),
  languages: Type.Array(Type.String()),
  defaultVoice: Type.Union([Type.String(), Type.Null()]),
  capabilities: Capabilities,
  kind: Type.Optional(
    Type.Union([Type.Literal('embedded'), Type.Literal('system'), Type.Literal('neural')], {
      description:
        'embedded = ships with Orator (WebAssembly); system = a program installed on this machine; neural = model files the user supplies',
    }),
  ),
  options: Type.Optional(OptionSupport),
  warnings: Type.Optional(
    Type.Array(Type.String(), {
      description: 'Problems found while probing that leave the engine usable, e.g. a malformed model folder that was skipped',
    }),
  ),
  hosts: Type.Optional(
    Type.Array(Type.String(), {
      description:
        'With the Redis job queue only (docs/scale.md): the worker hosts that serve this for jobs, by name. Absent with the embedded queue, where this machine runs every job',
    }),
  ),
});
export type EngineSummary = Static<typeof EngineSummary>;

export const EngineList = Type.Object({ engines: Type.Array(EngineSummary) });
export type EngineList = Static<typeof EngineList>;

export const EngineDetail = Type.Intersect([EngineSummary, Type.Object({ voices: Type.Array(Voice) })]);
export type EngineDetail = Static<typeof EngineDetail>;

export const EngineParams = Type.Object({ id: Type.String() });

/**
 * Whether a voice of language `tag` speaks `wanted`: BCP 47 prefix matching on whole subtags,
 * ignoring case and reading "_" as "-" ("de" matches de, de-DE, de-AT; "en-gb" en-GB-scotland).
 */
export function speaksLanguage(tag: string, wanted: string): boolean {
  const have = tag.toLowerCase();
  const want = wanted.toLowerCase().replace(/_/g, '-');
  return have === want || have.startsWith(`${want}-`);
}

/** A voice in the flat list of every engine's voices (GET /api/v1/tts/voices). */
export const VoiceListing = Type.Intersect([
  Voice,
  Type.Object({
    engine: Type.String({ description: 'The engine id' }),
    available: Type.Boolean({
      description:
        'This gateway speaks it now (its engine works here). False only for voices that worker hosts alone serve (docs/scale.md): jobs, not inline speech',
    }),
  }),
]);
export type VoiceListing = Static<typeof VoiceListing>;

export const VoiceList = Type.Object({ voices: Type.Array(VoiceListing) });
export type VoiceList = Static<typeof VoiceList>;

export const VoiceListQuery = Type.Object({
  language: Type.Optional(
    Type.String({ minLength: 1, maxLength: 35, description: 'A BCP 47 tag; whole subtags match: "de" gives de, de-DE, de-AT' }),
  ),
  engine: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Only this engine’s voices' })),
  quality: Type.Optional(QualityTier),
  available: Type.Optional(Type.Boolean({ description: 'Only voices this gateway speaks now (true), or only those it does not (false)' })),
});
export type VoiceListQuery = Static<typeof VoiceListQuery>;
