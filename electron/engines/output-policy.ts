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
  let pcm: Pcm;
  try {
    pcm = await adapter.synthesize(request, context);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError('engine_error', `The engine failed: ${(error as Error).message ?? String(error)}`, { cause: error });
  }
  if (!adapter.capabilities.volume) applyGain(pcm.samples, request.volume);
  return pcm;
}
