import type { ModelSpec } from './models';

/** Messages to the model process (host.ts), one at a time. */
export type HostRequest =
  | { id: number; type: 'load'; spec: ModelSpec }
  | { id: number; type: 'synthesize'; spec: ModelSpec; text: string; speaker: number; speed: number };

export type HostReply =
  { id: number; ok: true; sampleRate: number; numSpeakers: number; samples?: Int16Array } | { id: number; ok: false; message: string };

/** The argument that makes the worker bundle (worker.ts) serve models instead. */
export const MODEL_HOST_FLAG = '--orator-model-host';
