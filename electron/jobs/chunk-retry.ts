import { ApiError } from '../contract';

/**
 * The one chunk-retry policy, used by both queue backends: the in-process queue
 * (`chunk-synthesis.ts`) and BullMQ worker hosts (`redis/names.ts`, `worker-host/host.ts`).
 * A chunk that fails for a reason another try may change (the engine crashed, errored or was too
 * slow, perhaps under load) is tried again after a pause that doubles; a failure no try can change
 * (the voice or engine is gone, the text is refused) fails the job at once.
 */
export const CHUNK_RETRY = {
  /** Tries of one chunk, the first included, before its job fails. */
  attempts: 3,
  /** The pause before the second try; each later pause doubles it. */
  firstDelayMs: 500,
} as const;

/** The codes of failures that another try may not repeat. */
const TRANSIENT = new Set(['engine_error', 'engine_timeout']);

/** Whether a chunk that failed with `error` is worth another try: engine failures, not refusals. */
export function isRetryable(error: unknown): boolean {
  return !(error instanceof ApiError) || TRANSIENT.has(error.code);
}

/** The pause after failed try `attempt` (from 1) before the next. */
export function retryDelayMs(attempt: number): number {
  return CHUNK_RETRY.firstDelayMs * 2 ** (attempt - 1);
}
