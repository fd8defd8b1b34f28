// What a report is asked to do, decided from the settings alone (pure): create deployments, update
// given ones now, leave given ones to be finished later, or nothing (and why).
import type { DeploymentStatus } from './constants.js';
import { createBody, type CreateBody } from './deployment.js';
import type { DeploymentId } from './ids.js';
import type { Request } from './request.js';
import type { CommonSettings } from './settings.js';
import type { NothingToRecord } from './status.js';

/** Why nothing is recorded: the status says so, `deployment-id` is an empty list, or the key is withheld. */
type NothingReason =
  | { reason: 'skipped' | 'not-final'; word: string }
  | { reason: 'not-yet'; why: string }
  | { reason: 'no-ids' }
  | { reason: 'no-key'; warning: string };

export type Plan =
  /** Create one deployment per artifact; `finishLater` when no status was given. */
  | { kind: 'create'; status: DeploymentStatus; bodies: CreateBody[]; finishLater: boolean }
  /** `deployment-id` with `status`: update them now. */
  | { kind: 'update'; status: DeploymentStatus; ids: DeploymentId[] }
  /** `deployment-id` without `status`: finish them later (the post step, the wrapped command's end). */
  | { kind: 'finish-later'; ids: DeploymentId[] }
  | ({ kind: 'nothing' } & NothingReason);

export function plan(settings: CommonSettings, request: Request): Plan {
  const { status, deploymentIds, artifacts, fields } = request;
  if (settings.noKey !== undefined) return { kind: 'nothing', reason: 'no-key', warning: settings.noKey };
  if (typeof status === 'object') return { kind: 'nothing', ...nothingReason(status) };
  if (deploymentIds?.length === 0) return { kind: 'nothing', reason: 'no-ids' };
  if (deploymentIds) {
    return status ? { kind: 'update', status, ids: deploymentIds } : { kind: 'finish-later', ids: deploymentIds };
  }
  if (!fields) throw new Error('plan: creating deployments needs their fields');
  const sent = status ?? 'STARTED';
  return {
    kind: 'create',
    status: sent,
    bodies: artifacts.map((artifact) => createBody(artifact, fields, sent)),
    finishLater: status === undefined,
  };
}

function nothingReason(status: NothingToRecord): NothingReason {
  return status.nothing === 'not-yet'
    ? { reason: 'not-yet', why: status.why }
    : { reason: status.nothing, word: status.word };
}
