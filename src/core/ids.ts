// Deployment ids, kept exactly as the service returned them: a JSON number keeps its digits (no
// rounding past 2^53), a string its text. An id must fit the protocol: a path segment of
// `/deployment/{id}`, a line of the log or of the CLI's stdout, a value of the step's state, and
// the same id again when a later job passes either output back as `deployment-id` (a list, or a
// JSON array, of ids).
import { Limits } from './constants.js';
import { JsonNumber } from './json.js';
import { looksLikeCommand } from './log.js';

export interface DeploymentId {
  /** The id's digits (a JSON number) or its text (a JSON string). */
  readonly text: string;
  readonly numeric: boolean;
}

export const textId = (text: string): DeploymentId => ({ text, numeric: false });

/** A value of a parsed answer or input as an id, or undefined when it is neither a string nor a number. */
export function idFromJson(value: unknown): DeploymentId | undefined {
  if (value instanceof JsonNumber) return { text: value.source, numeric: true };
  if (typeof value === 'string') return textId(value);
  return undefined;
}

const FORBIDDEN = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

/** Why this text cannot be a deployment id; undefined when it can. */
export function idProblem(text: string): string | undefined {
  if (text.trim() === '') return 'is empty';
  if (text.length > Limits.idLength) return `is ${text.length} characters long (at most ${Limits.idLength})`;
  if (FORBIDDEN.test(text)) return 'holds control characters';
  // A lone surrogate cannot be URL-encoded, nor written as UTF-8.
  if (!text.isWellFormed()) return 'is not valid Unicode text';
  // As a path segment, `.` and `..` would leave /deployment/{id}.
  if (text === '.' || text === '..') return `is '${text}', which is no deployment but a path`;
  // Printed alone on a line (the CLI's stdout, for `ID=$(...)`), it would be a workflow command.
  if (looksLikeCommand(text)) return 'would be read as a workflow command by the GitHub runner';
  // What `deployment-id` would read otherwise in a later job: its ends trimmed (by the runner's
  // toolkit), a list split on commas, a JSON array.
  if (text.trim() !== text) return 'has white space at its ends, which a later job would not read back';
  if (text.includes(',')) return 'holds a comma, which a later job would read as two ids';
  if (text.startsWith('[')) return "starts with '[', which a later job would read as a JSON array";
  return undefined;
}

/** `[7,"a1"]`: the ids as the `deployment-ids` output and the step state carry them. */
export function idsJson(ids: readonly DeploymentId[]): string {
  return `[${ids.map((id) => (id.numeric ? id.text : JSON.stringify(id.text))).join(',')}]`;
}
