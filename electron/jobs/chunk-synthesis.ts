import { ApiError } from '../contract';
import type { Pcm } from '../audio/pcm';
import type { EngineAdapter } from '../engines/engine';
import { synthesizeWithPolicy } from '../engines/output-policy';
import type { EngineRegistry } from '../engines/registry';
import type { ChunkRow, JobRow, JobStore } from './store';

/** A failing chunk is tried once more before its job fails. */
const MAX_ATTEMPTS = 2;

/**
 * Synthesizes one chunk of a job, as the job was recorded (its engine, local voice and prosody, or
 * the chunk's own where SSML gave it one), in the batch lane, with one retry.
 */
export async function synthesizeChunk(
  deps: { registry: EngineRegistry; store: JobStore },
  jobId: string,
  chunk: ChunkRow,
  signal: AbortSignal,
): Promise<Pcm> {
  const job = deps.store.get(jobId)!;
  const adapter = adapterOf(deps.registry, job, chunk.voice ?? job.voice);
  const voice = chunk.local_voice ?? job.local_voice;
  const { rate = job.rate, pitch = job.pitch, volume = job.volume } = ownProsody(chunk);
  for (let attempt = 1; ; attempt++) {
    deps.store.countAttempt(job.id, chunk.idx);
    try {
      return await synthesizeWithPolicy(adapter, { text: chunk.text, voice, rate, pitch, volume }, { lane: 'batch', signal });
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS || signal.aborted) throw error;
    }
  }
}

/** The chunk's prosody where it has its own. */
const ownProsody = (chunk: ChunkRow) => (chunk.rate === null ? {} : { rate: chunk.rate, pitch: chunk.pitch!, volume: chunk.volume! });

/** The engine of the chunk's voice, or a clear failure when it is gone (uninstalled since the job was queued). */
function adapterOf(registry: EngineRegistry, job: JobRow, voice: string): EngineAdapter {
  try {
    return registry.resolve({ voice }).adapter;
  } catch (error) {
    const engine = voice === job.voice ? job.engine : voice;
    throw new ApiError('engine_unavailable', `The engine of this job (${engine}) is not available any more: ${(error as Error).message}`);
  }
}
