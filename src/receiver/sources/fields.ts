// What a source may take from a sender's JSON: strings only, bounded, with no character that could
// break a log line or a terminal. Every value that reaches an event passes through here, so that no
// payload, however hostile, puts a number, an object or a forged line into the service.
import { isObject } from '../../core/json.js';
import type { DeploymentEvent } from '../event.js';

/** Characters of one field; a longer value is cut (a URL or a commit title never needs more). */
export const FIELD_LENGTH = 1000;

// C0 and C1 controls, DEL, the Unicode line and paragraph separators, and the bidirectional
// overrides that make a log line read other than it is.
const UNSAFE = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]+/gu;

/** The value as one clean line: unsafe characters become one space, lone surrogates U+FFFD, cut to `max`. */
export function clean(value: string, max = FIELD_LENGTH): string {
  const text = value.toWellFormed().replace(UNSAFE, ' ').trim();
  // Cut on a code point, never inside a surrogate pair.
  return [...text].length > max ? [...text].slice(0, max).join('').trim() : text;
}

/** `value` at `path` when every step is an object and the end a string; '' otherwise. */
export function text(value: unknown, ...path: string[]): string {
  const found = at(value, path);
  return typeof found === 'string' ? clean(found) : '';
}

/** `value` at `path`, or undefined where a step is no object. */
export function at(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const name of path) {
    if (!isObject(current) || !Object.hasOwn(current, name)) return undefined;
    current = current[name];
  }
  return current;
}

/** The first of `values` that is not empty; '' when all are. */
export function firstOf(...values: string[]): string {
  return values.find((value) => value !== '') ?? '';
}

/** A positive whole number that JSON carries exactly (an id); undefined otherwise. */
export function wholeNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

/** A Kubernetes uid (a UUID as the API server writes it): the one shape a correlation key takes from it. */
export function kubernetesUid(value: unknown): string | undefined {
  return typeof value === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)
    ? value.toLowerCase()
    : undefined;
}

/** JSON.parse that never throws: undefined for a body that is no JSON (or no UTF-8). */
export function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body)) as unknown;
  } catch {
    return undefined;
  }
}

/** A header's one value: undefined when absent or sent more than once (a forged duplicate is no value). */
export function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** `{ [name]: value }` where the value is not empty; `{}` otherwise (optional fields are left out, never sent empty). */
export function optional<K extends string>(name: K, value: string): Partial<Record<K, string>> {
  return value ? ({ [name]: value } as Record<K, string>) : {};
}

/**
 * The event with every string within FIELD_LENGTH: values joined from several (an object's path, a
 * description) are cut like any other, and a link too long to keep whole is left out.
 */
export function bounded(event: DeploymentEvent): DeploymentEvent {
  const { link, ...fields } = event.fields;
  const cut = Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, clean(value)]));
  return {
    ...event,
    key: clean(event.key),
    object: clean(event.object),
    fields: { ...(cut as typeof fields), ...(link && [...link].length <= FIELD_LENGTH ? { link } : {}) },
    ...(event.baseline ? { baseline: { ...event.baseline, object: clean(event.baseline.object) } } : {}),
  };
}
