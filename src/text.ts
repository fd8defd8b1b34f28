// Values in messages: never longer than a reader can take.
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
