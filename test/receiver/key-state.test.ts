// Whose fault a 401 or 403 is: the key's (kept, retried, said once) or, for a 403 once the service
// took a request sent after the item's first 403, the item's own (handled as any other refusal).
import { describe, expect, it } from 'vitest';
import type { Log } from '../../src/core/log.ts';
import { failureOutcome } from '../../src/receiver/failure.ts';
import { keyState } from '../../src/receiver/key-state.ts';
import { Metrics } from '../../src/receiver/metrics.ts';

const STATS = { queueDepth: 0, oldestPendingSeconds: 0, held: 0, failed: 0 };

function setUp() {
  const lines: string[] = [];
  const log = {
    debug: () => undefined,
    info: (text: string) => lines.push(`info: ${text}`),
    warning: (text: string) => lines.push(`warning: ${text}`),
    error: (text: string) => lines.push(`error: ${text}`),
    clean: (line: string) => line,
  } as unknown as Log & { error(text: string): void };
  const metrics = new Metrics();
  const gauge = () => /^report_deployment_api_key_refused (\d)$/m.exec(metrics.text(STATS))?.[1];
  return { lines, key: keyState(log, metrics, 'DEPLOY_TRACKER_API_KEY'), gauge };
}

describe('the API key state', () => {
  it('takes a 401 as the key’s always, even after the service accepted a request sent later', () => {
    const { key, gauge } = setUp();
    const first = key.sending();
    expect(key.refused(1, first, 401, 'HTTP 401: bad key')).toBe('key');
    expect(gauge()).toBe('1');
    key.accepted(key.sending());
    expect(gauge()).toBe('0');
    expect(key.refused(1, key.sending(), 401, 'HTTP 401: bad key')).toBe('key');
  });

  it('takes a 403 as the item’s own once a request sent after its first 403 was accepted: it is then failed', () => {
    const { key, lines, gauge } = setUp();
    expect(key.refused(7, key.sending(), 403, 'HTTP 403: blocked')).toBe('key');
    expect(gauge()).toBe('1');
    // Another item's request, sent after, is accepted: the key works.
    key.accepted(key.sending());
    expect(gauge()).toBe('0');
    const refusal = key.refused(7, key.sending(), 403, 'HTTP 403: blocked');
    expect(refusal).toBe('item');
    const tries = { attempts: 1, firstFailedAt: undefined };
    const policy = { retryForMs: 60_000, maxBackoffMs: 1000, random: () => 1 };
    expect(
      failureOutcome('POST', { kind: 'response', status: 403 }, 'HTTP 403: blocked', tries, 0, policy, refusal),
    ).toEqual({ kind: 'failed', error: 'HTTP 403: blocked' });
    expect(lines.filter((line) => line.startsWith('error:'))).toHaveLength(1);
  });

  it('keeps a 403 the key’s while nothing sent after the item’s first 403 was accepted (a rotated key answered 403)', () => {
    const { key, gauge } = setUp();
    const early = key.sending();
    const refusedAt = key.sending();
    expect(key.refused(3, refusedAt, 403, 'HTTP 403: key revoked')).toBe('key');
    // Answered after the 403 but sent before it: says nothing of the key now.
    key.accepted(early);
    expect(key.refused(3, key.sending(), 403, 'HTTP 403: key revoked')).toBe('key');
    expect(key.refused(4, key.sending(), 403, 'HTTP 403: key revoked')).toBe('key');
    expect(key.refused(3, key.sending(), 403, 'HTTP 403: key revoked')).toBe('key');
    expect(gauge()).toBe('1');
  });
});
