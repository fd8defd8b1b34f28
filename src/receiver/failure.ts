// What the worker does after a request to the service failed: try again later (the service cannot
// have acted on it), hold it (a create that may have reached the service: sending it again could
// record the deployment twice), or give up (the service refused it). The core's policy decides what
// is retryable (src/core/retry.ts) and what may have arrived (src/core/http.ts). Pure.
import { MAY_HAVE_ARRIVED } from '../core/http.js';
import { isRetryable, type Outcome as Attempt } from '../core/retry.js';
import type { Outcome } from './store/store.js';

export interface RetryPolicy {
  /** How long an item is tried again from its first failure, then it is `failed`. */
  retryForMs: number;
  /** The longest wait between two tries. */
  maxBackoffMs: number;
  random?: () => number;
}

export const DEFAULT_RETRY: RetryPolicy = { retryForMs: 24 * 3600_000, maxBackoffMs: 5 * 60_000 };

export function failureOutcome(
  method: 'POST' | 'PATCH',
  attempt: Attempt | undefined,
  error: string,
  tries: { attempts: number; firstFailedAt: number | undefined },
  now: number,
  { retryForMs, maxBackoffMs, random = Math.random }: RetryPolicy,
): Outcome {
  if (!attempt) return { kind: 'failed', error };
  if (attempt.kind === 'response' && attempt.status >= 200 && attempt.status < 300) {
    // The service took it but its answer is not one we can use.
    return method === 'POST'
      ? { kind: 'held', error: `${error} (it may have recorded the deployment)` }
      : { kind: 'failed', error };
  }
  if (isRetryable(method, attempt)) {
    const since = tries.firstFailedAt ?? now;
    if (now - since >= retryForMs) {
      return { kind: 'failed', error: `${error}; gave up after ${hours(retryForMs)} of retries` };
    }
    const wait = Math.min(maxBackoffMs, 1000 * 2 ** Math.min(tries.attempts, 30));
    return { kind: 'retry', at: now + Math.round(wait * (0.5 + random() / 2)), error };
  }
  if (method === 'POST' && mayHaveArrived(attempt)) {
    return { kind: 'held', error: `${error}; it may have reached the service, so it is not sent again by itself` };
  }
  return { kind: 'failed', error };
}

/** A create whose answer was lost, or a server error in the middle of it, may have been recorded. */
function mayHaveArrived(attempt: Attempt): boolean {
  if (attempt.kind === 'network') return MAY_HAVE_ARRIVED.has(attempt.cause);
  return attempt.status >= 500 || attempt.status === 408;
}

function hours(ms: number): string {
  const value = ms / 3600_000;
  return value >= 1 ? `${Number(value.toFixed(1))} h` : `${Math.round(ms / 1000)} s`;
}
