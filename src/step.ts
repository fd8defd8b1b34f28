// How either step starts and ends: the key masked before anything is printed, and a bug of ours
// reported without blocking the deployment (unless fail-on-error asks for it).
import * as core from '@actions/core';
import { Inputs } from './constants.js';
import { openLog, type Log } from './log.js';
import { applyFailurePolicy } from './report.js';
import { readBoolean, type InputReader } from './settings.js';

export const readInput: InputReader = (name) => core.getInput(name);

/**
 * The two inputs read outside settings.ts, and why: the key, to mask it before anything else can be
 * printed (settings may fail); fail-on-error, to apply it to a bug of ours wherever it happened.
 */
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
