// The catch-up marks (catch-up-marks.ts) in the SQLite store's file: a table of their own, made if
// missing, so that no migration of the store's own tables is needed for them.
import type { CatchUpMarks } from './catch-up-marks.js';
import type { DatabaseSync } from './sqlite-load.js';

export const SQLITE_CATCH_UP_MARKS = `CREATE TABLE IF NOT EXISTS catch_up_marks (
  source TEXT NOT NULL,
  name TEXT NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (source, name)
) WITHOUT ROWID`;

export function sqliteCatchUpMarks(db: DatabaseSync): CatchUpMarks {
  db.exec(SQLITE_CATCH_UP_MARKS);
  // One statement, so one transaction: the first mark stays; a later call reads it.
  const insert = db.prepare(`INSERT INTO catch_up_marks (source, name, at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`);
  const select = db.prepare(`SELECT at FROM catch_up_marks WHERE source = ? AND name = ?`);
  return {
    markOf(source, name, now) {
      insert.run(source, name, now);
      const row = select.get(source, name) as { at: number } | undefined;
      return Promise.resolve(Number(row?.at ?? now));
    },
  };
}
