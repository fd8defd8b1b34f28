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
  const end = codePointEnd(text, max);
  return end === text.length ? text : text.slice(0, end).trim();
}

/**
 * Where the first `max` code points of a well-formed `text` end, in UTF-16 units: walked once, up to
 * `max`, with no array of code points built (a 1 MiB field costs no million-element array).
 */
function codePointEnd(text: string, max: number): number {
  // Fewer units than `max` are fewer code points too.
  if (text.length <= max) return text.length;
  let end = 0;
  for (let count = 0; count < max && end < text.length; count++) {
    const unit = text.charCodeAt(end);
    // A high surrogate here is always followed by its low one: the text is well formed.
    end += unit >= 0xd800 && unit <= 0xdbff ? 2 : 1;
  }
  return end;
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
  const whole = link ? clean(link, Infinity) : '';
  return {
    ...event,
    key: clean(event.key),
    object: clean(event.object),
    fields: {
      ...(cut as typeof fields),
      ...(whole && codePointEnd(whole, FIELD_LENGTH) === whole.length ? { link: whole } : {}),
    },
    ...(event.baseline ? { baseline: { ...event.baseline, object: clean(event.baseline.object) } } : {}),
  };
}

/**
 * A sender's instance as a key names it: the host (with its port) and any path, in lower case, from
 * a URL (`https://gitlab.example.com/gitlab` → `gitlab.example.com/gitlab`) or a bare host name.
 * Undefined for anything else: a value that is no http(s) URL or host, or holds a user or a query.
 */
export function instanceOf(value: string): string | undefined {
  const url = URL.parse(/^https?:\/\//i.test(value) ? value : `https://${value}`);
  if (!url || url.username || url.password || url.search || url.hash || !/^https?:$/.test(url.protocol))
    return undefined;
  const instance = `${url.host}${url.pathname.replace(/\/+$/, '')}`.toLowerCase();
  return /^[a-z0-9.-]+(:\d+)?(\/[\x21-\x7e]*)?$/.test(instance) && instance.length <= 200 ? instance : undefined;
}
