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

/**
 * Whether `text` shows nothing: made only of white space (every Unicode kind: U+00A0, U+2028, U+3000,
 * ...), control characters, and characters that display as nothing (U+FEFF, U+200B, the Hangul
 * fillers, bidi marks). A name like that names no one: where a default is blank, the next source stands in.
 */
export function isBlank(text: string): boolean {
  return BLANK.test(text);
}

const BLANK = /^[\p{White_Space}\p{Cc}\p{Default_Ignorable_Code_Point}]*$/u;

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
