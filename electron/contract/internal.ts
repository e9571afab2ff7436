import { Type, type Static } from 'typebox';

/**
 * The gateway's internal routes, for its worker hosts only (docs/scale.md): not under the TTS API,
 * opened by the worker token (<data-dir>/worker-token), never by the TTS key or the admin token.
 */
export const INTERNAL_ROOT = '/internal/v1';

/** How many times worker hosts started this chunk (BullMQ's count), recorded as the chunk's attempts. */
export const ATTEMPT_HEADER = 'x-orator-attempt';

/**
 * The largest chunk audio taken: a chunk of 500 digits (read at up to 0.57 s each) at half speed
 * and 48 kHz is about 55 MB.
 */
export const MAX_CHUNK_AUDIO_BYTES = 64 * 1024 * 1024;

export const ChunkParams = Type.Object({
  job: Type.String({ maxLength: 64 }),
  index: Type.String({ pattern: '^[0-9]{1,9}$' }),
});

export const ChunkReceipt = Type.Object({
  status: Type.Union([Type.Literal('saved'), Type.Literal('duplicate')], {
    description: 'saved = recorded now; duplicate = the chunk was already saved, this copy is dropped',
  }),
});
export type ChunkReceipt = Static<typeof ChunkReceipt>;

export const WorkerCheck = Type.Object({ instance: Type.String({ description: "The gateway's data folder id (whoami)" }) });
export type WorkerCheck = Static<typeof WorkerCheck>;
