// What became of a claimed item, written to the PostgreSQL store: the item's new state, and the
// key's service id and recorded status (as sqlite-outcome.ts for SQLite).
import { type Db, SCHEMA } from './postgres-schema.js';
import type { ItemState, Outcome, Work } from './store.js';

interface Change {
  state: ItemState;
  error?: string;
  note?: string;
  /** A failed attempt: counted, and the first failure's time kept. */
  failed?: boolean;
  /** A failure not the item's: counted, the first failure's time forgotten. */
  notItsFault?: boolean;
  nextAt?: number;
}
export function setItem(db: Db, id: number, change: Change, at: number) {
  return db.query(
    `UPDATE ${SCHEMA}.items SET state = $2, error = $3, note = $4, updated_at = $5, next_at = $7,
       attempts = attempts + $6::int,
       first_failed_at = CASE WHEN $8::boolean THEN NULL
         WHEN $6::int > 0 THEN COALESCE(first_failed_at, $5) ELSE first_failed_at END
     WHERE id = $1`,
    [
      id,
      change.state,
      change.error ?? null,
      change.note ?? null,
      at,
      change.failed ? 1 : 0,
      change.nextAt ?? null,
      change.notItsFault === true,
    ],
  );
}

export async function applyOutcome(db: Db, work: Work, outcome: Outcome, at: number): Promise<void> {
  const id = work.item.id;
  switch (outcome.kind) {
    case 'created':
      await db.query(
        `UPDATE ${SCHEMA}.keys SET service_id = $2, service_id_numeric = $3, recorded = $4 WHERE key = $1`,
        [work.key, outcome.serviceId.text, outcome.serviceId.numeric, work.item.status],
      );
      return void (await setItem(db, id, { state: 'done', note: `created as ${outcome.serviceId.text}` }, at));
    case 'updated':
      await db.query(`UPDATE ${SCHEMA}.keys SET recorded = $2 WHERE key = $1`, [work.key, work.item.status]);
      return void (await setItem(db, id, { state: 'done' }, at));
    case 'skipped':
      return void (await setItem(db, id, { state: 'skipped', note: outcome.reason }, at));
    case 'retry':
      return void (await setItem(
        db,
        id,
        {
          state: 'pending',
          error: outcome.error,
          failed: true,
          nextAt: outcome.at,
          notItsFault: outcome.notItsFault === true,
        },
        at,
      ));
    case 'held':
    case 'failed':
      return void (await setItem(db, id, { state: outcome.kind, error: outcome.error, failed: true }, at));
  }
}
