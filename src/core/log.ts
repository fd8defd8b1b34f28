// The log every message goes through, whichever face prints it, and what keeps a value harmless on
// its line: a value is one line (control characters shown escaped), the key is scrubbed, and a line
// a CI would read as a command of its own is printed so that it is shown, not run.

/** One line, or several. */
export type Lines = string | readonly string[];

export interface Log {
  info(text: Lines): void;
  /** Something the reader should act on; the run goes on. */
  warning(text: Lines): void;
  /** Shown only with debug logging on; a function is called only then (for text that costs to make). */
  debug(text: Lines | (() => Lines)): void;
  /** One line as the log would print it: for text that goes elsewhere (outputs, a job summary). */
  clean(this: void, line: string): string;
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

/** What the GitHub runner would take for a workflow command: `::` first (after white space), or `##[` anywhere. */
export function looksLikeCommand(line: string): boolean {
  return /^\s*::/.test(line) || line.includes('##[');
}

/**
 * The lines that print `line` so that the GitHub runner shows it and runs nothing: as is, or between
 * `::stop-commands::` and a random token when it looks like a command.
 */
export function inertLines(line: string): string[] {
  if (!looksLikeCommand(line)) return [line];
  // globalThis.crypto, not node:crypto: loaded only here, not by every step at start.
  const token = crypto.randomUUID();
  return [`::stop-commands::${token}`, line, `::${token}::`];
}
