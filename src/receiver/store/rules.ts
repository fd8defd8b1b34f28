// The rules every store applies as events arrive, whatever its engine: a status never moves
// backwards, an end is final, and Flux's first sight of an object is no deployment. Pure.
import type { DeploymentStatus } from '../../core/constants.js';
import type { DeploymentEvent } from '../event.js';

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

/** Why an arriving event is stored `skipped` rather than queued; undefined to queue it. */
export function skipReason(
  event: Pick<DeploymentEvent, 'status' | 'baseline'>,
  key: KeySoFar,
  /** The object's last-seen revision before this event (Flux); undefined where never seen. */
  lastRevision: string | undefined,
): string | undefined {
  if (rank(key.accepted) === 2) return `the deployment has ended already (${key.accepted})`;
  if (rank(event.status) <= rank(key.accepted)) return `the deployment is ${key.accepted} already`;
  // An end that started nothing is a deployment only where the revision changed.
  if (event.baseline && key.accepted === undefined && event.status !== 'STARTED') {
    if (lastRevision === undefined)
      return `the first sight of ${event.baseline.object} is its baseline, not a deployment`;
    if (lastRevision === event.baseline.revision) return `${event.baseline.object} is still at that revision`;
  }
  return undefined;
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
