// The action's log: the one place where text reaches the runner. Whatever a value holds (an input, an
// id, a service's answer), the runner sees only the commands this action means to send (see
// core/log.ts): the key masked first and scrubbed in every form, control characters shown escaped,
// and a plain line the runner would read as a command printed between `::stop-commands::` and its
// token.
import * as core from '@actions/core';
import { inertLines, type Lines, type Log } from '../core/log.js';
import { cleaner, secretForms } from '../core/secret.js';

export interface ActionLog extends Log {
  /** An error annotation, and the step fails. */
  fail(text: Lines): void;
}

/** Masks the key (before anything else is printed) and returns the log that scrubs it. */
export function openLog(apiKey: string): ActionLog {
  for (const form of secretForms(apiKey)) core.setSecret(form);
  // The text as it is finally shown: scrubbed after every escaping the log applies, too.
  const clean = cleaner(apiKey);
  const lines = (text: Lines) => (typeof text === 'string' ? [text] : text).map(clean);
  return {
    info: (text) =>
      lines(text)
        .flatMap(inertLines)
        .forEach((line) => core.info(line)),
    warning: (text) => core.warning(lines(text).join('\n')),
    fail: (text) => core.setFailed(lines(text).join('\n')),
    debug: (text) => {
      if (core.isDebug()) core.debug(lines(typeof text === 'function' ? text() : text).join('\n'));
    },
    clean,
  };
}
