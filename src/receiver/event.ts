// What the receiver makes of one verified delivery, whatever its source: the deployment events it
// holds, each tied to the deployment it belongs to by a correlation key. Sources (sources/*.ts) make
// these; the store keeps them; the worker records them in the service.
import type { DeploymentStatus } from '../core/constants.js';

export type SourceName = 'github' | 'gitlab' | 'argocd' | 'flux';

/** The deployment's fields as the service takes them (`POST /deployment`), the artifact by name. */
export interface EventFields {
  artifactName: string;
  version: string;
  environment: string;
  commitSha: string;
  user: string;
  branch: string;
  changelog?: string;
  description?: string;
  link?: string;
}

export interface DeploymentEvent {
  /**
   * One deployment, across its deliveries: e.g. `github:<instance>:<repository id>:<deployment id>`,
   * `argocd:<application uid>:<operation startedAt>`, `flux:<object uid>:<revision>`.
   */
  key: string;
  status: DeploymentStatus;
  /** The source object the mapping file names (a repository, a project, an application, a Kustomization). */
  object: string;
  /** What tells two source objects of the same name apart (Flux: the uid and the Alert's cluster and environment metadata). */
  labels?: Readonly<Record<string, string>>;
  fields: EventFields;
  /**
   * Flux: the object's last-seen revision (rules.ts). `object` is the object's identity (its
   * name, uid and labels: one per cluster); `at` the event's own time, the object's order: an event
   * older than the one last seen is late and moves nothing. Where `repeats` (a periodic
   * ReconciliationSucceeded), an end with no start is a deployment only where the revision changed
   * since the one last seen, and the first sight of an object is its baseline; a Helm install,
   * upgrade or rollback happens once per change and is a deployment whatever the baseline.
   */
  baseline?: { object: string; revision: string; at: number; repeats: boolean };
}

/** The raw request a source checks and reads: headers lower-cased, the body's bytes as they came. */
export interface IncomingRequest {
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** Milliseconds since the epoch, for a signature's timestamp. */
  now: number;
}

/** What a source makes of a verified request. */
export type Parsed =
  /**
   * Stored, then answered 2xx. `deliveryId` deduplicates: a second delivery with it stores nothing;
   * so does `digestId` where the source gives one (GitHub: its signed body, under a fresh id).
   * `sentAt`: the payload's own time (ms since the epoch), where it has one; older than the
   * retention window, the delivery is stored nowhere (retention.ts).
   */
  | { verdict: 'accepted'; deliveryId: string; digestId?: string; events: DeploymentEvent[]; sentAt?: number }
  /** Well signed, but records nothing (a ping, a state that records nothing): 2xx, nothing stored. */
  | { verdict: 'ignored'; deliveryId: string; reason: string }
  /** Not what the source sends (malformed JSON, the wrong shape): a 4xx, nothing stored. */
  | { verdict: 'invalid'; reason: string };
