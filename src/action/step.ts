// How either step starts and ends: the key masked before anything is printed, and a bug of ours
// reported without blocking the deployment (unless fail-on-error asks for it).
import { Settings } from '../core/constants.js';
import { readBoolean } from '../core/settings.js';
import { bugLines } from '../core/text.js';
import { readInput } from './inputs.js';
import { ACTION_WORDS } from './words.js';
import { openLog, type ActionLog } from './log.js';
import { applyFailurePolicy } from './report.js';

/**
 * The two inputs read outside the settings, and why: the key, to mask it before anything else can be
 * printed (settings may fail); fail-on-error, to apply it to a bug of ours wherever it happened.
 */
export async function runStep(step: (log: ActionLog) => Promise<void>): Promise<void> {
  const log = openLog(readInput(Settings.ApiKey));
  try {
    await step(log);
  } catch (error) {
    applyFailurePolicy([bugLines('report-deployment stopped unexpectedly', error)], failOnError(), log);
  }
}

function failOnError(): boolean {
  try {
    return readBoolean({ get: readInput, words: ACTION_WORDS }, Settings.FailOnError);
  } catch {
    return false;
  }
}
