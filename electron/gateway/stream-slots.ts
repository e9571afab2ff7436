import { createHash } from 'node:crypto';
import { ApiError } from '../contract';

/** Event streams one API key may hold open at once: a studio window holds one or two. */
export const MAX_STREAMS_PER_KEY = 16;

/**
 * Counts the open event streams of each key, so that a key holder cannot pile up connections
 * (each holds a socket, a timer and a listener) until the gateway runs out of them. Keys are
 * counted by their hash: the table holds no secret.
 */
export class StreamSlots {
  private readonly open = new Map<string, number>();

  constructor(
    private readonly perKey = MAX_STREAMS_PER_KEY,
    /** The refusal when a key has all its slots; the event streams' by default. */
    private readonly refusal: (perKey: number) => ApiError = eventStreamsRefusal,
  ) {}

  /** Takes a slot for `key`, or throws the refusal (429); returns the slot's release (safe to call twice). */
  take(key: string): () => void {
    const id = createHash('sha256').update(key).digest('base64url');
    const count = this.open.get(id) ?? 0;
    if (count >= this.perKey) throw this.refusal(this.perKey);
    this.open.set(id, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(id) ?? 1) - 1;
      if (left > 0) this.open.set(id, left);
      else this.open.delete(id);
    };
  }
}

/** Speech answers one key may have in flight, on both dialects: each holds an encoder (AAC and FLAC a thread). */
export const MAX_SPEECH_STREAMS = 8;

/** The slots of streamed speech answers, shared by Orator's and the OpenAI-compatible routes. */
export function speechStreamSlots(): StreamSlots {
  return new StreamSlots(
    MAX_SPEECH_STREAMS,
    (perKey) =>
      new ApiError('too_many_streams', `This API key has ${perKey} speech requests in flight, the most it may; retry when one ends.`, {
        retryAfterS: 1,
      }),
  );
}

function eventStreamsRefusal(perKey: number): ApiError {
  return new ApiError(
    'too_many_streams',
    `This API key has ${perKey} event streams open, the most it may; close one (or read GET /api/v1/tts/events, which carries every job's events).`,
    { retryAfterS: 10 },
  );
}
