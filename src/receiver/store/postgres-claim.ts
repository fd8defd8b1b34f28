// A claim on the PostgreSQL store: due keys locked with FOR UPDATE SKIP LOCKED (replicas never wait
// on each other's claims), each key's first open item read, a lease written on the keys with work.
// A create still `sending` under an ended lease is held (its worker stopped mid-send: it may have
// reached the service); a key with nothing to work on loses its ended lease.
import type pg from 'pg';
import type { DeploymentStatus } from '../../core/constants.js';
import type { EventFields } from '../event.js';
import type { ItemRow } from './item-record.js';
import { OPEN, refreshKeys, rows, SCHEMA } from './postgres-schema.js';
import type { Work } from './store.js';

type LeaseRow = {
  key: string;
  recorded: DeploymentStatus | null;
  service_id: string | null;
  service_id_numeric: boolean | null;
  lease_owner: string | null;
  lease_token: string;
};

export async function claimKeys(
  db: pg.PoolClient,
  { owner, limit, leaseMs, at }: { owner: string; limit: number; leaseMs: number; at: number },
): Promise<{ work: Work[]; held: number[] }> {
  const due = await rows<LeaseRow>(
    db,
    `SELECT * FROM ${SCHEMA}.keys WHERE ready_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)
     ORDER BY ready_at, key LIMIT $2 FOR UPDATE SKIP LOCKED`,
    [at, limit],
  );
  if (due.length === 0) return { work: [], held: [] };
  const heads = await rows<ItemRow>(
    db,
    `SELECT DISTINCT ON (key) * FROM ${SCHEMA}.items WHERE key = ANY($1) AND state IN ${OPEN} ORDER BY key, id`,
    [due.map((key) => key.key)],
  );
  const headOf = new Map(heads.map((head) => [head.key, head]));
  // A create still `sending` under an ended lease: its worker stopped mid-send; it may have arrived.
  const stopped = heads.filter((head) => head.state === 'sending').map((head) => Number(head.id));
  if (stopped.length)
    await db.query(
      `UPDATE ${SCHEMA}.items SET state = 'held', next_at = NULL, updated_at = $2,
         error = 'the receiver stopped while this create was being sent: it may have reached the service'
       WHERE id = ANY($1)`,
      [stopped, at],
    );
  const workable = due.filter((key) => headOf.get(key.key)?.state === 'pending');
  const idle = due.filter((key) => headOf.get(key.key)?.state !== 'pending').map((key) => key.key);
  if (idle.length) {
    // Nothing to work on (held, or done): an ended lease is cleared, not left to look claimed.
    await db.query(`UPDATE ${SCHEMA}.keys SET lease_owner = NULL, lease_until = NULL WHERE key = ANY($1)`, [idle]);
    await refreshKeys(db, idle);
  }
  if (workable.length === 0) return { work: [], held: stopped };
  const tokens = await rows<{ key: string; lease_token: string }>(
    db,
    `UPDATE ${SCHEMA}.keys SET lease_owner = $2, lease_until = $3, lease_token = lease_token + 1
     WHERE key = ANY($1) RETURNING key, lease_token`,
    [workable.map((key) => key.key), owner, at + leaseMs],
  );
  const tokenOf = new Map(tokens.map((row) => [row.key, Number(row.lease_token)]));
  const work = workable.map((key): Work => {
    const row = headOf.get(key.key) as ItemRow;
    return {
      key: key.key,
      serviceId:
        key.service_id === null ? undefined : { text: key.service_id, numeric: key.service_id_numeric === true },
      recorded: key.recorded ?? undefined,
      item: {
        id: Number(row.id),
        source: row.source,
        deliveryId: row.delivery_id,
        status: row.status,
        fields: JSON.parse(row.fields) as EventFields,
        attempts: Number(row.attempts),
        firstFailedAt: row.first_failed_at === null ? undefined : Number(row.first_failed_at),
      },
      lease: { owner, token: tokenOf.get(key.key) ?? 0 },
    };
  });
  return { work, held: stopped };
}
