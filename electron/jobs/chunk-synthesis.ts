import { ApiError } from '../contract';
import type { Pcm } from '../audio/pcm';
import type { EngineAdapter } from '../engines/engine';
import { synthesizeWithPolicy } from '../engines/output-policy';
import type { EngineRegistry } from '../engines/registry';
import type { ChunkRow, JobRow, JobStore } from './store';

/** A failing chunk is tried once more before its job fails. */
const MAX_ATTEMPTS = 2;

/**
 * Synthesizes one chunk of a job, as the job was recorded (its engine, local voice and prosody),
 * in the batch lane, with one retry.
 */
export async function synthesizeChunk(
  deps: { registry: EngineRegistry; store: JobStore },
  jobId: string,
  chunk: ChunkRow,
  signal: AbortSignal,
): Promise<Pcm> {
  const job = deps.store.get(jobId)!;
  const adapter = adapterOf(deps.registry, job);
  const { local_voice: voice, rate, pitch, volume } = job;
  for (let attempt = 1; ; attempt++) {
    deps.store.countAttempt(job.id, chunk.idx);
    try {
      return await synthesizeWithPolicy(adapter, { text: chunk.text, voice, rate, pitch, volume }, { lane: 'batch', signal });
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS || signal.aborted) throw error;
    }
  }
}

/** The job's engine, or a clear failure when it is gone (uninstalled since the job was queued). */
function adapterOf(registry: EngineRegistry, job: JobRow): EngineAdapter {
  try {
    return registry.resolve({ voice: job.voice }).adapter;
  } catch (error) {
    throw new ApiError(
      'engine_unavailable',
      `The engine of this job (${job.engine}) is not available any more: ${(error as Error).message}`,
    );
  }
}
