// `deliveries import --from FILE --store postgres://...`: a stopped receiver's SQLite store moved
// into an empty PostgreSQL store, in one transaction, so that nothing queued is lost and no
// deployment is recorded twice: the events waiting or held (in their order), the deduplication
// rows, each deployment's service id and statuses, Flux's last-seen revisions. Leases are left
// behind (the receiver that held them has stopped); an event left `sending` is held at the first
// claim, as on SQLite.
import { existsSync } from 'node:fs';
import pg from 'pg';
import { ConfigError } from '../../core/config-error.js';
import { connectionConfig, describe } from './postgres-connection.js';
import { migrate, refreshKeys, rows, SCHEMA } from './postgres-schema.js';
import { loadSqlite } from './sqlite-load.js';
import { SCHEMA_VERSION } from './store.js';

interface Imported {
  items: number;
  /** Events still to send (pending, sending) or waiting for an operator (held, failed). */
  open: number;
  keys: number;
  deliveries: number;
}

/** Rows sent in one statement. */
const CHUNK = 1000;

type Row = Record<string, unknown>;

const COLUMNS = {
  deliveries: ['source', 'delivery_id', 'received_at'],
  revisions: ['object', 'revision', 'seen_at'],
  keys: ['key', 'accepted', 'recorded', 'service_id', 'service_id_numeric', 'ready_at'],
  items: [
    'source',
    'delivery_id',
    'key',
    'status',
    'fields',
    'state',
    'attempts',
    'first_failed_at',
    'next_at',
    'error',
    'note',
    'received_at',
    'updated_at',
    'via',
  ],
} as const;

export async function importSqlite(file: string, url: string): Promise<Imported> {
  const source = readSqlite(file);
  const pool = new pg.Pool({ ...connectionConfig(url), max: 1 });
  pool.on('error', () => undefined);
  let client: pg.PoolClient;
  try {
    await migrate(pool);
    client = await pool.connect();
  } catch (error) {
    await pool.end();
    throw new ConfigError('--store', `cannot be opened as a PostgreSQL store: ${describe(error, url)}.`);
  }
  try {
    await client.query('BEGIN');
    // Refused unless empty: merging two stores' views of one deployment could record it twice.
    const [known] = await rows<{ n: string }>(
      client,
      `SELECT (SELECT count(*) FROM ${SCHEMA}.keys) + (SELECT count(*) FROM ${SCHEMA}.deliveries) AS n`,
    );
    if (Number(known?.n) > 0)
      throw new ConfigError(
        '--store',
        'already holds deliveries: import only into a new, empty PostgreSQL store, before any receiver uses it.',
      );
    for (const table of ['deliveries', 'revisions', 'keys', 'items'] as const) {
      const all = source[table];
      for (let start = 0; start < all.length; start += CHUNK) {
        await insert(client, table, all.slice(start, start + CHUNK));
      }
    }
    await refreshKeys(
      client,
      source.keys.map((row) => String(row.key)),
    );
    await client.query('COMMIT');
    const open = source.items.filter((row) => ['pending', 'sending', 'held', 'failed'].includes(String(row.state)));
    return {
      items: source.items.length,
      open: open.length,
      keys: source.keys.length,
      deliveries: source.deliveries.length,
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    if (error instanceof ConfigError) throw error;
    throw new ConfigError('--store', `could not take the import (nothing was written): ${describe(error, url)}.`);
  } finally {
    client.release();
    await pool.end();
  }
}

/** The PostgreSQL type of each column that is not text. */
const TYPES: Record<string, string> = {
  received_at: 'bigint',
  seen_at: 'bigint',
  ready_at: 'bigint',
  first_failed_at: 'bigint',
  next_at: 'bigint',
  updated_at: 'bigint',
  attempts: 'int',
  service_id_numeric: 'boolean',
};

/** One table's rows, in one statement: each column as an array, unnested in order. */
function insert(client: pg.PoolClient, table: keyof typeof COLUMNS, batch: Row[]) {
  const columns = COLUMNS[table];
  // SQLite keeps a boolean as 0 or 1.
  const value = (row: Row, column: string) =>
    column === 'service_id_numeric' && row[column] !== null ? Number(row[column]) === 1 : (row[column] ?? null);
  const list = columns.join(', ');
  const arrays = columns.map((column, index) => `$${index + 1}::${TYPES[column] ?? 'text'}[]`).join(', ');
  return client.query(
    `INSERT INTO ${SCHEMA}.${table} (${list}) SELECT ${list} FROM unnest(${arrays}) WITH ORDINALITY AS t(${list}, n) ORDER BY n`,
    columns.map((column) => batch.map((row) => value(row, column))),
  );
}

/** The SQLite file's rows, read-only; refused if it is not a receiver's store of this schema. */
function readSqlite(file: string): Record<keyof typeof COLUMNS, Row[]> {
  if (!existsSync(file)) throw new ConfigError('--from', `names no file (${file}): give the file \`serve\` stored in.`);
  const { DatabaseSync } = loadSqlite();
  let db;
  try {
    db = new DatabaseSync(file, { readOnly: true });
  } catch (error) {
    throw new ConfigError('--from', `cannot be opened as an SQLite file (${file}): ${describe(error)}.`);
  }
  try {
    let version: string | undefined;
    try {
      version = (db.prepare(`SELECT value FROM meta WHERE name = 'schema_version'`).get() as { value?: string })?.value;
    } catch {
      version = undefined;
    }
    if (version !== String(SCHEMA_VERSION))
      throw new ConfigError(
        '--from',
        `is not a receiver's store of this version (${file}: schema ${version ?? 'none'}, expected ${SCHEMA_VERSION}). Give the file \`serve\` stored in, opened once by this version.`,
      );
    const all = (sql: string) => db.prepare(sql).all() as Row[];
    return {
      deliveries: all(`SELECT ${COLUMNS.deliveries.join(', ')} FROM deliveries`),
      revisions: all(`SELECT ${COLUMNS.revisions.join(', ')} FROM revisions`),
      keys: all(`SELECT ${COLUMNS.keys.join(', ')} FROM keys ORDER BY key`),
      items: all(`SELECT ${COLUMNS.items.join(', ')} FROM items ORDER BY id`),
    };
  } finally {
    db.close();
  }
}
