// The receiver's store: what it must keep so that nothing acknowledged is lost, whatever the engine
// (SQLite here, PostgreSQL next). A second engine is a second file implementing `Store`; the
// contract tests (test/receiver/helpers/store-contract.ts) run every engine through the same cases.
//
// The model, in words:
// - A delivery (source, deliveryId) is stored once; a second one with the same id stores nothing,
//   nor does one with the same `digestId` (GitHub: its signed body, sent again under a fresh id).
// - Each of its events becomes an item, queued under its correlation key. Per key the store keeps
//   the service's id, the status the service has, and the highest status accepted so far: an event
//   that would move the status backwards (a late `in_progress` after `success`), or any event after
//   an end, is skipped at once. Flux's `baseline` rule is applied as events arrive. Accept answers
//   the events it skipped and why; a delivery whose every event is skipped leaves no item (only its
//   ids, for deduplication), one with something to send keeps its skipped events as `skipped` items.
// - The worker claims keys whose next item is due, with a lease (PostgreSQL: FOR UPDATE SKIP
//   LOCKED on the keys). One key is never claimed twice at once, and its items are worked in the
//   order they arrived.
// - A create is marked `sending` (committed) before it is sent. A claim that finds an item still
//   `sending` (its worker died) makes it `held`, as does a create that may have reached the
//   service; a held item blocks its key until an operator retries or resolves it.
import type { DeploymentStatus } from '../../core/constants.js';
import type { DeploymentId } from '../../core/ids.js';
import type { DeploymentEvent, EventFields, SourceName } from '../event.js';
import type { CatchUpMarks } from './catch-up-marks.js';

/** The schema version this code reads and writes; an engine migrates an older store up to it. */
export const SCHEMA_VERSION = 3;

/** Where an item stands. `pending` and `sending` are work; `held` and `failed` wait for an operator. */
export type ItemState = 'pending' | 'sending' | 'done' | 'skipped' | 'held' | 'failed';

export interface NewDelivery {
  source: SourceName;
  deliveryId: string;
  /**
   * A second id the delivery is known by, kept beside deliveryId (GitHub: `sha256:<hex>` of its
   * signed body): a delivery either of whose ids was stored before is a duplicate.
   */
  digestId?: string;
  events: readonly DeploymentEvent[];
  /** How it came: a sender's webhook (the default), or catch-up reading the sender's record. */
  via?: Via;
}

export type Via = 'live' | 'catch-up';

/** The ids a delivery is deduplicated on: its own, and its digest where it has one. */
export function idsOf({ deliveryId, digestId }: Pick<NewDelivery, 'deliveryId' | 'digestId'>): string[] {
  return digestId === undefined || digestId === deliveryId ? [deliveryId] : [deliveryId, digestId];
}

/** An event skipped as it arrived (nothing to send for it), and why. */
export interface SkippedEvent {
  key: string;
  status: DeploymentStatus;
  reason: string;
}

/**
 * `stored`: committed (answer 2xx), with the events it skipped as they arrived, in order.
 * `duplicate`: that delivery was stored before; nothing more is.
 */
export type AcceptResult = { kind: 'stored'; skipped: readonly SkippedEvent[] } | { kind: 'duplicate' };

/** One claimed key and the item to work on now. */
export interface Work {
  key: string;
  /** The service's id for this key, once a create has returned one (or an operator resolved it). */
  serviceId: DeploymentId | undefined;
  /** The status the service holds for this key; undefined before a create. */
  recorded: DeploymentStatus | undefined;
  item: {
    id: number;
    source: SourceName;
    deliveryId: string;
    status: DeploymentStatus;
    fields: EventFields;
    /** Failed attempts so far, and when the first of them was (ms since the epoch). */
    attempts: number;
    firstFailedAt: number | undefined;
  };
  /** The claim's own mark: a store refuses a finish from a claim whose lease was taken over. */
  lease: { owner: string; token: number };
}

/** What became of a claimed item. */
export type Outcome =
  | { kind: 'created'; serviceId: DeploymentId }
  | { kind: 'updated' }
  /** Nothing to send (the service already has this status or a later one). */
  | { kind: 'skipped'; reason: string }
  /**
   * A transient failure: try again at `at` (ms since the epoch). `notItsFault` (the API key refused):
   * the time after which the item is given up starts again at its next failure.
   */
  | { kind: 'retry'; at: number; error: string; notItsFault?: boolean }
  /** A create that may have reached the service: never sent again by itself. */
  | { kind: 'held'; error: string }
  | { kind: 'failed'; error: string };

/** An item as the `deliveries` command shows it. */
export interface ItemRecord {
  id: number;
  source: SourceName;
  deliveryId: string;
  key: string;
  status: DeploymentStatus;
  state: ItemState;
  /** Whether its delivery came by webhook or by catch-up. */
  via: Via;
  /** The service's id for the key, as text; null where none is known. */
  serviceId: string | null;
  error: string | null;
  /** Why it was skipped, or what an operator did. */
  note: string | null;
  attempts: number;
  receivedAt: string;
  updatedAt: string;
  /** When a pending item is tried next; null for the others. */
  nextAttemptAt: string | null;
}

export interface StoreStats {
  /** Items waiting to be sent (pending or sending). */
  queueDepth: number;
  /** Age of the oldest pending item, in seconds; 0 when none waits. */
  oldestPendingSeconds: number;
  held: number;
  failed: number;
}

/** What an operator's `retry` or `resolve` did to an item, or why it did nothing. */
export type OperatorAnswer = { ok: true; record: ItemRecord } | { ok: false; reason: string };

/** Catch-up's marks (catch-up-marks.ts) are kept in the store, beside what they guard. */
export interface Store extends CatchUpMarks {
  /** "sqlite" or "postgres": for messages and metrics. */
  readonly engine: string;
  /** Commits the delivery before it resolves (deliveries arriving together share one commit). */
  accept(delivery: NewDelivery): Promise<AcceptResult>;
  /**
   * Claims up to `limit` keys whose next item is due, each for `leaseMs`. An item found still
   * `sending` (its worker died mid-create) is made `held` here: it is returned in `held`, not as work.
   */
  claim(owner: string, limit: number, leaseMs: number): Promise<Claim>;
  /** Commits that the item's create is about to be sent; false when the lease was lost (send nothing). */
  markSending(work: Work): Promise<boolean>;
  /** Records what became of the item and lets the key go; false when the lease was lost (nothing written). */
  finish(work: Work, outcome: Outcome): Promise<boolean>;
  /** Lets claimed keys go untouched (a stop before their work started). */
  release(works: readonly Work[]): Promise<void>;
  /** Items in these states, oldest first, at most `limit`. */
  list(states: readonly ItemState[], limit: number): Promise<ItemRecord[]>;
  /** A held or failed item becomes pending again (a held create is sent again: the operator's call). */
  retry(id: number): Promise<OperatorAnswer>;
  /** A held create did reach the service as `serviceId`: the key keeps it, and its later items update it. */
  resolve(id: number, serviceId: DeploymentId): Promise<OperatorAnswer>;
  stats(): Promise<StoreStats>;
  /**
   * Retention: deletes finished items (done, skipped) and deliveries' deduplication rows older than
   * `olderThanMs`, and the keys of ended deployments left with no item; resolves to the rows
   * deleted. Pending, sending, held and failed items stay, whatever their age.
   */
  prune(olderThanMs: number): Promise<number>;
  /**
   * Runs `work` unless another receiver on the store runs work of that name now (PostgreSQL: an
   * advisory lock held while it runs, let go if the receiver dies; SQLite: one receiver a file, so
   * always); resolves to whether it ran. Catch-up's passes: one replica at a time.
   */
  exclusive(name: string, work: () => Promise<void>): Promise<boolean>;
  /** Whether a delivery of `source` with this id is stored (catch-up asks before it fetches one). */
  holds(source: SourceName, deliveryId: string): Promise<boolean>;
  /** Resolves when the store answers (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** What a claim took: the work leased to the claimer, and the creates it found left `sending` and held. */
export interface Claim {
  work: Work[];
  held: ItemRecord[];
}

export interface StoreOptions {
  /** The clock (ms since the epoch); tests move it. */
  now?: () => number;
  /**
   * This process is the only receiver on the store (SQLite: one receiver per file): the leases an
   * earlier process left are void at once, so its unfinished work is taken up at start, not once
   * the leases end. A store shared by several receivers (PostgreSQL) ignores it.
   */
  sole?: boolean;
  /** PostgreSQL: how long one query may take before it fails (30 s); tests shorten it. */
  queryTimeoutMs?: number;
}
