// The PostgreSQL store's schema (its own, `report_deployment`, so that it can share a database), the
// migrations that bring it up to SCHEMA_VERSION, and the statements the store's parts share.
// Every replica migrates at start, one at a time under an advisory lock: the first makes the
// schema, the others find it made. A database written by a newer receiver is refused.
import type pg from 'pg';
import { SCHEMA_VERSION } from './store.js';

export const SCHEMA = 'report_deployment';
/** The advisory lock every replica takes around the schema's migrations (any fixed number). */
const MIGRATION_LOCK = 7_360_421_905;
/** The states of an item that is still its key's business. */
export const OPEN = `('pending', 'sending', 'held')`;

export type Db = pg.Pool | pg.PoolClient;

export const rows = async <T>(db: Db, sql: string, values: unknown[] = []) => (await db.query(sql, values)).rows as T[];

/** Each migration takes the schema from its index to the next version (0 → 1 first). */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE ${SCHEMA}.deliveries (source text NOT NULL, delivery_id text NOT NULL, received_at bigint NOT NULL,
    PRIMARY KEY (source, delivery_id));
  CREATE TABLE ${SCHEMA}.keys (key text PRIMARY KEY, accepted text, recorded text, service_id text,
    service_id_numeric boolean, ready_at bigint, lease_owner text, lease_until bigint,
    lease_token bigint NOT NULL DEFAULT 0);
  CREATE INDEX keys_ready ON ${SCHEMA}.keys (ready_at) WHERE ready_at IS NOT NULL;
  CREATE TABLE ${SCHEMA}.items (id bigserial PRIMARY KEY, source text NOT NULL, delivery_id text NOT NULL,
    key text NOT NULL, status text NOT NULL, fields text NOT NULL, state text NOT NULL,
    attempts integer NOT NULL DEFAULT 0, first_failed_at bigint, next_at bigint, error text, note text,
    received_at bigint NOT NULL, updated_at bigint NOT NULL);
  CREATE INDEX items_open ON ${SCHEMA}.items (key, id) WHERE state IN ${OPEN};
  CREATE INDEX items_state ON ${SCHEMA}.items (state, id);
  CREATE TABLE ${SCHEMA}.revisions (object text PRIMARY KEY, revision text NOT NULL);
  `,
  // 1 → 2: as on SQLite (sqlite-schema.ts).
  `
  DELETE FROM ${SCHEMA}.revisions;
  ALTER TABLE ${SCHEMA}.revisions ADD COLUMN seen_at bigint NOT NULL DEFAULT 0;
  `,
  // 2 → 3: whether an item came by webhook or by catch-up (`deliveries` shows it).
  `ALTER TABLE ${SCHEMA}.items ADD COLUMN via text NOT NULL DEFAULT 'live';`,
];

/** Each key's ready time: its first open item's, none while that item is held. */
export function refreshKeys(db: Db, keys: string[]) {
  return db.query(
    `UPDATE ${SCHEMA}.keys k SET ready_at = (SELECT CASE WHEN i.state = 'held' THEN NULL ELSE i.next_at END
       FROM ${SCHEMA}.items i WHERE i.key = k.key AND i.state IN ${OPEN} ORDER BY i.id LIMIT 1)
     WHERE k.key = ANY($1)`,
    [keys],
  );
}

/** Creates the schema, or brings it up to SCHEMA_VERSION; one replica at a time, the others wait. */
export async function migrate(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${SCHEMA}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${SCHEMA}.meta (name text PRIMARY KEY, value text NOT NULL)`);
    const [row] = (await client.query(`SELECT value FROM ${SCHEMA}.meta WHERE name = 'schema_version'`)).rows as {
      value: string;
    }[];
    const version = Number(row?.value ?? 0);
    if (version > SCHEMA_VERSION)
      throw new Error(
        `the database was written by a newer report-deployment (schema ${version}; this one knows ${SCHEMA_VERSION}). Run the newer version, or give another --store.`,
      );
    for (let step = version; step < SCHEMA_VERSION; step++) await client.query(MIGRATIONS[step] as string);
    await client.query(
      `INSERT INTO ${SCHEMA}.meta (name, value) VALUES ('schema_version', $1) ON CONFLICT (name) DO UPDATE SET value = excluded.value`,
      [String(SCHEMA_VERSION)],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
