// The action's log. Every line goes through here so the API key is scrubbed from it even where it
// comes from outside (a service that echoes the key in an error), and the runner's mask is not there
// to catch it (local runs, debug logging).
import * as core from '@actions/core';

export interface Log {
  info(message: string): void;
  warning(message: string): void;
  error(message: string): void;
  debug(message: string): void;
  /** The same scrubbing, for text that goes elsewhere (outputs, the job summary). */
  redact(text: string): string;
}

export function createLog(secret: string): Log {
  const redact = (text: string) => (secret ? text.replaceAll(secret, '***') : text);
  return {
    info: (message) => core.info(redact(message)),
    warning: (message) => core.warning(redact(message)),
    error: (message) => core.error(redact(message)),
    debug: (message) => core.debug(redact(message)),
    redact,
  };
}
