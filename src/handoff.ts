// What the main step hands to the post step, typed and encoded in one place (as actions/checkout's
// state-helper.ts keeps its state). The post step trusts nothing it reads back: state that does not
// decode to a Handoff is "unreadable", and nothing is sent.
import * as core from '@actions/core';
import { DeploymentStatuses, Limits, State, type DeploymentStatus } from './constants.js';
import { idFromJson, idProblem, idsJson, JsonNumber, parseJsonLosslessly, type DeploymentId } from './ids.js';

/** Why the post step has nothing to finish. */
export type NothingReason =
  /** The main step stopped on a configuration error. */
  | 'config-error'
  /** It could not record any deployment. */
  | 'not-recorded'
  /** It was given a status and sent it (`status` holds it). */
  | 'status-given'
  /** It updated `deployment-id` to the given status (`status` holds it). */
  | 'updated'
  /** It could not update any of `deployment-id`. */
  | 'not-updated'
  /** `status` was `skipped`: nothing was deployed. */
  | 'skipped'
  /** `deployment-id` was an empty list. */
  | 'no-ids';

export type Handoff =
  /** Set these deployments from the job status; the main step ran at `startedAt` (epoch ms). */
  | { kind: 'finish'; ids: DeploymentId[]; startedAt: number }
  /**
   * A dry run: the post step shows the updates it would send, for `ids` (deployment-id) or for the
   * `count` deployments a real main step would have created.
   */
  | { kind: 'finish-dry-run'; count: number; ids?: DeploymentId[] }
  | { kind: 'nothing'; reason: NothingReason; status?: DeploymentStatus };

/** What the post step reads back: a Handoff, no state at all, or state it cannot trust. */
export type ReadHandoff = Handoff | { kind: 'none' } | { kind: 'unreadable'; problem: string };

export function saveHandoff(handoff: Handoff): void {
  core.saveState(State.Handoff, encodeHandoff(handoff));
}

export function readHandoff(): ReadHandoff {
  return decodeHandoff(core.getState(State.Handoff));
}

export function encodeHandoff(handoff: Handoff): string {
  if (handoff.kind === 'finish') {
    return `{"kind":"finish","ids":${idsJson(handoff.ids)},"startedAt":${handoff.startedAt}}`;
  }
  if (handoff.kind === 'finish-dry-run' && handoff.ids) {
    return `{"kind":"finish-dry-run","count":${handoff.count},"ids":${idsJson(handoff.ids)}}`;
  }
  return JSON.stringify(handoff);
}

const REASONS = new Set<string>([
  'config-error',
  'not-recorded',
  'status-given',
  'updated',
  'not-updated',
  'skipped',
  'no-ids',
]);

export function decodeHandoff(text: string): ReadHandoff {
  if (text === '') return { kind: 'none' };
  let value: unknown;
  try {
    value = parseJsonLosslessly(text);
  } catch {
    return { kind: 'unreadable', problem: 'it is not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { kind: 'unreadable', problem: 'it is not an object' };
  }
  const state = value as Record<string, unknown>;
  switch (state.kind) {
    case 'finish': {
      const ids = decodeIds(state.ids);
      if (typeof ids === 'string') return { kind: 'unreadable', problem: ids };
      const startedAt = jsonNumber(state.startedAt);
      return { kind: 'finish', ids, startedAt: Number.isFinite(startedAt) && startedAt > 0 ? startedAt : 0 };
    }
    case 'finish-dry-run': {
      const count = jsonNumber(state.count);
      if (!(Number.isInteger(count) && count > 0 && count <= Limits.idsPerStep)) {
        return { kind: 'unreadable', problem: 'its count is no number of deployments' };
      }
      if (state.ids === undefined) return { kind: 'finish-dry-run', count };
      const ids = decodeIds(state.ids);
      return typeof ids === 'string' ? { kind: 'unreadable', problem: ids } : { kind: 'finish-dry-run', count, ids };
    }
    case 'nothing': {
      if (typeof state.reason !== 'string' || !REASONS.has(state.reason)) {
        return { kind: 'unreadable', problem: 'it gives no known reason' };
      }
      const status = DeploymentStatuses.find((known) => known === state.status);
      const reason = state.reason as NothingReason;
      return status ? { kind: 'nothing', reason, status } : { kind: 'nothing', reason };
    }
    default:
      return { kind: 'unreadable', problem: 'it names no known kind' };
  }
}

/** The ids of the state, or why they are none. */
function decodeIds(raw: unknown): DeploymentId[] | string {
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > Limits.idsPerStep) {
    return 'its ids are no list of deployment ids';
  }
  const ids = raw.map((value: unknown) => idFromJson(value));
  if (ids.some((id) => !id || idProblem(id.text))) return 'it holds a value that is no deployment id';
  return ids as DeploymentId[];
}

/** A JSON number's value; NaN for anything else (never String(), which runs the state's own toString). */
function jsonNumber(value: unknown): number {
  return value instanceof JsonNumber ? Number(value.source) : NaN;
}
