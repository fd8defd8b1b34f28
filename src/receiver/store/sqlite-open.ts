// The SQLite store's file, opened: its folder made, the file made readable by its owner alone
// (whatever the umask; SQLite gives its -wal and -shm the file's mode, and, run as root, its owner),
// and for `serve`, the file taken for this process alone: a second `serve` on it refuses to start.
//
// Node has no flock: the hold is an EXCLUSIVE lock a second connection keeps on a sidecar database
// (`<file>.lock`) for the process's life; the operating system lets it go when the process ends,
// however it ends. Who holds it is written in the store's `meta`, where the next one reads it.
// `deliveries` takes no hold: it works alongside a running `serve`.
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { ConfigError } from '../../core/config-error.js';
import { loadSqlite, type DatabaseSync } from './sqlite-load.js';

export interface Hold {
  /** Writes who holds the store in its meta table (once migrated: a new file has none before). */
  sayWho(): void;
  release(): void;
}

/** Creates `path` readable and writable by its owner alone, when it is not there yet. */
export function createPrivateFile(path: string): void {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw error;
  }
  closeSync(fd);
  // The umask may have taken bits from the mode (0o600 & ~umask): set it exactly.
  chmodSync(path, 0o600);
}

export function openDatabase(path: string): DatabaseSync {
  const { DatabaseSync } = loadSqlite();
  if (path !== ':memory:') {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    createPrivateFile(path);
  }
  const db = new DatabaseSync(path);
  db.exec('PRAGMA busy_timeout = 5000');
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = FULL');
  db.exec('PRAGMA foreign_keys = OFF');
  return db;
}

const HOLDER = 'serve_holder';

/** Takes `path` for this process's `serve`, or throws a ConfigError naming the file and who holds it. */
export function holdStore(path: string, db: DatabaseSync): Hold {
  const { DatabaseSync } = loadSqlite();
  const lockPath = `${path}.lock`;
  createPrivateFile(lockPath);
  const lock = new DatabaseSync(lockPath);
  try {
    // busy_timeout 0: a lock held by a live process is refused at once.
    lock.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    lock.close();
    if ((error as { errcode?: number }).errcode !== 5) throw error; // SQLITE_BUSY
    const holder = holderOf(db);
    throw new ConfigError(
      '--store',
      `${path} is in use by another report-deployment serve (${holder ?? 'a process that has not said which'}): one receiver per SQLite file. Stop that one first, or give another --store (PostgreSQL takes several receivers).`,
    );
  }
  return {
    sayWho() {
      const who = `process ${process.pid} on ${hostname()}, since ${new Date().toISOString()}`;
      db.prepare(
        `INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value`,
      ).run(HOLDER, who);
    },
    release() {
      if (!lock.isOpen) return;
      lock.exec('ROLLBACK');
      lock.close();
    },
  };
}

/** Who holds the store, as its holder wrote it; undefined where it did not (or the file has no meta yet). */
function holderOf(db: DatabaseSync): string | undefined {
  try {
    return (db.prepare(`SELECT value FROM meta WHERE name = ?`).get(HOLDER) as { value?: string } | undefined)?.value;
  } catch {
    return undefined;
  }
}
