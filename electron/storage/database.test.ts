import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './database';
import { MIGRATIONS } from './migrations';

let dir: string;
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('database migrations', () => {
  it('bring a database of the first version up to date, keeping its jobs', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'orator-db-'));
    const old = new Database(path.join(dir, 'orator.db'));
    old.exec(MIGRATIONS[0]!);
    old.pragma('user_version = 1');
    old
      .prepare(
        `INSERT INTO jobs (id, state, engine, voice, local_voice, rate, pitch, volume, characters, chunks_total, created_at)
       VALUES ('j1', 'done', 'espeak-ng', 'espeak-ng:en-us', 'en-us', 1, 1, 1, 120, 1, '2026-11-01T00:00:00.000Z')`,
      )
      .run();
    old
      .prepare("INSERT INTO chunks (job_id, idx, text, pause_ms, done) VALUES ('j1', 0, ?, 250, 1)")
      .run('A chapter that was queued before jobs had titles. '.repeat(3));
    old.close();

    const db = openDatabase(dir);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    const job = db.prepare("SELECT title, state FROM jobs WHERE id = 'j1'").get() as { title: string; state: string };
    expect(job).toEqual({ title: 'A chapter that was queued before jobs had titles. A chapter that was queued befo', state: 'done' });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
    // opening again changes nothing
    const again = openDatabase(dir);
    expect(again.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    again.close();
  });
});
