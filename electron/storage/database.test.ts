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

  it('number the jobs of an older database in the order they came, and give every later change of a job the next number', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'orator-db-'));
    const old = new Database(path.join(dir, 'orator.db'));
    // the database as it was before jobs had revisions
    const before = MIGRATIONS.findIndex((sql) => sql.includes('job_revision'));
    MIGRATIONS.slice(0, before).forEach((sql) => old.exec(sql));
    old.pragma(`user_version = ${before}`);
    const insert = old.prepare(
      `INSERT INTO jobs (id, state, engine, voice, local_voice, rate, pitch, volume, characters, chunks_total, created_at)
       VALUES (?, 'done', 'espeak-ng', 'espeak-ng:en-us', 'en-us', 1, 1, 1, 10, 1, '2026-11-01T00:00:00.000Z')`,
    );
    for (const id of ['b', 'a', 'c']) insert.run(id);
    old.close();

    const db = openDatabase(dir);
    const revisions = () =>
      Object.fromEntries(
        (db.prepare('SELECT id, revision FROM jobs').all() as { id: string; revision: number }[]).map((r) => [r.id, r.revision]),
      );
    const latest = () => (db.prepare('SELECT value FROM job_revision').get() as { value: number }).value;
    expect(revisions()).toEqual({ b: 1, a: 2, c: 3 });
    expect(latest()).toBe(3);
    db.prepare("UPDATE jobs SET custom_title = 'x' WHERE id = 'b'").run();
    db.prepare(insert.source).run('d');
    db.prepare("DELETE FROM jobs WHERE id = 'c'").run();
    db.prepare("UPDATE jobs SET chunks_done = 1 WHERE id = 'a'").run();
    // one number per change, never given twice: a deletion takes one too
    expect(revisions()).toEqual({ b: 4, d: 5, a: 7 });
    expect(latest()).toBe(7);
    db.close();
  });
});
