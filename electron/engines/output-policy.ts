import { ApiError } from '../contract';
import { applyGain } from '../audio/gain';
import type { Pcm } from '../audio/pcm';
import type { EngineAdapter, SynthesisContext, SynthesisRequest } from './engine';

/**
 * What every engine's audio goes through, for inline requests and job chunks alike: the volume
 * as gain where the engine cannot set it itself, and any failure as an API error (a timeout or
 * an engine error the adapter named stays as it is).
 */
export async function synthesizeWithPolicy(adapter: EngineAdapter, request: SynthesisRequest, context: SynthesisContext): Promise<Pcm> {
  const pcm = await asApiError(adapter.synthesize(request, context));
  if (!adapter.capabilities.volume) applyGain(pcm.samples, request.volume);
  return pcm;
}

/** Several requests of one voice and prosody in one call (EngineAdapter.synthesizeBatch), with the same policy; null when the engine takes no batches. */
export async function synthesizeBatchWithPolicy(
  adapter: EngineAdapter,
  requests: SynthesisRequest[],
  context: SynthesisContext,
): Promise<Pcm[] | null> {
  if (!adapter.synthesizeBatch) return null;
  const pcms = await asApiError(adapter.synthesizeBatch(requests, context));
  if (!adapter.capabilities.volume) for (const pcm of pcms) applyGain(pcm.samples, requests[0]!.volume);
  return pcms;
}

async function asApiError<T>(synthesis: Promise<T>): Promise<T> {
  try {
    return await synthesis;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError('engine_error', `The engine failed: ${(error as Error).message ?? String(error)}`, { cause: error });
  }
}
