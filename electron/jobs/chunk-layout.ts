/** Where a job's chunks lie in its WAV: each chunk's samples, then its pause (assembler.ts joins them so). */
import type { ChunkLayout, JobRow } from './rows';

/** Silence after a chunk, in samples: none after the last. Timings (timings.ts) follow this join. */
export function pauseAfter(pauseMs: number, last: boolean, sampleRate: number): number {
  return last ? 0 : Math.round((pauseMs / 1000) * sampleRate);
}

/** Where each of the given first chunks of a job ends in its WAV's samples, in bytes (with the pause after it). */
export function joinedEnds(chunks: ChunkLayout[], job: Pick<JobRow, 'chunks_total' | 'sample_rate'>): number[] {
  let end = 0;
  return chunks.map(
    (chunk) => (end += 2 * (chunk.samples! + pauseAfter(chunk.pause_ms, chunk.idx === job.chunks_total - 1, job.sample_rate!))),
  );
}
