import { createHash } from 'node:crypto';
import { ApiError } from '../contract';

/** How many of one kind of held resource one API key may hold at once, and all keys together. */
export interface SlotLimits {
  perKey: number;
  total: number;
}

/**
 * Every resource a request can hold for as long as its client likes (a socket, a timer, an
 * encoder thread, a queued export, a WAV being rewritten), bounded per key and in total. One
 * place for every such limit: docs/api.md#limits lists them from here.
 */
export const SLOT_LIMITS = {
  /** Event streams (`/events`, `/jobs/{id}/events`): a studio window holds one or two. */
  eventStreams: { perKey: 16, total: 64 },
  /**
   * Encoders: streamed speech answers (both dialects), job audio sent in another format than its
   * stored one, and the export being made. Each holds an encoder, AAC and FLAC a thread of their
   * own (60 downloads that were never read took 47 threads and 600 MB before this limit).
   */
  encoders: { perKey: 8, total: 16 },
  /** Exports accepted and not yet ended (made one at a time): each holds its disk space until then. */
  exports: { perKey: 4, total: 8 },
  /** Sentence edits in flight: each synthesizes a chunk and rewrites its job's whole WAV. */
  sentenceEdits: { perKey: 2, total: 4 },
} as const satisfies Record<string, SlotLimits>;

/** Gives a slot back; safe to call twice. */
export type Release = () => void;

/** The refusal when `key` holds all its slots (`whose: 'key'`) or the gateway all of them (`'all'`). */
type Refusal = (limits: SlotLimits, whose: 'key' | 'all') => ApiError;

/**
 * Counts the slots each key holds, so that a key holder cannot pile up what each request holds
 * until the gateway runs out of it. Keys are counted by their hash: the table holds no secret. A
 * request takes a slot or is refused (429 with Retry-After); background work (the export being
 * made) waits for one, and while it waits its key's requests do not pass it.
 */
export class SlotPool {
  private readonly held = new Map<string, number>();
  private inUse = 0;
  private readonly waiting: { id: string; grant: (release: Release) => void }[] = [];

  constructor(
    readonly limits: SlotLimits,
    private readonly refusal: Refusal,
  ) {}

  /** Takes a slot for `key`, or throws the refusal (429); returns the slot's release. */
  take(key: string): Release {
    const id = hashOf(key);
    const whose = this.fullFor(id);
    if (whose) throw this.refusal(this.limits, whose);
    if (this.waiting.some((w) => w.id === id)) throw this.refusal(this.limits, 'key');
    return this.grant(id);
  }

  /** A slot for `key` once one is free (in turn with others waiting); rejects if `signal` aborts first. */
  wait(key: string, signal: AbortSignal): Promise<Release> {
    const id = hashOf(key);
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    if (!this.fullFor(id) && !this.waiting.some((w) => w.id === id)) return Promise.resolve(this.grant(id));
    return new Promise((resolve, reject) => {
      const waiter = {
        id,
        grant: (release: Release) => {
          signal.removeEventListener('abort', abandon);
          resolve(release);
        },
      };
      const abandon = () => {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        reject(signal.reason as Error);
      };
      signal.addEventListener('abort', abandon, { once: true });
      this.waiting.push(waiter);
    });
  }

  private fullFor(id: string): 'key' | 'all' | null {
    if ((this.held.get(id) ?? 0) >= this.limits.perKey) return 'key';
    return this.inUse >= this.limits.total ? 'all' : null;
  }

  private grant(id: string): Release {
    this.held.set(id, (this.held.get(id) ?? 0) + 1);
    this.inUse++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inUse--;
      const left = this.held.get(id)! - 1;
      if (left > 0) this.held.set(id, left);
      else this.held.delete(id);
      this.serveWaiting();
    };
  }

  /** The first waiter whose key has room now gets the slot just freed. */
  private serveWaiting(): void {
    const next = this.waiting.findIndex((w) => !this.fullFor(w.id));
    if (next < 0) return;
    const [waiter] = this.waiting.splice(next, 1);
    waiter!.grant(this.grant(waiter!.id));
  }
}

function hashOf(key: string): string {
  return createHash('sha256').update(key).digest('base64url');
}

/** The gateway's pools, one of each kind, shared by every route that holds that kind. */
export interface GatewaySlots {
  eventStreams: SlotPool;
  encoders: SlotPool;
  exports: SlotPool;
  sentenceEdits: SlotPool;
}

export function gatewaySlots(): GatewaySlots {
  const refusal =
    (code: 'too_many_streams' | 'too_many_exports' | 'too_many_edits', what: string, advice: string, retryAfterS: number): Refusal =>
    (limits, whose) =>
      new ApiError(
        code,
        whose === 'key'
          ? `This API key has ${limits.perKey} ${what}, the most it may; ${advice}`
          : `The gateway has ${limits.total} ${what}, the most it takes at once; ${advice}`,
        { retryAfterS },
      );
  return {
    eventStreams: new SlotPool(
      SLOT_LIMITS.eventStreams,
      refusal(
        'too_many_streams',
        'event streams open',
        "close one (or read GET /api/v1/tts/events, which carries every job's events).",
        10,
      ),
    ),
    encoders: new SlotPool(
      SLOT_LIMITS.encoders,
      refusal(
        'too_many_streams',
        'encoders in use (speech answers in flight, audio sent in another format, the export being made)',
        'retry when one ends.',
        1,
      ),
    ),
    exports: new SlotPool(
      SLOT_LIMITS.exports,
      refusal('too_many_exports', 'exports waiting or being made', 'retry when one is done, or delete one.', 30),
    ),
    sentenceEdits: new SlotPool(
      SLOT_LIMITS.sentenceEdits,
      refusal('too_many_edits', 'sentence edits in flight', 'retry when one is done.', 1),
    ),
  };
}
