// When to try a request again, and how long to wait first. Pure, so the policy is testable as a table.

/** What one attempt came to. */
export type Outcome = { kind: 'response'; status: number } | { kind: 'network'; cause: NetworkCause };

/**
 * refused / dns: the request never reached the service. timeout / reset / other: it may have
 * reached it, and a create may have happened.
 */
export type NetworkCause = 'refused' | 'dns' | 'timeout' | 'reset' | 'other';

const PATCH_RETRY_STATUSES = new Set([408, 429, 500, 502, 503, 504]);
// A create is retried only where the service cannot have created anything, so no deployment is
// ever recorded twice: it was never reached, or it said "not now" (429, 503).
const POST_RETRY_STATUSES = new Set([429, 503]);
const POST_RETRY_CAUSES = new Set<NetworkCause>(['refused', 'dns']);

export function isRetryable(method: 'POST' | 'PATCH', outcome: Outcome): boolean {
  if (method === 'PATCH') return outcome.kind === 'network' || PATCH_RETRY_STATUSES.has(outcome.status);
  return outcome.kind === 'network' ? POST_RETRY_CAUSES.has(outcome.cause) : POST_RETRY_STATUSES.has(outcome.status);
}

export const BACKOFF_BASE_MS = 500;
export const BACKOFF_CAP_MS = 8_000;
/** The longest `Retry-After` honoured: a reporter must not hold a deployment job for minutes. */
export const RETRY_AFTER_CAP_MS = 10_000;

/** Exponential backoff with full jitter before retry number `retry` (0 for the first retry). */
export function backoffMs(retry: number, random: () => number = Math.random): number {
  return Math.round(Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** retry) * random());
}

/** `Retry-After` as seconds or an HTTP date, in milliseconds from `now`, capped; undefined if absent or unreadable. */
export function retryAfterMs(header: string | undefined, now: number = Date.now()): number | undefined {
  if (!header) return undefined;
  const value = header.trim();
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now;
  if (Number.isNaN(ms)) return undefined;
  return Math.min(RETRY_AFTER_CAP_MS, Math.max(0, ms));
}

/** Names a network error by what it means for a retry; undici nests the system error in `cause`. */
export function networkCause(error: unknown): NetworkCause {
  const codes = errorChain(error).map((e) => `${e.code ?? ''} ${e.name ?? ''}`);
  const has = (pattern: RegExp) => codes.some((code) => pattern.test(code));
  if (has(/ECONNREFUSED/)) return 'refused';
  if (has(/ENOTFOUND|EAI_AGAIN|EAI_NONAME/)) return 'dns';
  if (has(/TimeoutError|AbortError|UND_ERR_(HEADERS|BODY|CONNECT)_TIMEOUT|ETIMEDOUT/)) return 'timeout';
  if (has(/ECONNRESET|EPIPE|UND_ERR_SOCKET|UND_ERR_CLOSED/)) return 'reset';
  return 'other';
}

function errorChain(error: unknown): { code?: string; name?: string }[] {
  const chain: { code?: string; name?: string }[] = [];
  let current: unknown = error;
  while (current && typeof current === 'object' && chain.length < 5) {
    const { code, name, cause } = current as { code?: string; name?: string; cause?: unknown };
    chain.push({ code, name });
    current = cause;
  }
  return chain;
}
