import { setTimeout as pause } from 'node:timers/promises';
import { ApiError } from '../contract';
import type { Pcm } from '../audio/pcm';
import type { EngineAdapter } from '../engines/engine';
import { synthesizeBatchWithPolicy, synthesizeWithPolicy } from '../engines/output-policy';
import type { EngineRegistry } from '../engines/registry';
import { CHUNK_RETRY, isRetryable, retryDelayMs } from './chunk-retry';
import type { ChunkRow, JobRow } from './rows';
import type { JobStore } from './store';

/**
 * Synthesizes one chunk of a job, as the job was recorded (its engine, local voice and prosody, or
 * the chunk's own where SSML gave it one), in the batch lane, retried as chunk-retry.ts says.
 */
export async function synthesizeChunk(
  deps: { registry: EngineRegistry; store: JobStore },
  jobId: string,
  chunk: ChunkRow,
  signal: AbortSignal,
): Promise<Pcm> {
  const job = deps.store.get(jobId)!;
  const { adapter, request } = chunkRequest(deps.registry, job, chunk);
  for (let attempt = 1; ; attempt++) {
    deps.store.countAttempt(job.id, chunk.idx);
    try {
      return await synthesizeWithPolicy(adapter, request, { lane: 'batch', signal });
    } catch (error) {
      if (attempt >= CHUNK_RETRY.attempts || signal.aborted || !isRetryable(error)) throw error;
      // an abort during the pause ends the job with the engine's failure, not the abort's
      await pause(retryDelayMs(attempt), undefined, { signal }).catch(() => {
        throw error;
      });
    }
  }
}

/**
 * Synthesizes consecutive chunks of a job: in one call where the engine takes batches and they
 * share voice and prosody, else (or when that call fails) one by one with synthesizeChunk.
 */
export async function synthesizeChunks(
  deps: { registry: EngineRegistry; store: JobStore },
  jobId: string,
  chunks: ChunkRow[],
  signal: AbortSignal,
): Promise<Pcm[]> {
  const batched = chunks.length > 1 ? await synthesizeBatch(deps, jobId, chunks, signal) : null;
  if (batched) return batched;
  const pcms: Pcm[] = [];
  for (const chunk of chunks) pcms.push(await synthesizeChunk(deps, jobId, chunk, signal));
  return pcms;
}

async function synthesizeBatch(
  deps: { registry: EngineRegistry; store: JobStore },
  jobId: string,
  chunks: ChunkRow[],
  signal: AbortSignal,
) {
  const job = deps.store.get(jobId)!;
  const requests = chunks.map((chunk) => chunkRequest(deps.registry, job, chunk));
  const { adapter, request: first } = requests[0]!;
  const alike = requests.every(
    ({ adapter: a, request: r }) =>
      a === adapter && r.voice === first.voice && r.rate === first.rate && r.pitch === first.pitch && r.volume === first.volume,
  );
  if (!alike || !adapter.synthesizeBatch) return null;
  for (const chunk of chunks) deps.store.countAttempt(job.id, chunk.idx);
  try {
    return await synthesizeBatchWithPolicy(
      adapter,
      requests.map((r) => r.request),
      { lane: 'batch', signal },
    );
  } catch (error) {
    if (signal.aborted) throw error;
    return null;
  }
}

/**
 * Characters of consecutive chunks of the job to synthesize at once: its engine's batch size, or
 * 0 (one chunk at a time) for engines without batches and for jobs whose engine is gone.
 */
export function batchChars(registry: EngineRegistry, job: JobRow): number {
  try {
    return registry.resolve({ voice: job.voice }).adapter.batchChars ?? 0;
  } catch {
    return 0;
  }
}

/** The engine and request of a chunk, as the job was recorded (or as SSML gave the chunk its own). */
export function chunkRequest(registry: EngineRegistry, job: JobRow, chunk: ChunkRow) {
  const adapter = adapterOf(registry, job, chunk.voice ?? job.voice);
  const voice = chunk.local_voice ?? job.local_voice;
  const { rate = job.rate, pitch = job.pitch, volume = job.volume } = ownProsody(chunk);
  return { adapter, request: { text: chunk.text, voice, rate, pitch, volume } };
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
