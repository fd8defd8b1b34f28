// Values in messages: never longer than a reader can take; and the words for a bug of ours.
import { Limits } from './constants.js';

/** At most `max` characters, and `mark` where it was cut. */
export function shorten(text: string, max: number, mark = '…'): string {
  return text.length > max ? `${text.slice(0, max)}${mark}` : text;
}

/** A value in a message: quoted, and shortened when long. */
export function quote(value: string, max: number = Limits.quotedValueLength): string {
  return `'${shorten(value, max)}'`;
}

/** For the service's own words: says that they were cut. */
export const TRUNCATED = '… (truncated)';

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A bug of ours, said as one: `what` happened, then the stack trace. */
export function bugLines(what: string, error: unknown): string[] {
  const trace = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return [`${what} (a bug of report-deployment: please report it):`, ...trace.split('\n')];
}

/** Text as HTML shows it: `&`, `<`, `>` and quotes as numeric character references. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
