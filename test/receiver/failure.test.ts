// What the worker does after a failed request to the service (src/receiver/failure.ts): which
// failures are tried again, which creates are held (they may have reached the service), which fail.
import { describe, expect, it } from 'vitest';
import type { NetworkCause, Attempt as Attempt } from '../../src/core/retry.ts';
import { failureOutcome, keyAccepted, keyRefused, type RetryPolicy } from '../../src/receiver/failure.ts';

const NOW = Date.UTC(2030, 0, 1);
const POLICY: RetryPolicy = { retryForMs: 3600_000, maxBackoffMs: 60_000, random: () => 1 };
const first = { attempts: 0, firstFailedAt: undefined };
const response = (status: number): Attempt => ({ kind: 'response', status });
const network = (cause: NetworkCause): Attempt => ({ kind: 'network', cause });
const kind = (method: 'POST' | 'PATCH', attempt: Attempt | undefined) =>
  failureOutcome(method, attempt, 'it failed', first, NOW, POLICY).kind;

describe('failureOutcome', () => {
  it.each<[string, 'POST' | 'PATCH', Attempt | undefined, string]>([
    // Never reached, or "not now": a create is sent again without risk.
    ['a create refused by the network', 'POST', network('refused'), 'retry'],
    ['a create whose host is unknown for now', 'POST', network('dns'), 'retry'],
    ['a create the proxy refused', 'POST', network('proxy-refused'), 'retry'],
    ['a create answered 429', 'POST', response(429), 'retry'],
    ['a create answered 503', 'POST', response(503), 'retry'],
    // The API key refused: a refused create recorded nothing, and the key is the receiver's to put right.
    ['a create answered 401', 'POST', response(401), 'retry'],
    ['a create answered 403', 'POST', response(403), 'retry'],
    ['an update answered 401', 'PATCH', response(401), 'retry'],
    ['an update answered 403', 'PATCH', response(403), 'retry'],
    // May have reached the service: held, never sent again by itself.
    ['a create that timed out', 'POST', network('timeout'), 'held'],
    ['a create whose connection was reset', 'POST', network('reset'), 'held'],
    ['a create that met another network error', 'POST', network('other'), 'held'],
    ['a create answered 500', 'POST', response(500), 'held'],
    ['a create answered 502', 'POST', response(502), 'held'],
    ['a create answered 504', 'POST', response(504), 'held'],
    ['a create answered 408', 'POST', response(408), 'held'],
    ['a create answered 201 with an answer we cannot read', 'POST', response(201), 'held'],
    // The service refused, or trying again cannot help.
    ['a create answered 400', 'POST', response(400), 'failed'],
    ['a create answered 422', 'POST', response(422), 'failed'],
    ['a create that met a TLS error', 'POST', network('tls'), 'failed'],
    ['a create the proxy wanted credentials for', 'POST', network('proxy-auth'), 'failed'],
    ['a create answered with no valid HTTP', 'POST', network('malformed'), 'failed'],
    ['a create that never got as far as a request', 'POST', undefined, 'failed'],
    // An update is idempotent: sent again after anything transient.
    ['an update that timed out', 'PATCH', network('timeout'), 'retry'],
    ['an update whose connection was reset', 'PATCH', network('reset'), 'retry'],
    ['an update answered 500', 'PATCH', response(500), 'retry'],
    ['an update answered 408', 'PATCH', response(408), 'retry'],
    ['an update answered 429', 'PATCH', response(429), 'retry'],
    ['an update answered 404', 'PATCH', response(404), 'failed'],
    ['an update answered 422', 'PATCH', response(422), 'failed'],
    ['an update answered 200 with an answer we cannot read', 'PATCH', response(200), 'failed'],
    ['an update that met a TLS error', 'PATCH', network('tls'), 'failed'],
    ['an update that never got as far as a request', 'PATCH', undefined, 'failed'],
  ])('%s: %s', (_name, method, attempt, expected) => {
    expect(kind(method, attempt)).toBe(expected);
  });

  it('says why a create is held, and keeps the error', () => {
    const held = failureOutcome('POST', network('timeout'), 'timed out after 10 s', first, NOW, POLICY);
    expect(held).toEqual({
      kind: 'held',
      error: 'timed out after 10 s; it may have reached the service, so it is not sent again by itself',
    });
    expect(failureOutcome('POST', response(201), 'no id in the answer', first, NOW, POLICY)).toEqual({
      kind: 'held',
      error: 'no id in the answer (it may have recorded the deployment)',
    });
    expect(failureOutcome('POST', response(422), 'HTTP 422: bad', first, NOW, POLICY)).toEqual({
      kind: 'failed',
      error: 'HTTP 422: bad',
    });
  });

  it('waits longer after each failure, up to the longest wait, with jitter between half and all of it', () => {
    const wait = (attempts: number, random: number) => {
      const outcome = failureOutcome('PATCH', response(503), 'busy', { attempts, firstFailedAt: NOW }, NOW, {
        ...POLICY,
        random: () => random,
      });
      if (outcome.kind !== 'retry') throw new Error(`not a retry: ${outcome.kind}`);
      return outcome.at - NOW;
    };
    expect([0, 1, 2, 3].map((attempts) => wait(attempts, 1))).toEqual([1000, 2000, 4000, 8000]);
    expect(wait(10, 1)).toBe(60_000);
    expect(wait(1000, 1)).toBe(60_000);
    expect(wait(3, 0)).toBe(4000);
  });

  it('gives up once the first failure is as old as the policy allows, naming how long it tried', () => {
    const tries = { attempts: 7, firstFailedAt: NOW - POLICY.retryForMs };
    expect(failureOutcome('POST', network('refused'), 'refused', tries, NOW, POLICY)).toEqual({
      kind: 'failed',
      error: 'refused; gave up after 1 h of retries',
    });
    const justBefore = { attempts: 7, firstFailedAt: NOW - POLICY.retryForMs + 1 };
    expect(failureOutcome('POST', network('refused'), 'refused', justBefore, NOW, POLICY).kind).toBe('retry');
    const short = { ...POLICY, retryForMs: 90_000 };
    expect(
      failureOutcome('PATCH', response(502), 'bad gateway', { attempts: 2, firstFailedAt: 0 }, NOW, short),
    ).toEqual({ kind: 'failed', error: 'bad gateway; gave up after 90 s of retries' });
  });

  it('never gives up on an item while the service refuses the API key, and backs off as for any retry', () => {
    const tries = { attempts: 40, firstFailedAt: NOW - 30 * POLICY.retryForMs };
    expect(failureOutcome('POST', response(401), 'HTTP 401: Invalid or missing API key', tries, NOW, POLICY)).toEqual({
      kind: 'retry',
      at: NOW + POLICY.maxBackoffMs,
      error: 'HTTP 401: Invalid or missing API key',
      notItsFault: true,
    });
    expect(keyRefused(response(403))).toBe(true);
    expect([response(400), response(404), response(500), network('proxy-auth'), undefined].map(keyRefused)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('takes a refusal of the request itself as the key accepted, and a 5xx, 408 or 429 as saying nothing of it', () => {
    const accepted = [200, 201, 302, 400, 404, 422].map((status) => keyAccepted(response(status)));
    expect(accepted).toEqual([true, true, true, true, true, true]);
    const unknown = [401, 403, 408, 429, 500, 503].map((status) => keyAccepted(response(status)));
    expect(unknown).toEqual([false, false, false, false, false, false]);
    expect([keyAccepted(network('reset')), keyAccepted(undefined)]).toEqual([false, false]);
  });

  it('counts the retry time from this failure when it is the first', () => {
    const outcome = failureOutcome('PATCH', response(503), 'busy', first, NOW, { ...POLICY, retryForMs: 1 });
    expect(outcome.kind).toBe('retry');
  });
});
