import { describe, expect, it } from 'vitest';
import { Limits } from '../../src/core/constants.ts';
import {
  backoffMs,
  isRetryable,
  mayHaveArrived,
  retryAfterMs,
  type NetworkCause,
  type Attempt,
} from '../../src/core/retry.ts';

const response = (status: number): Attempt => ({ kind: 'response', status });
const network = (cause: NetworkCause): Attempt => ({ kind: 'network', cause });

describe('isRetryable', () => {
  it.each([
    [response(408), false, true],
    [response(429), true, true],
    [response(500), false, true],
    [response(502), false, true],
    [response(503), true, true],
    [response(504), false, true],
    [response(400), false, false],
    [response(401), false, false],
    [response(404), false, false],
    [response(422), false, false],
    [network('refused'), true, true],
    [network('dns'), true, true],
    [network('timeout'), false, true],
    [network('reset'), false, true],
    [network('other'), false, true],
    [network('proxy-refused'), true, true],
    [network('tls'), false, false],
    [network('proxy-auth'), false, false],
    [network('malformed'), false, false],
  ])('%o: POST %s, PATCH %s', (outcome, post, patch) => {
    expect(isRetryable('POST', outcome)).toBe(post);
    expect(isRetryable('PATCH', outcome)).toBe(patch);
  });
});

describe('mayHaveArrived', () => {
  it.each([
    [network('timeout'), true],
    [network('reset'), true],
    [network('other'), true],
    [network('refused'), false],
    [network('dns'), false],
    [network('proxy-refused'), false],
    [network('tls'), false],
    [network('proxy-auth'), false],
    [network('malformed'), false],
    [response(500), true],
    [response(502), true],
    [response(408), true],
    [response(401), false],
    [response(403), false],
    [response(422), false],
    [response(429), false],
  ])('%o: %s', (outcome, expected) => {
    expect(mayHaveArrived(outcome)).toBe(expected);
  });
});

describe('backoff', () => {
  it('grows exponentially up to a cap, scaled by the jitter', () => {
    expect([0, 1, 2, 3, 4, 5].map((retry) => backoffMs(retry, () => 1))).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
    expect(backoffMs(2, () => 0.5)).toBe(1000);
    expect(backoffMs(2, () => 0)).toBe(0);
  });

  it('reads Retry-After as seconds or a date, capped', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(retryAfterMs('2', now)).toBe(2000);
    expect(retryAfterMs('Sun, 22 Nov 2026 10:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('3600', now)).toBe(Limits.retryAfterMs);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });

  it('reads only whole seconds as seconds: several digits, white space around them, nothing else', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(retryAfterMs('10', now)).toBe(10_000);
    expect(retryAfterMs(' 7 ', now)).toBe(7000);
    expect(retryAfterMs('\t3', now)).toBe(3000);
    // Number() would read these as 5 and 1000 seconds; as dates they are unreadable.
    expect(retryAfterMs('0x5', now)).toBeUndefined();
    expect(retryAfterMs('1e3', now)).toBeUndefined();
  });
});
