// When to try a request again, and how long to wait first. Pure, so the policy is testable as a table.
import { Limits } from './constants.js';

/** What one attempt came to. */
export type Attempt = { kind: 'response'; status: number } | { kind: 'network'; cause: NetworkCause };

/**
 * refused, dns, proxy-refused: the request never reached the service. timeout, reset, other: it may
 * have, and a create may have happened. tls, proxy-auth, malformed (an answer that is no valid
 * HTTP, which the same service gives again): trying again cannot help.
 */
export type NetworkCause =
  'refused' | 'dns' | 'proxy-refused' | 'timeout' | 'reset' | 'other' | 'tls' | 'proxy-auth' | 'malformed';

/** What a request that got no answer may still have done: reached the service. */
const MAY_HAVE_ARRIVED = new Set<NetworkCause>(['timeout', 'reset', 'other']);

/**
 * Whether a request that failed may still have been acted on: its answer was lost on the way, or a
 * server error (or a 408) came in the middle of it. A create that may have arrived is never sent
 * again by itself: it could be recorded twice.
 */
export function mayHaveArrived(outcome: Attempt): boolean {
  if (outcome.kind === 'network') return MAY_HAVE_ARRIVED.has(outcome.cause);
  return outcome.status >= 500 || outcome.status === 408;
}

const PATCH_RETRY_STATUSES = new Set([408, 429, 500, 502, 503, 504]);
// A create is retried only where the service cannot have created anything, so no deployment is
// ever recorded twice: it was never reached, or it said "not now" (429, 503).
const POST_RETRY_STATUSES = new Set([429, 503]);
const POST_RETRY_CAUSES = new Set<NetworkCause>(['refused', 'dns', 'proxy-refused']);
const NEVER_RETRY_CAUSES = new Set<NetworkCause>(['tls', 'proxy-auth', 'malformed']);

export function isRetryable(method: 'POST' | 'PATCH', outcome: Attempt): boolean {
  if (outcome.kind === 'network' && NEVER_RETRY_CAUSES.has(outcome.cause)) return false;
  if (method === 'PATCH') return outcome.kind === 'network' || PATCH_RETRY_STATUSES.has(outcome.status);
  return outcome.kind === 'network' ? POST_RETRY_CAUSES.has(outcome.cause) : POST_RETRY_STATUSES.has(outcome.status);
}

/** Exponential backoff with full jitter before retry number `retry` (0 for the first retry). */
export function backoffMs(retry: number, random: () => number = Math.random): number {
  return Math.round(Math.min(Limits.backoffCapMs, Limits.backoffBaseMs * 2 ** retry) * random());
}

/** `Retry-After` as seconds or an HTTP date, in milliseconds from `now`, capped; undefined if absent or unreadable. */
export function retryAfterMs(header: string | undefined, now: number = Date.now()): number | undefined {
  if (!header) return undefined;
  const value = header.trim();
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now;
  if (Number.isNaN(ms)) return undefined;
  return Math.min(Limits.retryAfterMs, Math.max(0, ms));
}
