// What the main and the post step do alike: read inputs, mask the key, report failures.
import * as core from '@actions/core';
import { Inputs } from './constants.js';
import { createLog, type Log } from './log.js';
import type { Connection, InputReader } from './inputs.js';
import { createTracker, type Tracker } from './service.js';

export const readInput: InputReader = (name) => core.getInput(name);

/** Masks the API key before anything else is logged, and returns the step's log. */
export function startStep(): Log {
  const apiKey = readInput(Inputs.ApiKey);
  if (apiKey) core.setSecret(apiKey);
  return createLog(apiKey);
}

/**
 * Fail-open: a service that cannot be reached or refuses is a warning, so the tracker never blocks a
 * deployment, unless `fail-on-error` asks for the step to fail.
 */
export function reportServiceFailure(message: string, failOnError: boolean, log: Log): void {
  if (failOnError) core.setFailed(log.redact(message));
  else log.warning(`${message}\nThe step goes on (fail-on-error is false).`);
}

/** For a bug of ours: never blocks a deployment unless fail-on-error asks for it. */
export function reportUnexpected(error: unknown): void {
  const message = `report-deployment stopped unexpectedly: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
  const log = createLog(readInput(Inputs.ApiKey));
  reportServiceFailure(message, readInput(Inputs.FailOnError).toLowerCase() === 'true', log);
}

/** Runs `use` with a tracker for the service, and closes its connections after. */
export async function withTracker<T>(
  connection: Connection,
  log: Log,
  use: (tracker: Tracker) => Promise<T>,
): Promise<T> {
  // Loaded only when a request is sent: undici is most of a step's start-up time.
  const { createHttpClient } = await import('./http.js');
  const http = createHttpClient({ timeoutMs: connection.timeoutMs, retries: connection.retries, log });
  try {
    return await use(createTracker(http, connection.baseUrl, connection.apiKey));
  } finally {
    await http.close();
  }
}

/** "deployment 7" or "deployments 7, 8", for log lines. */
export function deploymentsText(ids: readonly (string | number)[]): string {
  return `${ids.length === 1 ? 'deployment' : 'deployments'} ${ids.join(', ')}`;
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
