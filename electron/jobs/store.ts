import type { JobSort } from '../contract';
import type { Statement } from 'better-sqlite3';
import { statementCache, type Db } from '../storage/database';
import type { SampleRange } from '../audio/pauses';
import type { ChunkLayout, ChunkRow, JobRow, NewChunk, NewJob } from './rows';
import { assertTransition, type JobState } from './state';
import { TimingStore } from './timing-store';

export interface ListOrder {
  by: JobSort;
  descending: boolean;
}

export interface ListQuery {
  limit: number;
  order: ListOrder;
  /** Exclusive: jobs after this one in the order (its sort key and id, as `list` gave them). */
  after?: { key: string | number; id: string };
  states?: JobState[];
  /** Jobs whose title or text holds this (ASCII letters of any case; whitespace as the chunks have it, single spaces). */
  search?: string;
}

/** A listed job with the key it was sorted by, for the next page's cursor. */
export type ListedJob = JobRow & { sort_key: string | number };

/** The SQL a list is sorted by; jobs without audio come last whichever way durations go. */
function sortKey({ by, descending }: ListOrder): string {
  if (by === 'title') return 'COALESCE(custom_title, title) COLLATE NOCASE';
  if (by === 'duration') return `COALESCE(duration_s, ${descending ? -1 : 1e300})`;
  return 'created_at';
}

/** A LIKE pattern matching `text` anywhere, its wildcards taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** All SQL about jobs and their chunks. */
export class JobStore {
  private readonly prepare: (sql: string) => Statement;
  /** Where the chunks' sentences are, in their text and their audio. */
  readonly timings: TimingStore;

  constructor(private readonly db: Db) {
    this.prepare = statementCache(db);
    this.timings = new TimingStore(db, this.prepare);
  }

  insert(job: NewJob, chunks: NewChunk[]): void {
    const insertJob = this.prepare(
      `INSERT INTO jobs (id, title, custom_title, state, engine, voice, local_voice, rate, pitch, volume, characters, chunks_total, created_at,
                         expires_at, format, bitrate_kbps, keep_wav, sample_rate, series, series_idx)
       VALUES (@id, @title, @custom_title, 'queued', @engine, @voice, @local_voice, @rate, @pitch, @volume, @characters, @chunks_total,
               @created_at, @expires_at, @format, @bitrate_kbps, @keep_wav, @sample_rate, @series, @series_idx)`,
    );
    const insertChunk = this.prepare(
      `INSERT INTO chunks (job_id, idx, text, pause_ms, sentences, voice, local_voice, rate, pitch, volume)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.db.transaction(() => {
      insertJob.run({
        expires_at: null,
        custom_title: null,
        sample_rate: null,
        series: null,
        series_idx: null,
        ...job,
        chunks_total: chunks.length,
      });
      chunks.forEach((chunk, idx) => {
        const { voice = null, local_voice = null, rate = null, pitch = null, volume = null } = chunk.own ?? {};
        const sentences = chunk.sentences ? JSON.stringify(chunk.sentences) : null;
        insertChunk.run(job.id, idx, chunk.text, chunk.pauseMs, sentences, voice, local_voice, rate, pitch, volume);
      });
    })();
  }

  get(id: string): JobRow | undefined {
    return this.prepare('SELECT * FROM jobs WHERE id = ?').get(id) as JobRow | undefined;
  }

  list(query: ListQuery): ListedJob[] {
    const key = sortKey(query.order);
    const [direction, beyond] = query.order.descending ? ['DESC', '<'] : ['ASC', '>'];
    const where: string[] = [];
    const params: unknown[] = [];
    if (query.states?.length) {
      where.push(`state IN (${query.states.map(() => '?').join(', ')})`);
      params.push(...query.states);
    }
    if (query.search) {
      where.push(
        `(custom_title LIKE @pattern ESCAPE '\\' OR title LIKE @pattern ESCAPE '\\'
          OR EXISTS (SELECT 1 FROM chunks WHERE chunks.job_id = jobs.id AND chunks.text LIKE @pattern ESCAPE '\\'))`,
      );
    }
    if (query.after) {
      where.push(`(${key} ${beyond} @afterKey OR (${key} = @afterKey AND id ${beyond} @afterId))`);
    }
    const sql = `SELECT *, ${key} AS sort_key FROM jobs ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY ${key} ${direction}, id ${direction} LIMIT @limit`;
    const named = {
      limit: query.limit,
      ...(query.search ? { pattern: containing(query.search) } : {}),
      ...(query.after ? { afterKey: query.after.key, afterId: query.after.id } : {}),
    };
    return this.prepare(sql).all(...params, named) as ListedJob[];
  }

  /** The number of the latest change of any job (a deletion included); 0 before the first. */
  revision(): number {
    return (this.prepare('SELECT value FROM job_revision').get() as { value: number }).value;
  }

  /** Jobs changed after revision `after`, in the order of their last change, at most `limit`. */
  changedSince(after: number, limit: number): JobRow[] {
    return this.prepare('SELECT * FROM jobs WHERE revision > ? ORDER BY revision LIMIT ?').all(after, limit) as JobRow[];
  }

  /** How many jobs are unfinished (waiting, running or paused), and their characters together. */
  unfinishedTotals(): { jobs: number; characters: number } {
    return this.prepare(
      "SELECT COUNT(*) AS jobs, COALESCE(SUM(characters), 0) AS characters FROM jobs WHERE state IN ('queued', 'running', 'paused')",
    ).get() as { jobs: number; characters: number };
  }

  idsInStates(states: JobState[]): string[] {
    const rows = this.prepare(`SELECT id FROM jobs WHERE state IN (${states.map(() => '?').join(', ')}) ORDER BY created_at, id`).all(
      ...states,
    );
    return (rows as { id: string }[]).map((r) => r.id);
  }

  /** The first unfinished chunk at or after `fromIdx`, with its text. */
  nextPendingChunk(jobId: string, fromIdx: number): ChunkRow | undefined {
    return this.prepare('SELECT * FROM chunks WHERE job_id = ? AND done = 0 AND idx >= ? ORDER BY idx LIMIT 1').get(jobId, fromIdx) as
      ChunkRow | undefined;
  }

  chunk(jobId: string, idx: number): ChunkRow | undefined {
    return this.prepare('SELECT * FROM chunks WHERE job_id = ? AND idx = ?').get(jobId, idx) as ChunkRow | undefined;
  }

  /** The job's unfinished chunks, with their text. */
  pendingChunks(jobId: string): ChunkRow[] {
    return this.prepare('SELECT * FROM chunks WHERE job_id = ? AND done = 0 ORDER BY idx').all(jobId) as ChunkRow[];
  }

  chunks(jobId: string): ChunkRow[] {
    return this.prepare('SELECT * FROM chunks WHERE job_id = ? ORDER BY idx').all(jobId) as ChunkRow[];
  }

  /** One chunk of a job, without its text. */
  chunkLayout(jobId: string, idx: number): ChunkLayout | undefined {
    return this.prepare('SELECT idx, pause_ms, samples, done, base_offset FROM chunks WHERE job_id = ? AND idx = ?').get(jobId, idx) as
      ChunkLayout | undefined;
  }

  /** The layout of a job's first `count` chunks. */
  chunkLayouts(jobId: string, count: number): ChunkLayout[] {
    return this.prepare('SELECT idx, pause_ms, samples, done, base_offset FROM chunks WHERE job_id = ? AND idx < ? ORDER BY idx').all(
      jobId,
      count,
    ) as ChunkLayout[];
  }

  /** A WAV job's first `count` chunks are in its partial WAV. */
  joined(jobId: string, count: number): void {
    this.prepare('UPDATE jobs SET joined_chunks = ? WHERE id = ?').run(count, jobId);
  }

  /**
   * Only the first `count` chunks of the job's partial WAV survived (it was cut short: a power
   * loss): the chunks after them that were in it are synthesized again.
   */
  unjoin(jobId: string, count: number): void {
    this.db.transaction(() => {
      const { joined_chunks: joined } = this.get(jobId)!;
      this.prepare('UPDATE chunks SET done = 0, samples = NULL, sentence_samples = NULL WHERE job_id = ? AND idx >= ? AND idx < ?').run(
        jobId,
        count,
        joined,
      );
      this.prepare('UPDATE jobs SET joined_chunks = ?, chunks_done = chunks_done - ? WHERE id = ?').run(count, joined - count, jobId);
    })();
  }

  countAttempt(jobId: string, idx: number): void {
    this.prepare('UPDATE chunks SET attempts = attempts + 1 WHERE job_id = ? AND idx = ?').run(jobId, idx);
  }

  /** Attempts counted elsewhere (BullMQ counts a worker host's starts of a chunk): the count never goes down. */
  recordAttempts(jobId: string, idx: number, attempts: number): void {
    this.prepare('UPDATE chunks SET attempts = MAX(attempts, ?) WHERE job_id = ? AND idx = ?').run(attempts, jobId, idx);
  }

  /**
   * Records a finished chunk (its audio is in place: in its chunk file, or `joined` into the job's
   * WAV, the chunks before it too) with where its sentences are in its audio, and returns the job's
   * new count.
   */
  chunkDone(
    jobId: string,
    idx: number,
    audio: { samples: number; sampleRate: number; sentences: SampleRange[] | null },
    joined = false,
  ): number {
    const { samples, sampleRate, sentences } = audio;
    return this.db.transaction(() => {
      const changed = this.prepare(
        'UPDATE chunks SET done = 1, samples = ?, sentence_samples = ? WHERE job_id = ? AND idx = ? AND done = 0',
      ).run(samples, sentences ? JSON.stringify(sentences) : null, jobId, idx);
      if (changed.changes) {
        this.prepare('UPDATE jobs SET chunks_done = chunks_done + 1, sample_rate = COALESCE(sample_rate, ?) WHERE id = ?').run(
          sampleRate,
          jobId,
        );
      }
      if (joined) this.joined(jobId, idx + 1);
      return (this.prepare('SELECT chunks_done FROM jobs WHERE id = ?').get(jobId) as { chunks_done: number }).chunks_done;
    })();
  }

  /** The job's sample rate: the one it has, else `sampleRate` becomes it (the first chunk to arrive sets it, in one statement). */
  claimSampleRate(jobId: string, sampleRate: number): number {
    const row = this.prepare('UPDATE jobs SET sample_rate = COALESCE(sample_rate, ?) WHERE id = ? RETURNING sample_rate').get(
      sampleRate,
      jobId,
    ) as { sample_rate: number } | undefined;
    return row?.sample_rate ?? sampleRate;
  }

  transition(
    id: string,
    to: JobState,
    fields: Partial<Pick<JobRow, 'finished_at' | 'error_code' | 'error_message' | 'audio_bytes' | 'duration_s'>> = {},
  ): void {
    this.db.transaction(() => {
      const row = this.get(id);
      if (!row) throw new Error(`No job ${id}`);
      assertTransition(row.state, to);
      const sets = ['state = @state', ...Object.keys(fields).map((k) => `${k} = @${k}`)];
      this.prepare(`UPDATE jobs SET ${sets.join(', ')} WHERE id = @id`).run({ ...fields, state: to, id });
    })();
  }

  /** Finished jobs whose audio outlived its expiry and is still on disk. */
  expiredWithAudio(now: string): string[] {
    const rows = this.prepare("SELECT id FROM jobs WHERE state = 'done' AND expires_at <= ? AND audio_bytes IS NOT NULL").all(now);
    return (rows as { id: string }[]).map((r) => r.id);
  }

  markAudioRemoved(id: string): void {
    this.prepare('UPDATE jobs SET audio_bytes = NULL WHERE id = ?').run(id);
  }

  /** A done job's WAV was removed outside Orator: it keeps its row, says why it has no audio. */
  markAudioMissing(id: string, message: string): void {
    this.prepare("UPDATE jobs SET audio_bytes = NULL, error_code = 'audio_missing', error_message = ? WHERE id = ? AND state = 'done'").run(
      message,
      id,
    );
  }

  /** Gives a job the user's title. */
  rename(id: string, title: string): void {
    this.prepare('UPDATE jobs SET custom_title = ? WHERE id = ?').run(title, id);
  }

  /** Deletes a job; returns its row as it was, with the revision of its deletion, or nothing when there was no such job. */
  delete(id: string): JobRow | undefined {
    return this.db.transaction(() => {
      const row = this.prepare('DELETE FROM jobs WHERE id = ? RETURNING *').get(id) as JobRow | undefined;
      return row && { ...row, revision: this.revision() };
    })();
  }
}
