// The SQLite store's retention: finished items (done, skipped), the deduplication rows of
// deliveries, and the keys of ended deployments with no item left, once older than the bound.
// Deleted a batch per transaction, each short, so that deliveries are committed in between.
import type { DatabaseSync } from './sqlite-load.js';

/** Rows deleted in one transaction at most. */
const BATCH = 2000;

export function sqlitePruner(db: DatabaseSync, transaction: <T>(work: () => T) => T) {
  const items = db.prepare(
    `DELETE FROM items WHERE id IN (SELECT id FROM items WHERE state IN ('done', 'skipped') AND updated_at < ? LIMIT ${BATCH})`,
  );
  const deliveries = db.prepare(
    `DELETE FROM deliveries WHERE (source, delivery_id) IN (SELECT source, delivery_id FROM deliveries WHERE received_at < ? LIMIT ${BATCH})`,
  );
  // An ended deployment with no item left: a late event for it would find nothing to update, but
  // none comes so late (the bound is longer than any sender's redelivery). A key that never ended
  // is kept, so that its end still finds the service's id.
  const keys = db.prepare(
    `DELETE FROM keys WHERE key IN (SELECT key FROM keys WHERE accepted IN ('SUCCEEDED', 'FAILED') AND ready_at IS NULL AND lease_owner IS NULL AND key NOT IN (SELECT key FROM items) LIMIT ${BATCH})`,
  );

  /** Deletes what finished before `before` (ms since the epoch); the number of rows deleted. */
  return async function prune(before: number): Promise<number> {
    let total = 0;
    const steps: Array<() => number | bigint> = [
      () => items.run(before).changes,
      () => deliveries.run(before).changes,
      () => keys.run().changes,
    ];
    for (const step of steps) {
      for (;;) {
        const changes = Number(transaction(step));
        total += changes;
        if (changes < BATCH) break;
        // Deliveries waiting for a commit go first.
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    return total;
  };
}
