import Database from 'better-sqlite3';
import path from 'node:path';
import { MIGRATIONS } from './migrations';

export type Db = Database.Database;

/** Opens (and migrates) the gateway's database in the data dir. Only the main thread writes to it. */
export function openDatabase(dataDir: string): Db {
  const db = new Database(path.join(dataDir, 'orator.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
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
