// The catch-up marks (catch-up-marks.ts) in the PostgreSQL store's schema: a table of their own,
// made on first use (one replica at a time, under an advisory lock, as the schema's migrations), so
// that no migration of the store's own tables is needed for them.
import type pg from 'pg';
import type { CatchUpMarks } from './catch-up-marks.js';
import { SCHEMA } from './postgres-schema.js';

/** The advisory lock around making the table (any fixed number, not the migrations' own). */
const MARKS_LOCK = 7_360_421_906;

export function postgresCatchUpMarks(pool: pg.Pool): CatchUpMarks {
  let made: Promise<void> | undefined;
  const ready = () =>
    (made ??= makeTable(pool).catch((error: unknown) => {
      made = undefined;
      throw error;
    }));
  return {
    async markOf(source, name, now) {
      await ready();
      // Read committed: the insert waits for a replica's own insert of the same row, and the select,
      // a statement of its own, then sees whichever row was committed first.
      await pool.query(
        `INSERT INTO ${SCHEMA}.catch_up_marks (source, name, at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
        [source, name, now],
      );
      const { rows } = await pool.query(`SELECT at FROM ${SCHEMA}.catch_up_marks WHERE source = $1 AND name = $2`, [
        source,
        name,
      ]);
      return Number((rows[0] as { at: string } | undefined)?.at ?? now);
    },
  };
}

async function makeTable(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MARKS_LOCK]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${SCHEMA}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${SCHEMA}.catch_up_marks (source text NOT NULL, name text NOT NULL, at bigint NOT NULL,
        PRIMARY KEY (source, name))`,
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
