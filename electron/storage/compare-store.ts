import type { JobTimings, PairChoice } from '../contract';
import { statementCache, type Db } from './database';

/** What a session is spoken with: a change of these may replace takes. */
export interface SessionSource {
  texts: string[];
  voices: string[];
  rate: number;
  pitch: number;
  volume: number;
}

export interface SessionRow extends SessionSource {
  id: string;
  name: string;
  blind: boolean;
  revealed: boolean;
  loudness_match: boolean;
  /** Take ids in listening order. */
  take_order: string[];
  pairs: PairChoice[];
  created_at: string;
  updated_at: string;
}

/** A take's audio, once copied into the session (`audio`). */
export interface TakeAudio {
  engine: string;
  duration_s: number;
  loudness_lufs: number | null;
  timings: JobTimings | null;
}

export interface TakeRow {
  id: string;
  text_index: number;
  voice: string;
  job_id: string | null;
  audio: TakeAudio | null;
  error: { code: string; message: string } | null;
  rating: number | null;
  note: string;
  sentence_ratings: (number | null)[];
}

export interface SessionSummaryRow {
  id: string;
  name: string;
  blind: boolean;
  revealed: boolean;
  created_at: string;
  updated_at: string;
  voice_count: number;
  text_count: number;
  take_count: number;
  ready_count: number;
}

type Raw = Record<string, unknown>;

/** Compare sessions and their takes in SQLite; JSON columns hold the lists, read and written whole. */
export class CompareStore {
  private readonly sql: ReturnType<typeof statementCache>;

  constructor(private readonly db: Db) {
    this.sql = statementCache(db);
  }

  count(): number {
    return (this.sql('SELECT count(*) AS n FROM compare_sessions').get() as { n: number }).n;
  }

  /** The last changed first. */
  list(): SessionSummaryRow[] {
    const rows = this.sql(
      `SELECT s.id, s.name, s.blind, s.revealed, s.created_at, s.updated_at, json_array_length(s.voices) AS voice_count,
       json_array_length(s.texts) AS text_count,
       (SELECT count(*) FROM compare_takes t WHERE t.session_id = s.id) AS take_count,
       (SELECT count(*) FROM compare_takes t WHERE t.session_id = s.id AND t.audio = 1) AS ready_count
       FROM compare_sessions s ORDER BY s.updated_at DESC, s.id`,
    ).all() as Raw[];
    return rows.map((row) => ({ ...(row as unknown as SessionSummaryRow), blind: row.blind === 1, revealed: row.revealed === 1 }));
  }

  get(id: string): SessionRow | undefined {
    const row = this.sql('SELECT * FROM compare_sessions WHERE id = ?').get(id) as Raw | undefined;
    if (!row) return undefined;
    return {
      ...(row as unknown as SessionRow),
      texts: JSON.parse(row.texts as string) as string[],
      voices: JSON.parse(row.voices as string) as string[],
      take_order: JSON.parse(row.take_order as string) as string[],
      pairs: JSON.parse(row.pairs as string) as PairChoice[],
      blind: row.blind === 1,
      revealed: row.revealed === 1,
      loudness_match: row.loudness_match === 1,
    };
  }

  takes(sessionId: string): TakeRow[] {
    const rows = this.sql('SELECT * FROM compare_takes WHERE session_id = ? ORDER BY idx').all(sessionId) as Raw[];
    return rows.map(takeOf);
  }

  /** Inserts a session, or writes it whole; its takes are replaced by `takes` when given. */
  save(session: SessionRow, takes?: TakeRow[]): void {
    this.db.transaction(() => {
      this.sql(
        `INSERT INTO compare_sessions (id, name, texts, voices, rate, pitch, volume, blind, revealed, loudness_match, take_order, pairs, created_at, updated_at)
         VALUES (@id, @name, @texts, @voices, @rate, @pitch, @volume, @blind, @revealed, @loudness_match, @take_order, @pairs, @created_at, @updated_at)
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, texts = excluded.texts, voices = excluded.voices, rate = excluded.rate,
         pitch = excluded.pitch, volume = excluded.volume, blind = excluded.blind, revealed = excluded.revealed,
         loudness_match = excluded.loudness_match, take_order = excluded.take_order, pairs = excluded.pairs, updated_at = excluded.updated_at`,
      ).run({
        ...session,
        texts: JSON.stringify(session.texts),
        voices: JSON.stringify(session.voices),
        take_order: JSON.stringify(session.take_order),
        pairs: JSON.stringify(session.pairs),
        blind: Number(session.blind),
        revealed: Number(session.revealed),
        loudness_match: Number(session.loudness_match),
      });
      if (!takes) return;
      this.sql('DELETE FROM compare_takes WHERE session_id = ?').run(session.id);
      takes.forEach((take, idx) => this.insertTake(session.id, idx, take));
    })();
  }

  /** Writes one take's fields (its verdict, its job, its audio). */
  updateTake(sessionId: string, take: TakeRow, now: string): void {
    this.db.transaction(() => {
      this.sql(
        `UPDATE compare_takes SET job_id = @job_id, audio = @audio, engine = @engine, duration_s = @duration_s,
         loudness_lufs = @loudness_lufs, timings = @timings, error_code = @error_code, error_message = @error_message,
         rating = @rating, note = @note, sentence_ratings = @sentence_ratings WHERE session_id = @session_id AND id = @id`,
      ).run({ session_id: sessionId, ...takeColumns(take) });
      this.sql('UPDATE compare_sessions SET updated_at = ? WHERE id = ?').run(now, sessionId);
    })();
  }

  delete(id: string): void {
    this.sql('DELETE FROM compare_sessions WHERE id = ?').run(id);
  }

  private insertTake(sessionId: string, idx: number, take: TakeRow): void {
    this.sql(
      `INSERT INTO compare_takes (session_id, id, idx, text_index, voice, job_id, audio, engine, duration_s, loudness_lufs, timings,
       error_code, error_message, rating, note, sentence_ratings)
       VALUES (@session_id, @id, @idx, @text_index, @voice, @job_id, @audio, @engine, @duration_s, @loudness_lufs, @timings,
       @error_code, @error_message, @rating, @note, @sentence_ratings)`,
    ).run({ session_id: sessionId, idx, text_index: take.text_index, voice: take.voice, ...takeColumns(take) });
  }
}

function takeColumns(take: TakeRow) {
  return {
    id: take.id,
    job_id: take.job_id,
    audio: take.audio ? 1 : 0,
    engine: take.audio?.engine ?? null,
    duration_s: take.audio?.duration_s ?? null,
    loudness_lufs: take.audio?.loudness_lufs ?? null,
    timings: take.audio?.timings ? JSON.stringify(take.audio.timings) : null,
    error_code: take.error?.code ?? null,
    error_message: take.error?.message ?? null,
    rating: take.rating,
    note: take.note,
    sentence_ratings: JSON.stringify(take.sentence_ratings),
  };
}

function takeOf(row: Raw): TakeRow {
  const audio: TakeAudio | null =
    row.audio === 1
      ? {
          engine: row.engine as string,
          duration_s: row.duration_s as number,
          loudness_lufs: row.loudness_lufs as number | null,
          timings: row.timings === null ? null : (JSON.parse(row.timings as string) as JobTimings),
        }
      : null;
  return {
    id: row.id as string,
    text_index: row.text_index as number,
    voice: row.voice as string,
    job_id: row.job_id as string | null,
    audio,
    error: row.error_code === null ? null : { code: row.error_code as string, message: row.error_message as string },
    rating: row.rating as number | null,
    note: row.note as string,
    sentence_ratings: JSON.parse(row.sentence_ratings as string) as (number | null)[],
  };
}
