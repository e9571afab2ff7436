import type { Statement } from 'better-sqlite3';
import type { SampleRange } from '../audio/pauses';
import type { Db } from '../storage/database';
import { parseSpans, type ChunkLayout, type ChunkRow, type ChunkTimingLayout } from './rows';
import type { SentenceSpan } from './sentence-spans';

/**
 * The SQL about where a job's sentences are, in its chunks' text and audio: what its timings are
 * computed from (timings.ts), and what a sentence edit rewrites.
 */
export class TimingStore {
  constructor(
    private readonly db: Db,
    /** The job store's statements, compiled once. */
    private readonly prepare: (sql: string) => Statement,
  ) {}

  /** What the sentence timings of a job are computed from, chunk by chunk. */
  layout(jobId: string): ChunkTimingLayout[] {
    const rows = this.prepare(
      `SELECT idx, text, pause_ms, samples, done, base_offset, sentences, sentence_samples, voice, local_voice, rate, pitch, volume
         FROM chunks WHERE job_id = ? ORDER BY idx`,
    ).all(jobId) as (ChunkLayout &
      Pick<ChunkRow, 'text' | 'sentences' | 'sentence_samples' | 'voice' | 'local_voice' | 'rate' | 'pitch' | 'volume'>)[];
    return rows.map(({ voice, local_voice, rate, pitch, volume, ...row }) => ({
      ...row,
      own: voice === null || local_voice === null ? null : { voice, local_voice, rate: rate!, pitch: pitch!, volume: volume! },
      sentences: parseSpans(row.sentences),
      sentence_samples: row.sentence_samples === null ? null : (JSON.parse(row.sentence_samples) as SampleRange[]),
    }));
  }

  /**
   * A finished chunk synthesized again with new text (jobs/sentence-edit.ts): its record, the
   * later chunks' sentences moved by `textShift` code points in the text, and the job's audio size.
   */
  replaceChunk(
    jobId: string,
    idx: number,
    chunk: {
      text: string;
      samples: number;
      sentences: SentenceSpan[];
      sentenceSamples: SampleRange[] | null;
      textShift: number;
      audioBytes: number;
      durationS: number;
    },
  ): void {
    this.db.transaction(() => {
      this.prepare('UPDATE chunks SET text = ?, samples = ?, sentences = ?, sentence_samples = ? WHERE job_id = ? AND idx = ?').run(
        chunk.text,
        chunk.samples,
        JSON.stringify(chunk.sentences),
        chunk.sentenceSamples && JSON.stringify(chunk.sentenceSamples),
        jobId,
        idx,
      );
      if (chunk.textShift !== 0) {
        const later = this.prepare('SELECT idx, sentences FROM chunks WHERE job_id = ? AND idx > ?').all(jobId, idx) as Pick<
          ChunkRow,
          'idx' | 'sentences'
        >[];
        const update = this.prepare('UPDATE chunks SET sentences = ? WHERE job_id = ? AND idx = ?');
        for (const row of later) {
          const moved = parseSpans(row.sentences)?.map(([a, b, ...rest]): SentenceSpan => [
            a + chunk.textShift,
            b + chunk.textShift,
            ...rest,
          ]);
          update.run(moved ? JSON.stringify(moved) : null, jobId, row.idx);
        }
      }
      this.prepare('UPDATE jobs SET audio_bytes = ?, duration_s = ?, characters = characters + ? WHERE id = ?').run(
        chunk.audioBytes,
        chunk.durationS,
        chunk.textShift,
        jobId,
      );
    })();
  }
}
