// The words `status` takes (the service's statuses, and what `job.status`, a step's outcome and a
// GitHub deployment's state hold), and what each asks for: a status to send, or nothing to record.
import type { DeploymentStatus } from './constants.js';

/**
 * What an empty `status` stands for where the run's own event says how the deployment went (a
 * GitHub `deployment_status` event): the event's word and where it comes from ("the event's
 * `deployment_status.state`"), for the message if it is none that can be recorded; or nothing to
 * record, and the line that says why.
 */
export type ImpliedStatus = { word: string; from: string } | { nothing: string };

/**
 * Nothing to record, and why: a status word that says so (a skipped step, a deployment that has not
 * ended), or the face's own line where the run's event says the deployment has no state yet.
 */
export type NothingToRecord =
  | {
      nothing: 'skipped' | 'not-final';
      /** The word as given, e.g. `queued`. */
      word: string;
    }
  | { nothing: 'not-yet'; why: string };

/** What `status` asks for. */
export type RequestedStatus = DeploymentStatus | NothingToRecord;

const NOT_FINAL = ['pending', 'queued', 'in_progress', 'inactive', 'waiting'];

/**
 * The words `status` takes: the service's statuses, and what `job.status`, a step's `outcome` and a
 * GitHub deployment's state hold (`skipped`: nothing was deployed; a state that has not ended:
 * nothing to record yet).
 */
const STATUS_WORDS: Record<string, DeploymentStatus | 'skipped' | 'not-final'> = {
  started: 'STARTED',
  succeeded: 'SUCCEEDED',
  failed: 'FAILED',
  success: 'SUCCEEDED',
  failure: 'FAILED',
  cancelled: 'FAILED',
  error: 'FAILED',
  skipped: 'skipped',
  ...Object.fromEntries(NOT_FINAL.map((word) => [word, 'not-final'])),
};

export function statusFromWord(word: string): RequestedStatus | undefined {
  const key = word.trim().toLowerCase();
  if (!Object.hasOwn(STATUS_WORDS, key)) return undefined;
  const meaning = STATUS_WORDS[key] as DeploymentStatus | 'skipped' | 'not-final';
  return meaning === 'skipped' || meaning === 'not-final' ? { nothing: meaning, word: key } : meaning;
}

/** A finished status (`job.status` success, failure, cancelled; an exit's outcome); undefined for any other word. */
export function finalStatus(word: string): DeploymentStatus | undefined {
  const status = statusFromWord(word);
  return status === 'SUCCEEDED' || status === 'FAILED' ? status : undefined;
}
