// A batch of deliveries into the PostgreSQL store, in the transaction the caller opened: a few
// statements whatever the batch's size. The rows it touches are locked in one order (deliveries,
// then keys, then Flux objects, each sorted), so that two replicas' batches never deadlock, and a key's
// status is decided under its lock, so that two replicas never both queue an end for one deployment.
import type pg from 'pg';
import type { DeploymentStatus } from '../../core/constants.js';
import type { DeploymentEvent } from '../event.js';
import { refreshKeys, rows, SCHEMA } from './postgres-schema.js';
import { seenAfter, skipReason, type LastSeen } from '../rules.js';
import { idsOf, type AcceptResult, type NewDelivery, type SkippedEvent } from './store.js';

export async function acceptBatch(db: pg.PoolClient, batch: NewDelivery[], at: number): Promise<AcceptResult[]> {
  const stored = await insertDeliveries(db, batch, at);
  const events = batch.flatMap((delivery, index) =>
    stored[index] ? delivery.events.map((event) => ({ delivery, index, event })) : [],
  );
  const skipped = batch.map((): SkippedEvent[] => []);
  const results = (): AcceptResult[] =>
    batch.map((_, index) =>
      stored[index] ? { kind: 'stored', skipped: skipped[index] ?? [] } : { kind: 'duplicate' },
    );
  if (events.length === 0) return results();
  // Then every key and object the batch touches, sorted, locked for the batch's length.
  const keys = [...new Set(events.map(({ event }) => event.key))].sort();
  // Made where new, locked where not, in one statement (a retention pass between the two could
  // otherwise delete a key this batch is about to use): the status each key has accepted so far.
  const accepted = new Map<string, DeploymentStatus | undefined>();
  const keyRows = await rows<{ key: string; accepted: DeploymentStatus | null }>(
    db,
    `INSERT INTO ${SCHEMA}.keys (key) SELECT k FROM unnest($1::text[]) AS t(k) ORDER BY k
     ON CONFLICT (key) DO UPDATE SET key = excluded.key RETURNING key, accepted`,
    [keys],
  );
  for (const row of keyRows) accepted.set(row.key, row.accepted ?? undefined);
  const objects = [...new Set(events.flatMap(({ event }) => (event.baseline ? [event.baseline.object] : [])))].sort();
  const revisions = new Map<string, LastSeen>();
  if (objects.length) {
    const found = await rows<{ object: string; revision: string; at: string }>(
      db,
      `SELECT object, revision, seen_at AS at FROM ${SCHEMA}.revisions WHERE object = ANY($1) ORDER BY object FOR UPDATE`,
      [objects],
    );
    for (const row of found) revisions.set(row.object, { revision: row.revision, at: Number(row.at) });
  }
  // The rules, in arrival order, over what the store holds and what this batch adds.
  const decided = events.map(({ delivery, event }) => itemOf(delivery, event, accepted, revisions, at));
  decided.forEach((item, n) => {
    const { index, event } = events[n] as (typeof events)[0];
    if (item.note !== null) skipped[index]?.push({ key: event.key, status: event.status, reason: item.note });
  });
  // A delivery with nothing to send leaves no item (its ids stay, for deduplication): the reasons
  // are in accept's answer, which the server logs.
  const items = decided.filter((_, n) => {
    const { index, delivery } = events[n] as (typeof events)[0];
    return (skipped[index]?.length ?? 0) < delivery.events.length;
  });
  const column = <K extends keyof (typeof items)[0]>(name: K) => items.map((item) => item[name]);
  await db.query(
    `INSERT INTO ${SCHEMA}.items (source, delivery_id, key, status, fields, state, next_at, note, via, received_at, updated_at)
     SELECT s, d, k, st, f, state, n, note, v, $10, $10
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::text[], $9::text[])
       WITH ORDINALITY AS t(s, d, k, st, f, state, n, note, v, o) ORDER BY o`,
    [
      ...(['source', 'deliveryId', 'key', 'status', 'fields', 'state', 'nextAt', 'note', 'via'] as const).map(column),
      at,
    ],
  );
  await db.query(
    `UPDATE ${SCHEMA}.keys SET accepted = t.a FROM unnest($1::text[], $2::text[]) AS t(k, a) WHERE key = t.k`,
    [[...accepted.keys()], [...accepted.values()].map((status) => status ?? null)],
  );
  if (revisions.size)
    await db.query(
      `INSERT INTO ${SCHEMA}.revisions (object, revision, seen_at) SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])
       ON CONFLICT (object) DO UPDATE SET revision = excluded.revision, seen_at = excluded.seen_at`,
      [
        [...revisions.keys()],
        [...revisions.values()].map((seen) => seen.revision),
        [...revisions.values()].map((seen) => seen.at),
      ],
    );
  await refreshKeys(db, keys);
  // A key made above for events that were all skipped holds nothing (as in SQLite, which makes
  // none): retention deletes only ended keys, so it would stay for ever.
  await db.query(
    `DELETE FROM ${SCHEMA}.keys k WHERE key = ANY($1) AND accepted IS NULL AND NOT EXISTS (SELECT 1 FROM ${SCHEMA}.items i WHERE i.key = k.key)`,
    [keys],
  );
  return results();
}

/**
 * Each delivery's ids, in one order (so that two replicas' batches never deadlock): whether each
 * delivery is new. One whose every id is new, and not taken by an earlier twin in the batch, is
 * stored; the ids a duplicate inserted (its body known under another id) are deleted again.
 */
async function insertDeliveries(db: pg.PoolClient, batch: NewDelivery[], at: number): Promise<boolean[]> {
  const idsOfDelivery = (delivery: NewDelivery) => idsOf(delivery).map((id) => JSON.stringify([delivery.source, id]));
  const pairs = [...new Set(batch.flatMap(idsOfDelivery))].sort().map((id) => JSON.parse(id) as [string, string]);
  const inserted = await rows<{ source: string; delivery_id: string }>(
    db,
    `INSERT INTO ${SCHEMA}.deliveries (source, delivery_id, received_at)
     SELECT s, d, $3 FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS t(s, d, n) ORDER BY n
     ON CONFLICT DO NOTHING RETURNING source, delivery_id`,
    [pairs.map((pair) => pair[0]), pairs.map((pair) => pair[1]), at],
  );
  const fresh = new Set(inserted.map((row) => JSON.stringify([row.source, row.delivery_id])));
  const stored = batch.map((delivery) => {
    const own = idsOfDelivery(delivery);
    if (!own.every((id) => fresh.has(id))) return false;
    for (const id of own) fresh.delete(id);
    return true;
  });
  if (fresh.size) {
    const left = [...fresh].map((id) => JSON.parse(id) as [string, string]);
    await db.query(
      `DELETE FROM ${SCHEMA}.deliveries WHERE (source, delivery_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
      [left.map((pair) => pair[0]), left.map((pair) => pair[1])],
    );
  }
  return stored;
}

function itemOf(
  delivery: NewDelivery,
  event: DeploymentEvent,
  accepted: Map<string, DeploymentStatus | undefined>,
  revisions: Map<string, LastSeen>,
  at: number,
) {
  let lastSeen: LastSeen | undefined;
  if (event.baseline) {
    lastSeen = revisions.get(event.baseline.object);
    revisions.set(event.baseline.object, seenAfter({ status: event.status, baseline: event.baseline }, lastSeen, at));
  }
  const reason = skipReason(event, { accepted: accepted.get(event.key) }, lastSeen, at);
  if (!reason) accepted.set(event.key, event.status);
  return {
    source: delivery.source,
    deliveryId: delivery.deliveryId,
    key: event.key,
    status: event.status,
    fields: JSON.stringify(event.fields),
    state: reason ? 'skipped' : 'pending',
    nextAt: reason ? null : at,
    note: reason ?? null,
    via: delivery.via ?? 'live',
  };
}
