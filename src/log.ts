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
  const forms = secretForms(apiKey);
  for (const form of forms) core.setSecret(form);
  const clean = (line: string) => showControls(scrub(line, forms));
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

function scrub(text: string, forms: readonly string[]): string {
  return forms.reduce((result, form) => result.replaceAll(form, '***'), text);
}

/** The key's scrubbing alone, for text that is cut before it is printed: scrub first, then cut. */
export function scrubber(secret: string): (text: string) => string {
  const forms = secretForms(secret);
  return (text) => scrub(text, forms);
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
