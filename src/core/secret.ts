// The API key in every form a service might echo it, and the scrubbing that hides it: also where a
// CI's own masking is absent (local runs, other CIs), and before any text is cut short.
import { decodeHtml } from '../deps/entities.cjs';
import { showControls } from './log.js';
import { escapeHtml, shorten } from './text.js';

/**
 * The key as is, and as a service might echo it: JSON-escaped (also ASCII-only), URL-encoded (its
 * bytes in UTF-8 and, for a key that has them, in Latin-1), form-encoded (`+` for a space),
 * HTML-escaped, as the log shows its control characters; each line of it, should it hold one.
 * Longest first, so no form is half-replaced.
 */
export function secretForms(secret: string): string[] {
  if (!secret) return [];
  secret = secret.toWellFormed();
  const json = JSON.stringify(secret).slice(1, -1);
  const asciiJson = json.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const html = escapeHtml(secret);
  const lines = secret.split(/[\r\n]+/).filter((line) => line.trim() !== '');
  // As the log shows it, for a key with a control character (C1, which a header can carry).
  const shown = showControls(secret);
  const forms = new Set([secret, json, asciiJson, html, shown, ...percentForms(secret), ...lines]);
  return [...forms].sort((a, b) => b.length - a.length);
}

// What each percent-encoding leaves as it is: encodeURIComponent, and HTML forms (the WHATWG
// application/x-www-form-urlencoded serializer, which writes a space as `+`).
const URI_KEEPS = /[A-Za-z0-9\-_.!~*'()]/;
const FORM_KEEPS = /[A-Za-z0-9\-_.*]/;

/** The key percent-encoded: its bytes in UTF-8, and in Latin-1 where a character is beyond ASCII. */
function percentForms(secret: string): string[] {
  const encode = (keeps: RegExp, bytes: (c: string) => Buffer, space: string) =>
    [...secret]
      .map((c) =>
        keeps.test(c)
          ? c
          : c === ' ' && space === '+'
            ? '+'
            : [...bytes(c)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
      )
      .join('');
  const utf8 = (c: string) => Buffer.from(c, 'utf8');
  const forms = [encode(URI_KEEPS, utf8, '%20'), encode(FORM_KEEPS, utf8, '+')];
  // A key no HTTP header can carry is refused; one that can is Latin-1 (each character one byte).
  if (/[\x80-\xff]/.test(secret) && !/[\u0100-\uffff]/.test(secret)) {
    const latin1 = (c: string) => Buffer.from(c, 'latin1');
    forms.push(encode(URI_KEEPS, latin1, '%20'), encode(FORM_KEEPS, latin1, '+'));
  }
  return forms;
}

/** The key's scrubbing alone, for text that is cut before it is printed: scrub first, then cut. */
export function scrubber(secret: string): (text: string) => string {
  const forms = secretForms(secret);
  const percents = percentDecodings(secret);
  return (text) => {
    const scrubbed = forms.reduce((result, form) => result.replaceAll(form, '***'), text);
    // Any other way of escaping the key (named HTML entities, \u escapes in upper case, \/, other
    // percent-encodings, once or twice over): if the text, unescaped, still holds it, none of the
    // text is shown.
    return secret && revealsKey(scrubbed, secret, percents) ? HIDDEN : scrubbed;
  };
}

/**
 * Text as a log line shows it, the key hidden: its control characters shown escaped (core/log.ts),
 * then scrubbed, since an escaped control character can spell the key (a key holding the text
 * `\u0007`, echoed with a raw BEL there). Whatever is cut short is cleaned first.
 */
export function cleaner(secret: string): (text: string) => string {
  const scrub = scrubber(secret);
  return (text) => scrub(showControls(text));
}

const HIDDEN = '*** (not shown: it held the API key in an escaped form)';

/** Text cleaned (as `cleaner` does), then cut to `max` characters with `mark` where it was cut. */
export type Cut = (text: string, max: number, mark?: string) => string;

/**
 * A cleaner for text that is cut before it is shown: only the part the cut can show is cleaned,
 * with a margin past it wide enough that any form of the key reaching the cut lies whole in it (an
 * echo escaped a few times over; a service bent on leaking the key it holds can always spell it
 * some other way). A service's 64 KiB answer then costs no more than its first few KiB: looking
 * for escaped forms of the key reads each text up to 64 times.
 */
export function cutter(secret: string): Cut {
  const scrub = scrubber(secret);
  // As cleaner() does, with the one scrubber.
  const clean = (text: string) => scrub(showControls(text));
  const margin = 64 * (secret.length + 16);
  return (text, max, mark = '…') => {
    if (text.length <= max + 2 * margin) return shorten(clean(text), max, mark);
    // Control characters shown first (cheap, and what the scrubbing reads), then the head scrubbed.
    const head = scrub(showControls(text).slice(0, max + 2 * margin));
    // A form of the key cut in two by that slice is in its last `margin` characters, untouched:
    // those are never shown. Should the scrubbing have shrunk the rest below `max` (a text of little
    // but the key), the whole text is cleaned.
    if (head === HIDDEN) return HIDDEN;
    const safe = head.slice(0, -margin);
    return safe.length >= max ? `${safe.slice(0, max)}${mark}` : shorten(clean(text), max, mark);
  };
}

/** A way to read percent-encoding: the bytes' charset, and whether `+` is a space (form-encoding). */
interface PercentDecoding {
  charset: BufferEncoding;
  plus: boolean;
}

/** The readings of percent-encoding that can reveal this key: Latin-1 only for a key beyond ASCII, `+` only for a key with a space. */
function percentDecodings(secret: string): PercentDecoding[] {
  const charsets: BufferEncoding[] = /[\x80-\xff]/.test(secret) ? ['utf8', 'latin1'] : ['utf8'];
  const pluses = secret.includes(' ') ? [false, true] : [false];
  return charsets.flatMap((charset) => pluses.map((plus) => ({ charset, plus })));
}

/** One escaping a service may have applied: where the text shows a sign of it, and how to undo it once. */
interface Unescaping {
  applies(text: string): boolean;
  undo(text: string): string;
}

/** The most readings of one text tried; a text with more is not shown (more is hidden than needed, never less). */
const READINGS = 64;

/**
 * Whether undoing the escapes the text may hold reveals the key: JSON's, HTML's character
 * references, percent-encoding, in any order, up to 4 in a row (escaped twice, in JSON, in a URL),
 * and a control character so undone shown as the log shows it.
 */
function revealsKey(text: string, secret: string, percents: readonly PercentDecoding[]): boolean {
  const unescapings: Unescaping[] = [
    // Not an unescaping but the log's own escaping: a control character, once unescaped, is shown
    // as `\u0007`, which may be what the key holds.
    { applies: (value) => showControls(value) !== value, undo: showControls },
    { applies: (value) => value.includes('\\'), undo: unescapeJson },
    { applies: (value) => value.includes('&'), undo: unescapeHtml },
    ...percents.map((decoding) => ({
      applies: (value: string) => /%[0-9a-fA-F]{2}/.test(value) || (decoding.plus && value.includes('+')),
      undo: (value: string) => unescapePercent(value, decoding),
    })),
  ];
  const seen = new Set([text]);
  let readings = [text];
  for (let depth = 0; depth < 4 && readings.length > 0; depth++) {
    const next: string[] = [];
    for (const reading of readings) {
      for (const unescaping of unescapings) {
        if (!unescaping.applies(reading)) continue;
        const undone = unescaping.undo(reading);
        if (seen.has(undone)) continue;
        if (undone.includes(secret) || seen.size >= READINGS) return true;
        seen.add(undone);
        next.push(undone);
      }
    }
    readings = next;
  }
  return false;
}

const JSON_ESCAPES: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** JSON's escapes (also `\'`, and `\u` in either case), read once, left to right; any other backslash stays. */
function unescapeJson(text: string): string {
  return text.replace(/\\(?:u([0-9a-fA-F]{4})|(["\\/'bfnrt]))/g, (_, hex?: string, char?: string) =>
    hex ? String.fromCharCode(parseInt(hex, 16)) : (JSON_ESCAPES[char as string] ?? (char as string)),
  );
}

/**
 * HTML's character references as a browser reads them in text: numeric ones, and every named one
 * of HTML5 (about 2200, some without `;`), by the `entities` package, loaded only when there is one.
 */
function unescapeHtml(text: string): string {
  return text.includes('&') ? decodeHtml(text) : text;
}

function unescapePercent(text: string, { charset, plus }: PercentDecoding): string {
  const spaced = plus ? text.replaceAll('+', ' ') : text;
  return spaced.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) =>
    Buffer.from(run.replaceAll('%', ''), 'hex').toString(charset),
  );
}

/**
 * Whether `text` (an id) holds the key in any form the log would hide. A key under 6 characters
 * only when it is the whole text: a short key would otherwise be found in most ids.
 */
export function holdsSecret(text: string, secret: string): boolean {
  if (!secret) return false;
  if (secret.length < 6) return text === secret;
  return cleaner(secret)(text) !== showControls(text);
}
