// The SQLite store's tables, and the migrations that bring an older file up to SCHEMA_VERSION.
// A file written by a newer receiver is refused rather than read wrongly.
import { ConfigError } from '../../core/config-error.js';
import type { DatabaseSync } from './sqlite-load.js';
import { SCHEMA_VERSION } from './store.js';

/** Each migration takes the schema from its index to the next version (0 → 1 first). */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  -- One row per delivery, for deduplication.
  CREATE TABLE deliveries (
    source TEXT NOT NULL,
    delivery_id TEXT NOT NULL,
    received_at INTEGER NOT NULL,
    PRIMARY KEY (source, delivery_id)
  ) WITHOUT ROWID;
  -- One row per correlation key: what the service has, and who works on it.
  CREATE TABLE keys (
    key TEXT PRIMARY KEY,
    accepted TEXT,
    recorded TEXT,
    service_id TEXT,
    service_id_numeric INTEGER,
    ready_at INTEGER,
    lease_owner TEXT,
    lease_until INTEGER,
    lease_token INTEGER NOT NULL DEFAULT 0
  ) WITHOUT ROWID;
  CREATE INDEX keys_ready ON keys (ready_at) WHERE ready_at IS NOT NULL;
  -- One row per event, in the order they arrived.
  CREATE TABLE items (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    source TEXT NOT NULL,
    delivery_id TEXT NOT NULL,
    key TEXT NOT NULL,
    status TEXT NOT NULL,
    fields TEXT NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    first_failed_at INTEGER,
    next_at INTEGER,
    error TEXT,
    note TEXT,
    received_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX items_open ON items (key, id) WHERE state IN ('pending', 'sending', 'held');
  CREATE INDEX items_state ON items (state, id);
  -- Flux: the revision each object was last seen at.
  CREATE TABLE revisions (object TEXT PRIMARY KEY, revision TEXT NOT NULL) WITHOUT ROWID;
  `,
  // 1 → 2: a Flux object is known by its uid and cluster metadata too (the rows of bare names are
  // dropped: each object's next event is its baseline again), and by the time of the event that set
  // its revision, so that a late event moves nothing.
  `
  DELETE FROM revisions;
  ALTER TABLE revisions ADD COLUMN seen_at INTEGER NOT NULL DEFAULT 0;
  `,
  // 2 → 3: whether an item came by webhook or by catch-up (`deliveries` shows it).
  `ALTER TABLE items ADD COLUMN via TEXT NOT NULL DEFAULT 'live';`,
];

export function migrate(db: DatabaseSync, where: string): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    const version = currentVersion(db);
    if (version > SCHEMA_VERSION) {
      throw new ConfigError(
        '--store',
        `${where} was written by a newer report-deployment (schema ${version}; this one knows ${SCHEMA_VERSION}). Run the newer version, or give another --store.`,
      );
    }
    for (let step = version; step < SCHEMA_VERSION; step++) db.exec(MIGRATIONS[step] as string);
    db.prepare(
      `INSERT INTO meta (name, value) VALUES ('schema_version', ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value`,
    ).run(String(SCHEMA_VERSION));
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

function currentVersion(db: DatabaseSync): number {
  const table = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'`).get();
  if (!table) {
    const others = db.prepare(`SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'`).get() as { n: number };
    if (others.n > 0)
      throw new ConfigError(
        '--store',
        "is an SQLite file of something else, not a receiver's store. Give another path.",
      );
    return 0;
  }
  const row = db.prepare(`SELECT value FROM meta WHERE name = 'schema_version'`).get() as { value: string } | undefined;
  return Number(row?.value ?? 0);
}
