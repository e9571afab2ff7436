import { link, mkdir, rm } from 'node:fs/promises';
import type { SampleRange } from '../../audio/pauses';
import type { Statement } from 'better-sqlite3';
import { statementCache, type Db } from '../../storage/database';
import { PRIVATE_DIR_MODE } from '../../storage/private-files';
import { pauseAfter } from '../chunk-layout';
import type { JobFiles } from '../files';
import type { ChunkTimingLayout, JobRow } from '../rows';
import type { JobStore } from '../store';
import { alignChunks } from './align';

/** What a chunk is said as: its text, and its own voice and prosody where SSML gave it one. */
export const chunkKey = (chunk: Pick<ChunkTimingLayout, 'text' | 'own'>) =>
  chunk.own ? `${chunk.text}\u0000${JSON.stringify(chunk.own)}` : chunk.text;

/**
 * Whether a job's audio can stand for that of a job said with `voice`: done, its audio still there,
 * and the same voice and prosody.
 */
export function reusable(
  base: JobRow | undefined,
  voice: Pick<JobRow, 'voice' | 'local_voice' | 'rate' | 'pitch' | 'volume'>,
): base is JobRow & { sample_rate: number } {
  if (!base || base.state !== 'done' || base.audio_bytes === null || base.sample_rate === null) return false;
  const { voice: id, local_voice, rate, pitch, volume } = voice;
  return base.voice === id && base.local_voice === local_voice && base.rate === rate && base.pitch === pitch && base.volume === volume;
}

/** Samples of a done job's WAV that a chunk of a new job takes as its audio. */
export interface BaseSlice {
  /** Where they start in the base's samples. */
  offset: number;
  samples: number;
  /** Each sentence of the chunk in them, from their start; null: not known. */
  sentenceSamples: SampleRange[] | null;
}

/** A done job, and for each chunk of a new job the slice of its audio the chunk takes, or null. */
export interface BaseSlices {
  jobId: string;
  slices: readonly (BaseSlice | null)[];
}

/** Where each chunk of a done job starts in its audio: the chunks before it and the pauses after them. */
export function chunkOffsets(layout: readonly Pick<ChunkTimingLayout, 'samples' | 'pause_ms'>[], sampleRate: number): number[] {
  const offsets: number[] = [];
  let at = 0;
  for (const [i, chunk] of layout.entries()) {
    offsets.push(at);
    at += (chunk.samples ?? 0) + pauseAfter(chunk.pause_ms, i === layout.length - 1, sampleRate);
  }
  return offsets;
}

/**
 * A chapter rendered again takes what did not change from its earlier render (its base): each of
 * the new job's chunks said exactly as a chunk of the base is recorded done at once, its audio to
 * be read from the base's WAV when its turn comes (jobs/assembler.ts); only the others are
 * synthesized. The base's WAV is linked into the new job's work folder, so that the base job can
 * be deleted at once (a render replaces it) and the new job still reads it, after a restart too.
 */
export class BaseAudio {
  private readonly prepare: (sql: string) => Statement;

  constructor(
    private readonly db: Db,
    private readonly store: JobStore,
    private readonly files: JobFiles,
  ) {
    this.prepare = statementCache(db);
  }

  /**
   * Marks the chunks of the newly admitted job `jobId` that the done job `baseId` holds, in one
   * transaction; returns how many. None when the base has no usable WAV, or another voice or
   * prosody.
   */
  async reuse(jobId: string, baseId: string): Promise<number> {
    const base = this.store.get(baseId);
    if (!reusable(base, this.store.get(jobId)!)) return 0;
    const old = this.store.timings.layout(base.id);
    if (old.some((chunk) => chunk.samples === null)) return 0;
    const next = this.store.timings.layout(jobId);
    const matched = alignChunks(old.map(chunkKey), next.map(chunkKey));
    const offsets = chunkOffsets(old, base.sample_rate);
    return this.take(
      jobId,
      baseId,
      matched.map((i) => {
        if (i === null) return null;
        const chunk = old[i]!;
        return { offset: offsets[i]!, samples: chunk.samples!, sentenceSamples: chunk.sentence_samples };
      }),
    );
  }

  /**
   * Marks each chunk of the newly admitted job `jobId` given a slice of the done job `baseId`'s
   * audio as done, its audio that slice, in one transaction; returns how many. None when the base
   * has no usable WAV, or another voice or prosody.
   */
  async take(jobId: string, baseId: string, slices: readonly (BaseSlice | null)[]): Promise<number> {
    const base = this.store.get(baseId);
    if (!reusable(base, this.store.get(jobId)!) || slices.every((s) => s === null)) return 0;
    if (!(await this.linkBase(baseId, jobId))) return 0;
    const mark = this.prepare(
      'UPDATE chunks SET done = 1, samples = ?, sentence_samples = ?, base_offset = ? WHERE job_id = ? AND idx = ? AND done = 0',
    );
    let reused = 0;
    this.db.transaction(() => {
      slices.forEach((slice, idx) => {
        if (slice === null) return;
        const sentences = slice.sentenceSamples && JSON.stringify(slice.sentenceSamples);
        reused += mark.run(slice.samples, sentences, slice.offset, jobId, idx).changes;
      });
      this.prepare('UPDATE jobs SET chunks_done = chunks_done + ?, sample_rate = ? WHERE id = ?').run(reused, base.sample_rate, jobId);
    })();
    return reused;
  }

  /**
   * The base's WAV as a file of the job's own: a link, which takes no room; false when it is gone
   * or the disk has no links (the chapter is then synthesized, from the render cache as it can).
   */
  private async linkBase(baseId: string, jobId: string): Promise<boolean> {
    const target = this.files.baseFile(jobId);
    await mkdir(this.files.chunkDir(jobId), { recursive: true, mode: PRIVATE_DIR_MODE });
    await rm(target, { force: true });
    return link(this.files.audioFile(baseId, 'wav'), target).then(
      () => true,
      () => false,
    );
  }
}
