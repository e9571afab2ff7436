import Database from 'better-sqlite3';
import { closeSync, openSync } from 'node:fs';
import path from 'node:path';
import { MIGRATIONS } from './migrations';
import { PRIVATE_FILE_MODE } from './private-files';

export type Db = Database.Database;

/**
 * `db.prepare` that compiles each SQL text once: a job's every chunk runs the same few statements,
 * and compiling them again each time cost more than running them.
 */
export function statementCache(db: Db): (sql: string) => Database.Statement {
  const statements = new Map<string, Database.Statement>();
  return (sql) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
}

export const DATABASE_FILE = 'orator.db';

/** Opens (and migrates) the gateway's database in the data dir. Only the main thread writes to it. */
export function openDatabase(dataDir: string): Db {
  const file = path.join(dataDir, DATABASE_FILE);
  // SQLite creates the file with the umask's mode and gives its -wal and -shm files the same:
  // created first, private, they are all 0600.
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  let db: Db | undefined;
  try {
    db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    return prepareDatabase(db);
  } catch (error) {
    db?.close();
    throw explained(error, file);
  }
}

/** Makes an open database Orator's: its constraints on and its schema current (a file, or ':memory:' in unit tests). */
export function prepareDatabase(db: Db): Db {
  db.pragma('foreign_keys = ON');
  migrate(db);
  return db;
}

function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  MIGRATIONS.slice(current).forEach((sql, i) => {
    db.transaction(() => {
      db.exec(sql);
      db.pragma(`user_version = ${current + i + 1}`);
    })();
  });
}

/**
 * A damaged database is never replaced by an empty one: that would hide every job it holds. The
 * message names the file and the two ways out.
 */
function explained(error: unknown, file: string): unknown {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string') return error;
  if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) {
    return new Error(
      `The database ${file} is damaged (${(error as Error).message}). Orator will not start on it, as starting empty would hide the jobs it holds. ` +
        `Restore it from a backup, or move it aside to start with an empty job list: rename ${file} (and ${file}-wal and ${file}-shm, if present) to another name.`,
      { cause: error },
    );
  }
  if (code === 'SQLITE_READONLY' || code.startsWith('SQLITE_CANTOPEN')) {
    return new Error(
      `The database ${file} cannot be written (${(error as Error).message}). Make it and its folder writable for this user.`,
      { cause: error },
    );
  }
  return error;
}
