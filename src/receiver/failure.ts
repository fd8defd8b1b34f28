// What the worker does after a request to the service failed: try again later (the service cannot
// have acted on it), hold it (a create that may have reached the service: sending it again could
// record the deployment twice), or give up (the service refused it). The core's policy decides what
// is retryable and what may have arrived (src/core/retry.ts). Pure.
import { isRetryable, mayHaveArrived, type Attempt } from '../core/retry.js';
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
  /** Whose fault a 401 or 403 is (the worker's keyState): the key's unless it says the item's. */
  refusal: 'key' | 'item' = 'key',
): Outcome {
  if (!attempt) return { kind: 'failed', error };
  if (keyRefused(attempt) && refusal === 'key') {
    // The receiver's configuration, not the event's fault; a refused request recorded nothing, so
    // even a create is sent again. Never given up, and its time to give up starts again after: the
    // key put right records them all.
    return { kind: 'retry', at: now + backoff(tries.attempts, maxBackoffMs, random), error, notItsFault: true };
  }
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
    return { kind: 'retry', at: now + backoff(tries.attempts, maxBackoffMs, random), error };
  }
  if (method === 'POST' && mayHaveArrived(attempt)) {
    return { kind: 'held', error: `${error}; it may have reached the service, so it is not sent again by itself` };
  }
  return { kind: 'failed', error };
}

/** The service refused the API key (401, 403), or, for a 403, maybe the item itself (key-state.ts). */
export function keyRefused(attempt: Attempt | undefined): boolean {
  return attempt?.kind === 'response' && (attempt.status === 401 || attempt.status === 403);
}

/**
 * The service took the key: it answered past its check of it (a success, or a refusal of the request
 * itself). A 5xx, 408 or 429 says nothing either way (a proxy or a busy service may answer it first).
 */
export function keyAccepted(attempt: Attempt | undefined): boolean {
  if (attempt?.kind !== 'response' || keyRefused(attempt)) return false;
  return attempt.status < 500 && attempt.status !== 408 && attempt.status !== 429;
}

/** Doubles after each failure up to `maxMs`, with jitter between half and all of it. */
function backoff(attempts: number, maxMs: number, random: () => number): number {
  const wait = Math.min(maxMs, 1000 * 2 ** Math.min(attempts, 30));
  return Math.round(wait * (0.5 + random() / 2));
}

function hours(ms: number): string {
  const value = ms / 3600_000;
  return value >= 1 ? `${Number(value.toFixed(1))} h` : `${Math.round(ms / 1000)} s`;
}
