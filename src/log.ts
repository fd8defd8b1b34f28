// The action's log: the one place where text reaches the runner. Whatever a value holds (an input, an
// id, a service's answer), the runner sees only the commands this action means to send:
// - a string is one line: CR, LF and other control characters in it are shown escaped (`\n`);
// - the API key is scrubbed in every form a service might echo it, also where the runner's mask is
//   absent (local runs, other tools);
// - a plain line the runner would read as a command (`::name::` at its start, `##[name]` anywhere)
//   is printed between `::stop-commands::` and its token, so the runner shows it and runs nothing.
import * as core from '@actions/core';

/** One line, or several. */
export type Lines = string | readonly string[];

export interface Log {
  info(text: Lines): void;
  /** A warning annotation. */
  warning(text: Lines): void;
  /** An error annotation, and the step fails. */
  fail(text: Lines): void;
  /** Shown only with debug logging on (`RUNNER_DEBUG=1`). */
  debug(text: Lines): void;
  /** One line as the log would print it: for text that goes elsewhere (outputs, the job summary). */
  clean(this: void, line: string): string;
}

/** Masks the key (before anything else is printed) and returns the log that scrubs it. */
export function openLog(apiKey: string): Log {
  for (const form of secretForms(apiKey)) core.setSecret(form);
  const scrub = scrubber(apiKey);
  const clean = (line: string) => showControls(scrub(line));
  const lines = (text: Lines) => (typeof text === 'string' ? [text] : text).map(clean);
  return {
    info: (text) => lines(text).forEach(printPlain),
    warning: (text) => core.warning(lines(text).join('\n')),
    fail: (text) => core.setFailed(lines(text).join('\n')),
    debug: (text) => {
      if (core.isDebug()) core.debug(lines(text).join('\n'));
    },
    clean,
  };
}

/**
 * The key as is, and as a service might echo it: JSON-escaped (also ASCII-only), URL-encoded,
 * HTML-escaped; each line of it, should it hold one. Longest first, so no form is half-replaced.
 */
export function secretForms(secret: string): string[] {
  if (!secret) return [];
  secret = secret.toWellFormed();
  const json = JSON.stringify(secret).slice(1, -1);
  const asciiJson = json.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const html = secret.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const lines = secret.split(/[\r\n]+/).filter((line) => line.trim() !== '');
  const forms = new Set([secret, json, asciiJson, encodeURIComponent(secret), html, ...lines]);
  return [...forms].sort((a, b) => b.length - a.length);
}

/** The key's scrubbing alone, for text that is cut before it is printed: scrub first, then cut. */
export function scrubber(secret: string): (text: string) => string {
  const forms = secretForms(secret);
  return (text) => {
    const scrubbed = forms.reduce((result, form) => result.replaceAll(form, '***'), text);
    // Any other way of escaping the key (named HTML entities, \u escapes in upper case, \/, once
    // or twice over): if the text, unescaped, still holds it, none of the text is shown.
    return secret && unescapings(scrubbed).some((form) => form.includes(secret)) ? HIDDEN : scrubbed;
  };
}

const HIDDEN = '*** (not shown: it held the API key in an escaped form)';

/** The text with JSON, HTML and URL escapes undone, once and twice. */
function unescapings(text: string): string[] {
  const once = unescapeText(text);
  return [once, unescapeText(once)];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescapeText(text: string): string {
  return text
    .replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/\\([\\/"'])/g, '$1')
    .replace(
      /&(?:#(\d{1,7})|#x([0-9a-fA-F]{1,6})|(amp|lt|gt|quot|apos));/g,
      (entity: string, dec?: string, hex?: string, name?: string) => {
        if (name) return ENTITIES[name] ?? entity;
        const code = dec ? Number(dec) : parseInt(hex ?? '', 16);
        return code <= 0x10ffff ? String.fromCodePoint(code) : entity;
      },
    )
    .replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => Buffer.from(run.replaceAll('%', ''), 'hex').toString('utf8'));
}

/**
 * Whether `text` (an id) holds the key in any form the log would hide. A key under 6 characters
 * only when it is the whole text: a short key would otherwise be found in most ids.
 */
export function holdsSecret(text: string, secret: string): boolean {
  if (!secret) return false;
  if (secret.length < 6) return text === secret;
  return scrubber(secret)(text) !== text;
}

// Control characters (but tab), invisible format characters (bidi overrides, zero-width) and the
// Unicode line and paragraph separators.
const CONTROLS = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r' };

/** Makes every control character visible, so that a value can never start a line of its own. */
export function showControls(line: string): string {
  return line.replace(CONTROLS, (c) => {
    if (c === '\t') return c;
    const code = c.codePointAt(0) ?? 0;
    return NAMED[c] ?? (code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`);
  });
}

/** What the runner would take for a command: `::` first (after white space), or `##[` anywhere. */
export function looksLikeCommand(line: string): boolean {
  return /^\s*::/.test(line) || line.includes('##[');
}

function printPlain(line: string): void {
  if (!looksLikeCommand(line)) return core.info(line);
  // globalThis.crypto, not node:crypto: loaded only here, not by every step at start.
  const token = crypto.randomUUID();
  core.info(`::stop-commands::${token}`);
  core.info(line);
  core.info(`::${token}::`);
}
