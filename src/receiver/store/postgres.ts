// The store on PostgreSQL, shared by every replica: each takes deliveries and works the same queue.
// PostgreSQL does the coordination: a claim locks due keys with FOR UPDATE SKIP LOCKED (replicas
// never wait on each other's claims) and writes a lease on each; a replica that dies holds nothing
// once its lease ends. A batch of deliveries is one transaction of a few statements, whatever its
// size, locking the rows it touches in one order (deliveries, then keys, then objects) so that two
// replicas' batches never deadlock. The schema: postgres-schema.ts; a batch of deliveries:
// postgres-accept.ts; a claim: postgres-claim.ts; the move from SQLite: postgres-import.ts.
import pg from 'pg';
import { ConfigError } from '../../core/config-error.js';
import type { DeploymentStatus } from '../../core/constants.js';
import { toRecord, type ItemRow } from './item-record.js';
import { acceptBatch } from './postgres-accept.js';
import { applyOutcome, setItem } from './postgres-outcome.js';
import { postgresCatchUpMarks } from './postgres-catch-up-marks.js';
import { postgresExclusive } from './postgres-exclusive.js';
import { claimKeys } from './postgres-claim.js';
import { shownStore } from './shown.js';
import { connectionConfig, describe, poolBounds, QUERY_TIMEOUT_MS } from './postgres-connection.js';
import { type Db, migrate, refreshKeys, rows, SCHEMA } from './postgres-schema.js';
import type { AcceptResult, ItemState, NewDelivery, OperatorAnswer, Store, StoreOptions, Work } from './store.js';

const BATCH = 500;

/** PostgreSQL's text holds no NUL character: such a delivery is refused before anything is written. */
const holdsNul = ({ deliveryId, events }: NewDelivery) =>
  [
    deliveryId,
    ...events.flatMap((event) => [event.key, event.baseline?.object ?? '', event.baseline?.revision ?? '']),
  ].some((text) => text.includes('\u0000'));

/** The readiness check's write: the time of the last one. */
const PING = `INSERT INTO ${SCHEMA}.meta (name, value) VALUES ('ready_checked_at', $1)
  ON CONFLICT (name) DO UPDATE SET value = excluded.value`;

/** Rows deleted in one transaction at most by retention. */
const PRUNE_BATCH = 2000;

/** `sole` is SQLite's: on a shared store, another replica may hold a lease that is still live. */
export function openPostgresStore(
  url: string,
  { now = Date.now, queryTimeoutMs = QUERY_TIMEOUT_MS }: StoreOptions = {},
): Store {
  const pool = new pg.Pool({ ...connectionConfig(url), ...poolBounds(queryTimeoutMs), max: 8 });
  // An idle connection's error (the server restarted) must not end the receiver: the pool drops it.
  pool.on('error', () => undefined);
  // The schema is made on first use, and tried again on the next call after a failure: a replica
  // that starts while the database is down becomes ready (readyz) once it is up.
  let migrated: Promise<void> | undefined;
  const ready = () =>
    (migrated ??= migrate(pool).catch((error: unknown) => {
      migrated = undefined;
      throw new ConfigError(
        '--store',
        `cannot be opened as a PostgreSQL store (${shownStore(url)}): ${describe(error, url)}.`,
      );
    }));

  const locks = postgresExclusive(pool, ready);

  async function transaction<T>(work: (db: pg.PoolClient) => Promise<T>): Promise<T> {
    await ready();
    for (let attempt = 1; ; attempt++) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(client);
        await client.query('COMMIT');
        client.release();
        return result;
      } catch (error) {
        const code = (error as { code?: string }).code;
        // PostgreSQL's own error (a SQLSTATE): the connection is sound. Anything else (a query that
        // timed out on a connection gone silent): the connection is dropped, not handed out again.
        const sound = code !== undefined && /^[0-9A-Z]{5}$/.test(code);
        if (sound) await client.query('ROLLBACK').catch(() => undefined);
        client.release(sound ? undefined : (error as Error));
        // A deadlock or serialization failure is PostgreSQL asking for the transaction again.
        if (attempt >= 5 || (code !== '40P01' && code !== '40001')) throw error;
      }
    }
  }

  // Group commit: every delivery waiting when a commit starts goes into it.
  const waiting: { delivery: NewDelivery; resolve: (r: AcceptResult) => void; reject: (e: unknown) => void }[] = [];
  let flushing: Promise<void> | undefined;
  async function flush(): Promise<void> {
    while (waiting.length) {
      const batch = waiting.splice(0, BATCH);
      try {
        const results = await transaction((db) =>
          acceptBatch(
            db,
            batch.map((pending) => pending.delivery),
            now(),
          ),
        );
        batch.forEach((pending, index) => pending.resolve(results[index] as AcceptResult));
      } catch (error) {
        for (const pending of batch) pending.reject(error);
      }
    }
    flushing = undefined;
  }

  type KeyRow = { key: string; recorded: DeploymentStatus | null; service_id: string | null };
  type LeaseRow = KeyRow & { service_id_numeric: boolean | null; lease_owner: string | null; lease_token: string };

  async function leaseHeld(db: Db, work: Work): Promise<boolean> {
    const [key] = await rows<LeaseRow>(db, `SELECT * FROM ${SCHEMA}.keys WHERE key = $1 FOR UPDATE`, [work.key]);
    return key?.lease_owner === work.lease.owner && Number(key.lease_token) === work.lease.token;
  }
  const item = async (db: Db, id: number) =>
    (await rows<ItemRow>(db, `SELECT * FROM ${SCHEMA}.items WHERE id = $1 FOR UPDATE`, [id]))[0];

  const withService = `SELECT items.*, keys.service_id FROM ${SCHEMA}.items LEFT JOIN ${SCHEMA}.keys ON keys.key = items.key`;
  const record = async (db: Db, id: number) =>
    toRecord((await rows<ItemRow & { service_id: string | null }>(db, `${withService} WHERE items.id = $1`, [id]))[0]!);

  function operator(
    id: number,
    allowed: readonly ItemState[],
    change: (db: Db, row: ItemRow, at: number) => Promise<string | undefined>,
  ): Promise<OperatorAnswer> {
    return transaction(async (db) => {
      const row = await item(db, id);
      if (!row) return { ok: false, reason: `no delivery item ${id} in this store` };
      if (!allowed.includes(row.state))
        return { ok: false, reason: `item ${id} is ${row.state}, not ${allowed.join(' or ')}` };
      await db.query(`SELECT 1 FROM ${SCHEMA}.keys WHERE key = $1 FOR UPDATE`, [row.key]);
      const refused = await change(db, row, now());
      if (refused) return { ok: false, reason: refused };
      await refreshKeys(db, [row.key]);
      return { ok: true, record: await record(db, id) };
    });
  }

  return {
    engine: 'postgres',
    ...postgresCatchUpMarks(pool),
    accept(delivery) {
      if (holdsNul(delivery))
        return Promise.reject(new Error('the delivery holds a NUL character, which PostgreSQL cannot store'));
      return new Promise((resolve, reject) => {
        waiting.push({ delivery, resolve, reject });
        flushing ??= flush();
      });
    },
    async claim(owner, limit, leaseMs) {
      const { work, held } = await transaction((db) => claimKeys(db, { owner, limit, leaseMs, at: now() }));
      // Read once committed: the creates this claim found left sending by a stopped receiver.
      return { work, held: await Promise.all(held.map((id) => record(pool, id))) };
    },
    markSending: (work) =>
      transaction(async (db) => {
        if (!(await leaseHeld(db, work))) return false;
        const row = await item(db, work.item.id);
        if (row?.state !== 'pending') return false;
        await db.query(`UPDATE ${SCHEMA}.items SET state = 'sending', updated_at = $2 WHERE id = $1`, [row.id, now()]);
        return true;
      }),
    finish: (work, outcome) =>
      transaction(async (db) => {
        if (!(await leaseHeld(db, work))) return false;
        await applyOutcome(db, work, outcome, now());
        await refreshKeys(db, [work.key]);
        await db.query(`UPDATE ${SCHEMA}.keys SET lease_owner = NULL, lease_until = NULL WHERE key = $1`, [work.key]);
        return true;
      }),
    release: (works) =>
      transaction(async (db) => {
        for (const work of works)
          if (await leaseHeld(db, work))
            await db.query(`UPDATE ${SCHEMA}.keys SET lease_owner = NULL, lease_until = NULL WHERE key = $1`, [
              work.key,
            ]);
      }),
    async list(states, limit) {
      await ready();
      if (states.length === 0) return [];
      const found = await rows<ItemRow & { service_id: string | null }>(
        pool,
        `${withService} WHERE items.state = ANY($1) ORDER BY items.id LIMIT $2`,
        [states, limit],
      );
      return found.map(toRecord);
    },
    retry: (id) =>
      operator(id, ['held', 'failed'], async (db, row, at) => {
        await db.query(
          `UPDATE ${SCHEMA}.items SET state = 'pending', attempts = 0, first_failed_at = NULL, next_at = $2, error = NULL,
             note = $3, updated_at = $2 WHERE id = $1`,
          [row.id, at, `sent again by an operator (was ${row.state})`],
        );
        return undefined;
      }),
    resolve: (id, serviceId) =>
      operator(id, ['held'], async (db, row, at) => {
        const [key] = await rows<KeyRow>(db, `SELECT * FROM ${SCHEMA}.keys WHERE key = $1`, [row.key]);
        if (key?.service_id) return `its deployment already has the service's id ${key.service_id}`;
        await db.query(
          `UPDATE ${SCHEMA}.keys SET service_id = $2, service_id_numeric = $3, recorded = $4 WHERE key = $1`,
          [row.key, serviceId.text, serviceId.numeric, row.status],
        );
        await setItem(db, Number(row.id), { state: 'done', note: `resolved by an operator as ${serviceId.text}` }, at);
        return undefined;
      }),
    async prune(olderThanMs) {
      const before = now() - olderThanMs;
      // Each step a batch per transaction, so that deliveries are committed in between.
      const steps: [string, unknown[]][] = [
        [
          `DELETE FROM ${SCHEMA}.items WHERE id IN (SELECT id FROM ${SCHEMA}.items
           WHERE state IN ('done', 'skipped') AND updated_at < $1 LIMIT ${PRUNE_BATCH})`,
          [before],
        ],
        [
          `DELETE FROM ${SCHEMA}.deliveries WHERE (source, delivery_id) IN (SELECT source, delivery_id FROM ${SCHEMA}.deliveries
           WHERE received_at < $1 LIMIT ${PRUNE_BATCH})`,
          [before],
        ],
        // An ended deployment with no item left; a key locked by a batch or a claim is left for next time.
        [
          `DELETE FROM ${SCHEMA}.keys WHERE key IN (SELECT key FROM ${SCHEMA}.keys k WHERE accepted IN ('SUCCEEDED', 'FAILED')
           AND ready_at IS NULL AND lease_owner IS NULL
           AND NOT EXISTS (SELECT 1 FROM ${SCHEMA}.items i WHERE i.key = k.key) LIMIT ${PRUNE_BATCH} FOR UPDATE SKIP LOCKED)`,
          [],
        ],
      ];
      let total = 0;
      for (const [step, values] of steps) {
        for (;;) {
          const deleted = await transaction(async (db) => (await db.query(step, values)).rowCount ?? 0);
          total += deleted;
          if (deleted < PRUNE_BATCH) break;
        }
      }
      return total;
    },
    async stats() {
      await ready();
      const [row] = await rows<Record<string, string | null>>(
        pool,
        `SELECT count(*) FILTER (WHERE state IN ('pending', 'sending')) AS queue,
           count(*) FILTER (WHERE state = 'held') AS held, count(*) FILTER (WHERE state = 'failed') AS failed,
           min(received_at) FILTER (WHERE state = 'pending') AS oldest
         FROM ${SCHEMA}.items WHERE state IN ('pending', 'sending', 'held', 'failed')`,
      );
      const oldest = row?.oldest ? Number(row.oldest) : undefined;
      return {
        queueDepth: Number(row?.queue ?? 0),
        oldestPendingSeconds: oldest === undefined ? 0 : Math.max(0, (now() - oldest) / 1000),
        held: Number(row?.held ?? 0),
        failed: Number(row?.failed ?? 0),
      };
    },
    exclusive: locks.exclusive,
    async holds(source, deliveryId) {
      await ready();
      const { rowCount } = await pool.query(
        `SELECT 1 FROM ${SCHEMA}.deliveries WHERE source = $1 AND delivery_id = $2`,
        [source, deliveryId],
      );
      return (rowCount ?? 0) > 0;
    },
    async ping() {
      // A write, committed: ready means a delivery would be stored (a full disk refuses this too).
      await transaction((db) => db.query(PING, [String(now())]));
    },
    async close() {
      locks.letGo();
      await flushing;
      await migrated?.catch(() => undefined);
      await pool.end();
    },
  };
}
