// The rules every store applies as events arrive, whatever its engine: a status never moves
// backwards, an end is final, Flux's first sight of an object is no deployment, and a Flux object's
// last-seen revision moves only forward in its own order. Pure.
import type { DeploymentStatus } from '../core/constants.js';
import type { DeploymentEvent } from './event.js';
import { SENDER_CLOCK_AHEAD_MS } from './retention.js';

/** STARTED before an end; SUCCEEDED and FAILED are both ends. */
function rank(status: DeploymentStatus | undefined | null): number {
  if (!status) return 0;
  return status === 'STARTED' ? 1 : 2;
}

/** What the store knows of a key when an event for it arrives. */
interface KeySoFar {
  /** The highest status accepted for the key; undefined for a key never seen. */
  accepted: DeploymentStatus | undefined;
}

/** Flux: the revision an object was last seen at, and the time of the event that said so (ms since the epoch). */
export interface LastSeen {
  revision: string;
  at: number;
}

/** Why an arriving event is stored `skipped` rather than queued; undefined to queue it. */
export function skipReason(
  event: Pick<DeploymentEvent, 'status' | 'baseline'>,
  key: KeySoFar,
  /** The object's last-seen revision before this event (Flux); undefined where never seen. */
  lastSeen: LastSeen | undefined,
  /** When the receiver took the event (ms since the epoch). */
  receivedAt: number,
): string | undefined {
  if (rank(key.accepted) === 2) return `the deployment has ended already (${key.accepted})`;
  if (rank(event.status) <= rank(key.accepted)) return `the deployment is ${key.accepted} already`;
  const baseline = event.baseline;
  // A deployment already under way takes its later events, whatever their time; a new one must be
  // newer than what the object said last (a late or replayed event is of a revision it has left).
  if (!baseline || key.accepted !== undefined) return undefined;
  const at = orderTime(baseline.at, receivedAt);
  if (lastSeen && at < lastSeen.at)
    return `${baseline.object} sent a later event already (at ${iso(lastSeen.at)}; this one is of ${iso(at)}): a late or replayed event`;
  if (lastSeen && yieldsTie(event, baseline, lastSeen, at))
    return `${baseline.object} was seen at another revision in the same second (${iso(at)}): an end Flux repeats at every interval does not take its place`;
  // An end that started nothing is a deployment only where the revision changed, for the reasons
  // Flux repeats at every interval.
  if (event.status === 'STARTED' || !baseline.repeats) return undefined;
  if (lastSeen === undefined) return `the first sight of ${baseline.object} is its baseline, not a deployment`;
  if (lastSeen.revision === baseline.revision) return `${baseline.object} is still at that revision`;
  return undefined;
}

/** The object's last-seen revision once the event is taken: it moves only forward in the object's own order. */
export function seenAfter(
  event: Pick<DeploymentEvent, 'status'> & { baseline: NonNullable<DeploymentEvent['baseline']> },
  lastSeen: LastSeen | undefined,
  /** When the receiver took the event (ms since the epoch). */
  receivedAt: number,
): LastSeen {
  const at = orderTime(event.baseline.at, receivedAt);
  if (lastSeen && (at < lastSeen.at || yieldsTie(event, event.baseline, lastSeen, at))) return lastSeen;
  return { revision: event.baseline.revision, at };
}

/**
 * An event's place in its object's order: its own time, but no further ahead of the receiver's clock
 * than a sender's may run, so that a controller clock that ran ahead (then was set right) cannot hold
 * the object's order, and skip every event after it, for as long as it ran ahead.
 */
export function orderTime(at: number, receivedAt: number): number {
  return Math.min(at, receivedAt + SENDER_CLOCK_AHEAD_MS);
}

/**
 * Flux's times are to the second: in the second the object was last seen, an end Flux repeats at
 * every interval for another revision may be a late one of the revision it left. It yields: the
 * revision seen first keeps its place (a change, a start or a Helm action, takes the place).
 */
function yieldsTie(
  event: Pick<DeploymentEvent, 'status'>,
  baseline: NonNullable<DeploymentEvent['baseline']>,
  lastSeen: LastSeen,
  at: number,
): boolean {
  return (
    at === lastSeen.at && baseline.revision !== lastSeen.revision && baseline.repeats && event.status !== 'STARTED'
  );
}

function iso(ms: number): string {
  return Number.isFinite(ms) ? new Date(ms).toISOString() : String(ms);
}

/** What a claimed item asks of the service, given what the service has for its key. */
export type Step =
  | { kind: 'create'; status: DeploymentStatus }
  | { kind: 'update'; status: DeploymentStatus }
  | { kind: 'skip'; reason: string };

export function nextStep(
  status: DeploymentStatus,
  recorded: DeploymentStatus | undefined,
  hasServiceId: boolean,
): Step {
  if (rank(status) <= rank(recorded)) return { kind: 'skip', reason: `the service has ${recorded} already` };
  return hasServiceId ? { kind: 'update', status } : { kind: 'create', status };
}
