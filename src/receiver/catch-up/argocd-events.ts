// What Argo CD's own record says the receiver should hold: each application's `status.history` (the
// syncs that succeeded, the last `revisionHistoryLimit` of them, 10 by default) and its
// `status.operationState` (the last operation: Failed or Error is a sync that failed). Each is
// rendered into the shape the shipped notification template sends and read by the live source's own
// `syncEvent`, so a caught-up sync has the key and fields its webhook would have had: the key is
// `argocd:<uid>:<operation startedAt>`, and a history entry's `deployStartedAt` is its operation's
// `startedAt` (Argo CD's controller copies it; both are metav1.Time, RFC 3339 in UTC, whole seconds).
// Pure: the pass (argocd.ts) fetches the list and stores what this returns.
import type { DeploymentStatus } from '../../core/constants.js';
import { isObject } from '../../core/json.js';
import { tooOld } from '../retention.js';
import { syncEvent } from '../sources/argocd.js';
import { at, firstOf, kubernetesUid, text } from '../sources/fields.js';
import { rfc3339 } from '../sources/times.js';
import { derivedId } from '../sources/verify.js';
import type { NewDelivery } from '../store/store.js';

/** One sync to get in: a delivery of one event, and when the sync ended (ms since the epoch). */
export interface CaughtUpSync {
  delivery: NewDelivery;
  sentAt: number;
}

export interface CaughtUpSyncs {
  syncs: CaughtUpSync[];
  /** Syncs that ended before the mark: Argo CD's past when catch-up began, not deployments to send. */
  baseline: number;
  /** Syncs past the retention window: a store may have forgotten them, so they are never sent again. */
  expired: number;
  /** Records that cannot make an event (no uid, no start, no revision), each with why, at most a few. */
  unreadable: string[];
}

/** The applications list's answer is not `{ items: [...] }`. */
export class NotAnApplicationList extends Error {}

const SHOWN_UNREADABLE = 5;

/** The trigger whose webhook would have carried each status: the description names it, as live. */
const TRIGGER: Partial<Record<DeploymentStatus, string>> = { SUCCEEDED: 'on-deployed', FAILED: 'on-sync-failed' };

/**
 * The syncs to get in from `GET /api/v1/applications`'s answer. `mark`: when catch-up first ran for
 * this Argo CD (ms since the epoch); a sync that ended before it is a baseline. `argocdUrl`: the
 * server's URL, for each deployment's link (the template's `context.argocdUrl`).
 */
export function caughtUpSyncs(
  list: unknown,
  { mark, now, argocdUrl }: { mark: number; now: number; argocdUrl: string },
): CaughtUpSyncs {
  const items = at(list, ['items']);
  // Argo CD answers `{}` (items left out) when there is no application.
  if (!isObject(list) || (items !== undefined && items !== null && !Array.isArray(items))) {
    throw new NotAnApplicationList('the answer is not an application list ({ "items": [...] })');
  }
  const result: CaughtUpSyncs = { syncs: [], baseline: 0, expired: 0, unreadable: [] };
  // Metav1 times are whole seconds: the mark too, so a sync in the mark's own second is caught.
  const markSecond = Math.floor(mark / 1000) * 1000;
  for (const app of (items ?? []) as unknown[]) {
    for (const sync of syncsOf(app, argocdUrl)) {
      if ('reason' in sync) {
        if (result.unreadable.length < SHOWN_UNREADABLE) result.unreadable.push(sync.reason);
      } else if (sync.sentAt < markSecond) result.baseline++;
      else if (tooOld(sync.sentAt, now)) result.expired++;
      else result.syncs.push(sync);
    }
  }
  return result;
}

/** What one Argo CD operation says, in the names of the template's `operation` object. */
interface Operation {
  status: DeploymentStatus;
  startedAt: unknown;
  finishedAt: unknown;
  initiatedBy: unknown;
  revision: unknown;
  revisions: unknown;
  syncingRevision?: unknown;
  syncRevision?: unknown;
  /** The source it synced (history: `source`; an operation: `syncResult.source`). */
  source: unknown;
}

function syncsOf(app: unknown, argocdUrl: string): Array<CaughtUpSync | { reason: string }> {
  const history = at(app, ['status', 'history']);
  const operations: Operation[] = (Array.isArray(history) ? (history as unknown[]) : []).map((entry) => ({
    status: 'SUCCEEDED',
    startedAt: at(entry, ['deployStartedAt']),
    finishedAt: at(entry, ['deployedAt']),
    initiatedBy: at(entry, ['initiatedBy']),
    revision: at(entry, ['revision']),
    revisions: at(entry, ['revisions']),
    source: at(entry, ['source']),
  }));
  const state = at(app, ['status', 'operationState']);
  const phase = text(state, 'phase');
  // A succeeded operation is the history's last entry; a running one has not ended.
  if (phase === 'Failed' || phase === 'Error') {
    operations.push({
      status: 'FAILED',
      startedAt: at(state, ['startedAt']),
      finishedAt: at(state, ['finishedAt']),
      initiatedBy: at(state, ['operation', 'initiatedBy']),
      revision: at(state, ['syncResult', 'revision']),
      revisions: at(state, ['syncResult', 'revisions']),
      syncingRevision: at(state, ['operation', 'sync', 'revision']),
      syncRevision: at(app, ['status', 'sync', 'revision']),
      source: at(state, ['syncResult', 'source']),
    });
  }
  return operations.map((operation) => syncOf(app, operation, argocdUrl));
}

function syncOf(app: unknown, operation: Operation, argocdUrl: string): CaughtUpSync | { reason: string } {
  const name = text(app, 'metadata', 'name') || '(no name)';
  const body = notification(app, operation, argocdUrl);
  const sentAt = rfc3339(text(body, 'operation', 'finishedAt')) ?? rfc3339(text(body, 'operation', 'startedAt'));
  const made = syncEvent(body, operation.status);
  if ('reason' in made) return { reason: `${name}: ${made.reason}` };
  if (sentAt === undefined) return { reason: `${name}: the sync names no time it ended` };
  const uid = kubernetesUid(text(app, 'metadata', 'uid')) ?? '';
  // Its own id, never a webhook's (theirs end in the trigger): the store's key rules make it once.
  const deliveryId = derivedId('argocd', uid, text(body, 'operation', 'startedAt'), operation.status, 'catch-up');
  return { delivery: { source: 'argocd', deliveryId, events: [made.event] }, sentAt };
}

/**
 * The body the shipped template would have rendered for this operation (examples/receiver/
 * argocd-notifications-cm.yaml), of what `syncEvent` reads: the application's identity and
 * annotations, the source the operation synced (else the spec's), and the operation itself (its
 * phase and the application's health decide the status, which the caller knows already).
 */
function notification(app: unknown, operation: Operation, argocdUrl: string): unknown {
  const annotations = at(app, ['metadata', 'annotations']);
  const source = (field: string) => firstOf(text(operation.source, field), text(app, 'spec', 'source', field));
  return {
    trigger: TRIGGER[operation.status],
    app: {
      uid: at(app, ['metadata', 'uid']),
      name: at(app, ['metadata', 'name']),
      namespace: at(app, ['metadata', 'namespace']),
      project: at(app, ['spec', 'project']),
      environment: at(annotations, ['report-deployment/environment']),
      artifact: at(annotations, ['report-deployment/artifact']),
      repoURL: source('repoURL'),
      targetRevision: source('targetRevision'),
    },
    operation: {
      startedAt: operation.startedAt,
      finishedAt: operation.finishedAt,
      initiatedBy: operation.initiatedBy,
      revision: operation.revision,
      revisions: operation.revisions,
      syncingRevision: operation.syncingRevision,
    },
    syncRevision: operation.syncRevision,
    argocdUrl,
  };
}
