// What the main step hands to the post step, typed and encoded in one place (as actions/checkout's
// state-helper.ts keeps its state): the deployments it left open, or the line that says why there
// are none. The post step trusts nothing it reads back: state that does not decode is
// "unreadable", and nothing is sent.
import * as core from '@actions/core';
import { Limits } from '../core/constants.js';
import { idFromJson, idProblem, idsJson, type DeploymentId } from '../core/ids.js';
import { isObject, JsonNumber, parseJsonLosslessly } from '../core/json.js';
import type { Open } from '../core/outcome.js';
import { State } from './names.js';
import { appendToRunnerFile, keyValueBlocks } from './runner-files.js';

export type Handoff = Open | { note: string };

/** What the post step reads back: a Handoff, no state at all, or state it cannot trust. */
export type ReadHandoff = Handoff | { none: true } | { unreadable: string };

/** The longest note read back: a sentence of ours. */
const NOTE_LENGTH = 1000;

/** Hands `handoff` to the post step; a later call wins (the runner keeps a name's last value). */
export function saveHandoff(handoff: Handoff): void {
  const value = encodeHandoff(handoff);
  if (process.env.GITHUB_STATE) appendToRunnerFile('GITHUB_STATE', keyValueBlocks({ [State.Handoff]: value }));
  else core.saveState(State.Handoff, value);
}

export function readHandoff(): ReadHandoff {
  return decodeHandoff(core.getState(State.Handoff));
}

export function encodeHandoff(handoff: Handoff): string {
  if ('note' in handoff) return JSON.stringify({ kind: 'nothing', note: handoff.note });
  if (!handoff.dryRun) return `{"kind":"finish","ids":${idsJson(handoff.ids)},"startedAt":${handoff.startedAt}}`;
  const ids = handoff.ids ? `,"ids":${idsJson(handoff.ids)}` : '';
  return `{"kind":"finish-dry-run","count":${handoff.count}${ids}}`;
}

export function decodeHandoff(text: string): ReadHandoff {
  if (text === '') return { none: true };
  let value: unknown;
  try {
    value = parseJsonLosslessly(text);
  } catch {
    return { unreadable: 'it is not JSON' };
  }
  if (!isObject(value)) return { unreadable: 'it is not an object' };
  switch (value.kind) {
    case 'finish': {
      const ids = decodeIds(value.ids);
      if (typeof ids === 'string') return { unreadable: ids };
      const startedAt = jsonNumber(value.startedAt);
      return { dryRun: false, ids, startedAt: Number.isFinite(startedAt) && startedAt > 0 ? startedAt : 0 };
    }
    case 'finish-dry-run': {
      const count = jsonNumber(value.count);
      if (!(Number.isInteger(count) && count > 0 && count <= Limits.idsPerStep)) {
        return { unreadable: 'its count is no number of deployments' };
      }
      if (value.ids === undefined) return { dryRun: true, count };
      const ids = decodeIds(value.ids);
      return typeof ids === 'string' ? { unreadable: ids } : { dryRun: true, count, ids };
    }
    case 'nothing':
      return typeof value.note === 'string' && value.note.length <= NOTE_LENGTH
        ? { note: value.note }
        : { unreadable: 'it gives no note' };
    default:
      return { unreadable: 'it names no known kind' };
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
