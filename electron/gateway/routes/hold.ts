import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ExportHold } from '../../services/exports';
import { presentedKey } from '../plugins/auth';
import type { GatewaySlots, SlotPool } from '../slots';

/** The pools are counted by the key a request presents (the auth hook has checked it). */
const keyOf = (request: FastifyRequest) => presentedKey(request) ?? '';

/**
 * Takes one of the key's slots of `pool` for this answer (or throws 429) and returns the signal of
 * the client leaving before the answer's end, which stops the synthesis or encoding; the slot is
 * freed when the connection closes, however the answer ended.
 */
export function holdForAnswer(pool: SlotPool, request: FastifyRequest, reply: FastifyReply): AbortSignal {
  const release = pool.take(keyOf(request));
  const gone = new AbortController();
  reply.raw.once('close', () => {
    release();
    if (!reply.raw.writableFinished) gone.abort(new Error('The client closed the connection'));
  });
  return gone.signal;
}

/** Runs `work` holding one of the key's slots of `pool` (or throws 429 first). */
export async function holding<T>(pool: SlotPool, request: FastifyRequest, work: () => Promise<T>): Promise<T> {
  const release = pool.take(keyOf(request));
  try {
    return await work();
  } finally {
    release();
  }
}

/**
 * An export's place among the key's exports (or 429 now), held until the export ends, and its
 * key's encoder once its turn to be made comes.
 */
export function holdExport(slots: GatewaySlots, request: FastifyRequest): ExportHold {
  const key = keyOf(request);
  return { release: slots.exports.take(key), encoder: (signal) => slots.encoders.wait(key, signal) };
}
