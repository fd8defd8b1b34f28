// How either step starts and ends: the key masked before anything is printed, and a bug of ours
// reported without blocking the deployment (unless fail-on-error asks for it).
import * as core from '@actions/core';
import { Inputs } from './constants.js';
import { openLog, type Log } from './log.js';
import { applyFailurePolicy } from './report.js';
import { createTracker, type Tracker } from './service.js';
import { readBoolean, type Connection, type InputReader } from './settings.js';

export const readInput: InputReader = (name) => core.getInput(name);

export async function runStep(step: (log: Log) => Promise<void>): Promise<void> {
  const log = openLog(readInput(Inputs.ApiKey));
  try {
    await step(log);
  } catch (error) {
    const trace = error instanceof Error ? (error.stack ?? error.message) : String(error);
    const lines = ['report-deployment stopped unexpectedly (a bug: please report it):', ...trace.split('\n')];
    applyFailurePolicy([lines], failOnError(), log);
  }
}

function failOnError(): boolean {
  try {
    return readBoolean(readInput, Inputs.FailOnError);
  } catch {
    return false;
  }
}

/** Runs `use` with a tracker for the service, and closes its connections after. */
export async function withTracker<T>(
  connection: Connection,
  log: Log,
  use: (tracker: Tracker) => Promise<T>,
): Promise<T> {
  // Loaded only when a request is sent: the HTTP client is most of a step's start-up time.
  const { createHttpClient } = await import('./http.js');
  const http = await createHttpClient({ ...connection, log });
  try {
    return await use(createTracker(http, connection));
  } finally {
    await http.close();
  }
}
