// The store on SQLite (node:sqlite), one file, one receiver at a time. Durable: WAL with
// synchronous=FULL, so a commit is on disk before `accept` resolves. Deliveries that arrive while a
// commit runs wait for the next one, which takes them all: one fsync acknowledges many.
// node:sqlite is synchronous; each transaction is short and bounded by its batch.
import type { DeploymentStatus } from '../../core/constants.js';
import type { DeploymentEvent, EventFields } from '../event.js';
import { toRecord, type ItemRow } from './item-record.js';
import { seenAfter, skipReason, type LastSeen } from '../rules.js';
import { sqliteCatchUpMarks } from './sqlite-catch-up-marks.js';
import type { DatabaseSync } from './sqlite-load.js';
import { type Hold, holdStore, openDatabase } from './sqlite-open.js';
import { applyOutcome } from './sqlite-outcome.js';
import { sqlitePruner } from './sqlite-prune.js';
import { prepareQueries } from './sqlite-queries.js';
import { migrate } from './sqlite-schema.js';
import { acceptOne } from './sqlite-accept.js';
import type { AcceptResult, ItemState, NewDelivery, OperatorAnswer, Store, StoreOptions, Work } from './store.js';

interface Pending {
  delivery: NewDelivery;
  resolve: (result: AcceptResult) => void;
  reject: (error: unknown) => void;
}

interface KeyRow {
  key: string;
  accepted: DeploymentStatus | null;
  recorded: DeploymentStatus | null;
  service_id: string | null;
  service_id_numeric: number | null;
  lease_owner: string | null;
  lease_token: number;
}

/** Deliveries taken in one commit at most: bounds how long one transaction holds the event loop. */
const BATCH = 500;

export function openSqliteStore(path: string, { now = Date.now, sole = false }: StoreOptions = {}): Store {
  const db: DatabaseSync = openDatabase(path);
  let hold: Hold | undefined;
  try {
    // Held first: a newer binary started next to a running one is refused before it migrates.
    if (sole && path !== ':memory:') hold = holdStore(path, db);
    migrate(db, path);
    hold?.sayWho();
    // The earlier process is gone (the hold says so): what it had claimed is claimable now (a create it was sending is then held).
    if (sole) db.prepare('UPDATE keys SET lease_until = 0 WHERE lease_owner IS NOT NULL').run();
  } catch (error) {
    hold?.release();
    db.close();
    throw error;
  }

  const queries = prepareQueries(db);
  const prune = sqlitePruner(db, transaction);

  function transaction<T>(work: () => T): T {
    db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      db.exec('COMMIT');
      return result;
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      throw error;
    }
  }

  /** The key's ready time: its first open item's, none while that item is held. */
  function refreshKey(key: string): void {
    const head = queries.head.get(key) as unknown as { state: ItemState; next_at: number } | undefined;
    queries.setReady.run(head && head.state !== 'held' ? head.next_at : null, key);
  }

  /** Queues the event, or answers why it is skipped (the caller decides whether to keep a row of it). */
  function addEvent(delivery: NewDelivery, event: DeploymentEvent, at: number): string | undefined {
    const { source, deliveryId } = delivery;
    let lastSeen: LastSeen | undefined;
    if (event.baseline) {
      lastSeen = queries.revision.get(event.baseline.object) as unknown as LastSeen | undefined;
      const seen = seenAfter({ status: event.status, baseline: event.baseline }, lastSeen, at);
      queries.setRevision.run(event.baseline.object, seen.revision, seen.at);
    }
    const key = queries.key.get(event.key) as unknown as KeyRow | undefined;
    const reason = skipReason(event, { accepted: key?.accepted ?? undefined }, lastSeen, at);
    if (reason) return reason;
    const fields = JSON.stringify(event.fields);
    queries.accept.run(event.key, event.status);
    queries.insertItem.run(
      source,
      deliveryId,
      event.key,
      event.status,
      fields,
      'pending',
      at,
      null,
      at,
      at,
      delivery.via ?? 'live',
    );
    refreshKey(event.key);
    return undefined;
  }

  // Group commit: every delivery waiting when a commit starts goes into it.
  const waiting: Pending[] = [];
  let scheduled = false;
  function flush(): void {
    scheduled = false;
    const batch = waiting.splice(0, BATCH);
    if (waiting.length) schedule();
    const at = now();
    const results: Array<AcceptResult | { error: unknown }> = [];
    try {
      transaction(() => {
        for (const { delivery } of batch) {
          db.exec('SAVEPOINT one');
          try {
            results.push(acceptOne(queries, delivery, at, (event) => addEvent(delivery, event, at)));
            db.exec('RELEASE one');
          } catch (error) {
            db.exec('ROLLBACK TO one');
            db.exec('RELEASE one');
            results.push({ error });
          }
        }
      });
    } catch (error) {
      for (const pending of batch) pending.reject(error);
      return;
    }
    batch.forEach((pending, index) => {
      const result = results[index] as AcceptResult | { error: unknown };
      if ('kind' in result) pending.resolve(result);
      else pending.reject(result.error);
    });
  }
  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    setImmediate(flush);
  }

  function leaseHeld(work: Work): KeyRow | undefined {
    const key = queries.key.get(work.key) as unknown as KeyRow | undefined;
    return key?.lease_owner === work.lease.owner && key.lease_token === work.lease.token ? key : undefined;
  }

  /** The key's first item as work, or none; a create found still `sending` is held and its id put in `held`. */
  function claimOne(key: KeyRow, owner: string, leaseMs: number, at: number, held: number[]): Work | undefined {
    const head = queries.head.get(key.key) as unknown as { id: number; state: ItemState } | undefined;
    if (!head || head.state === 'held') {
      refreshKey(key.key);
      return undefined;
    }
    const row = queries.item.get(head.id) as unknown as ItemRow;
    if (head.state === 'sending') {
      // Its worker stopped between marking the create sent and recording the answer.
      const error = 'the receiver stopped while this create was being sent: it may have reached the service';
      queries.setItem.run('held', row.attempts, row.first_failed_at, null, error, null, at, row.id);
      refreshKey(key.key);
      held.push(row.id);
      return undefined;
    }
    queries.lease.run(owner, at + leaseMs, key.key);
    return {
      key: key.key,
      serviceId: key.service_id === null ? undefined : { text: key.service_id, numeric: key.service_id_numeric === 1 },
      recorded: key.recorded ?? undefined,
      item: {
        id: row.id,
        source: row.source,
        deliveryId: row.delivery_id,
        status: row.status,
        fields: JSON.parse(row.fields) as EventFields,
        attempts: row.attempts,
        firstFailedAt: row.first_failed_at ?? undefined,
      },
      lease: { owner, token: key.lease_token + 1 },
    };
  }

  /** A synchronous call as the promise the interface gives (a throw becomes a rejection). */
  function settle<T>(work: () => T): Promise<T> {
    try {
      return Promise.resolve(work());
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  const record = (id: number) => toRecord(queries.record.get(id) as unknown as ItemRow & { service_id: string | null });

  function operator(
    id: number,
    allowed: readonly ItemState[],
    change: (row: ItemRow, at: number) => string | undefined,
  ): OperatorAnswer {
    return transaction(() => {
      const row = queries.item.get(id) as unknown as ItemRow | undefined;
      if (!row) return { ok: false, reason: `no delivery item ${id} in this store` };
      if (!allowed.includes(row.state))
        return { ok: false, reason: `item ${id} is ${row.state}, not ${allowed.join(' or ')}` };
      const refused = change(row, now());
      if (refused) return { ok: false, reason: refused };
      refreshKey(row.key);
      return { ok: true, record: record(id) };
    });
  }

  return {
    engine: 'sqlite',
    ...sqliteCatchUpMarks(db),
    accept(delivery) {
      return new Promise((resolve, reject) => {
        waiting.push({ delivery, resolve, reject });
        schedule();
      });
    },
    claim(owner, limit, leaseMs) {
      return settle(() => {
        const held: number[] = [];
        const work = transaction(() => {
          const at = now();
          const keys = queries.due.all(at, at, limit) as unknown as KeyRow[];
          return keys.map((key) => claimOne(key, owner, leaseMs, at, held)).filter((work) => work !== undefined);
        });
        return { work, held: held.map(record) };
      });
    },
    markSending(work) {
      return settle(() => {
        return transaction(() => {
          if (!leaseHeld(work)) return false;
          const row = queries.item.get(work.item.id) as unknown as ItemRow;
          if (row.state !== 'pending') return false;
          queries.setItem.run(
            'sending',
            row.attempts,
            row.first_failed_at,
            row.next_at,
            row.error,
            null,
            now(),
            row.id,
          );
          return true;
        });
      });
    },
    finish(work, outcome) {
      return settle(() => {
        return transaction(() => {
          if (!leaseHeld(work)) return false;
          applyOutcome(queries, work, outcome, now());
          refreshKey(work.key);
          queries.unlease.run(work.key);
          return true;
        });
      });
    },
    release(works) {
      return settle(() => {
        transaction(() => {
          for (const work of works) if (leaseHeld(work)) queries.unlease.run(work.key);
        });
      });
    },
    list(states, limit) {
      return settle(() => {
        if (states.length === 0) return [];
        const marks = states.map(() => '?').join(', ');
        const rows = db
          .prepare(
            `SELECT items.*, keys.service_id FROM items LEFT JOIN keys ON keys.key = items.key WHERE items.state IN (${marks}) ORDER BY items.id LIMIT ?`,
          )
          .all(...states, limit) as unknown as Array<ItemRow & { service_id: string | null }>;
        return rows.map(toRecord);
      });
    },
    retry(id) {
      return settle(() => {
        return operator(id, ['held', 'failed'], (row, at) => {
          queries.setItem.run('pending', 0, null, at, null, `sent again by an operator (was ${row.state})`, at, row.id);
          return undefined;
        });
      });
    },
    resolve(id, serviceId) {
      return settle(() => {
        return operator(id, ['held'], (row, at) => {
          const key = queries.key.get(row.key) as unknown as KeyRow;
          if (key.service_id !== null) return `its deployment already has the service's id ${key.service_id}`;
          queries.setService.run(serviceId.text, serviceId.numeric ? 1 : 0, row.status, row.key);
          queries.setItem.run(
            'done',
            row.attempts,
            row.first_failed_at,
            null,
            null,
            `resolved by an operator as ${serviceId.text}`,
            at,
            row.id,
          );
          return undefined;
        });
      });
    },
    stats() {
      return settle(() => {
        const count = (state: ItemState) => (queries.count.get(state) as unknown as { n: number }).n;
        const oldest = queries.oldest.get() as unknown as { received_at: number } | undefined;
        return {
          queueDepth: count('pending') + count('sending'),
          oldestPendingSeconds: oldest ? Math.max(0, (now() - oldest.received_at) / 1000) : 0,
          held: count('held'),
          failed: count('failed'),
        };
      });
    },
    prune(olderThanMs) {
      return prune(now() - olderThanMs);
    },
    // One receiver a file (sqlite-open.ts holds it): nobody else can run it.
    async exclusive(_name, work) {
      await work();
      return true;
    },
    holds(source, deliveryId) {
      return settle(() => queries.hasDelivery.get(source, deliveryId) !== undefined);
    },
    ping() {
      // A write, committed: ready means a delivery would be stored (a full disk refuses this too).
      return settle(() => void transaction(() => queries.ping.run(String(now()))));
    },
    close() {
      return settle(() => {
        while (waiting.length) flush();
        if (db.isOpen) db.close();
        hold?.release();
      });
    },
  };
}
