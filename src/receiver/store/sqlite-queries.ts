// The SQLite store's statements, prepared once per open file.
import type { DatabaseSync, StatementSync } from 'node:sqlite';

export type Queries = ReturnType<typeof prepareQueries>;

export function prepareQueries(db: DatabaseSync) {
  const sql = (text: string): StatementSync => db.prepare(text);
  return {
    insertDelivery: sql(
      `INSERT INTO deliveries (source, delivery_id, received_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
    ),
    hasDelivery: sql(`SELECT 1 AS found FROM deliveries WHERE source = ? AND delivery_id = ?`),
    revision: sql(`SELECT revision, seen_at AS at FROM revisions WHERE object = ?`),
    setRevision: sql(
      `INSERT INTO revisions (object, revision, seen_at) VALUES (?, ?, ?) ON CONFLICT (object) DO UPDATE SET revision = excluded.revision, seen_at = excluded.seen_at`,
    ),
    key: sql(`SELECT * FROM keys WHERE key = ?`),
    accept: sql(
      `INSERT INTO keys (key, accepted) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET accepted = excluded.accepted`,
    ),
    insertItem: sql(
      `INSERT INTO items (source, delivery_id, key, status, fields, state, next_at, note, received_at, updated_at, via) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    head: sql(
      `SELECT id, state, next_at FROM items WHERE key = ? AND state IN ('pending', 'sending', 'held') ORDER BY id LIMIT 1`,
    ),
    setReady: sql(`UPDATE keys SET ready_at = ? WHERE key = ?`),
    due: sql(
      `SELECT * FROM keys WHERE ready_at <= ? AND (lease_until IS NULL OR lease_until <= ?) ORDER BY ready_at LIMIT ?`,
    ),
    lease: sql(`UPDATE keys SET lease_owner = ?, lease_until = ?, lease_token = lease_token + 1 WHERE key = ?`),
    unlease: sql(`UPDATE keys SET lease_owner = NULL, lease_until = NULL WHERE key = ?`),
    item: sql(`SELECT * FROM items WHERE id = ?`),
    setItem: sql(
      `UPDATE items SET state = ?, attempts = ?, first_failed_at = ?, next_at = ?, error = ?, note = ?, updated_at = ? WHERE id = ?`,
    ),
    setService: sql(`UPDATE keys SET service_id = ?, service_id_numeric = ?, recorded = ? WHERE key = ?`),
    setRecorded: sql(`UPDATE keys SET recorded = ? WHERE key = ?`),
    record: sql(`SELECT items.*, keys.service_id FROM items LEFT JOIN keys ON keys.key = items.key WHERE items.id = ?`),
    count: sql(`SELECT count(*) AS n FROM items WHERE state = ?`),
    oldest: sql(`SELECT received_at FROM items WHERE state = 'pending' ORDER BY id LIMIT 1`),
    // The readiness check's write: the time of the last one.
    ping: sql(
      `INSERT INTO meta (name, value) VALUES ('ready_checked_at', ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value`,
    ),
  };
}
