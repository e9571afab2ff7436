import { Type, type Static } from 'typebox';

export const Voice = Type.Object({
  id: Type.String({ description: 'Globally unique: "<engine id>:<voice>"', examples: ['espeak-ng:en-us'] }),
  name: Type.String(),
  language: Type.String({ description: 'BCP 47 tag' }),
  gender: Type.Optional(Type.Union([Type.Literal('male'), Type.Literal('female')])),
  sampleRate: Type.Integer(),
});
export type Voice = Static<typeof Voice>;

export const Capabilities = Type.Object({
  rate: Type.Boolean(),
  pitch: Type.Boolean(),
  volume: Type.Boolean(),
});
export type Capabilities = Static<typeof Capabilities>;

export const EngineSummary = Type.Object({
  id: Type.String(),
  name: Type.String(),
  available: Type.Boolean(),
  reason: Type.Optional(Type.String({ description: 'Why the engine is unavailable and how to fix it' })),
  voiceCount: Type.Integer(),
  languages: Type.Array(Type.String()),
  defaultVoice: Type.Union([Type.String(), Type.Null()]),
  capabilities: Capabilities,
});
export type EngineSummary = Static<typeof EngineSummary>;

export const EngineList = Type.Object({ engines: Type.Array(EngineSummary) });
export type EngineList = Static<typeof EngineList>;

export const EngineDetail = Type.Intersect([EngineSummary, Type.Object({ voices: Type.Array(Voice) })]);
export type EngineDetail = Static<typeof EngineDetail>;

export const EngineParams = Type.Object({ id: Type.String() });
