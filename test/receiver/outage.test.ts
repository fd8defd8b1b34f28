// What the log says of a store that stops answering (src/receiver/outage.ts, and the worker and the
// readiness probe that use it): one line when it stops, a summary every few minutes while it stays
// down, one line when it is back; and what /readyz answers meanwhile: ready or not, never why.
import { describe, expect, it } from 'vitest';
import type { Log } from '../../src/core/log.ts';
import { Metrics } from '../../src/receiver/metrics.ts';
import { OUTAGE_SUMMARY_MS, outageLog } from '../../src/receiver/outage.ts';
import { createProbe } from '../../src/receiver/probe.ts';
import type { Store } from '../../src/receiver/store/store.ts';
import { startWorker } from '../../src/receiver/worker.ts';
import { CLI_WORDS } from '../../src/cli/source.ts';

function recordingLog() {
  const lines: string[] = [];
  const keep = (level: string) => (text: string | readonly string[] | (() => string | readonly string[])) => {
    const value = typeof text === 'function' ? text() : text;
    for (const line of typeof value === 'string' ? [value] : value) lines.push(`${level}: ${line}`);
  };
  const log: Log & { error(text: string): void } = {
    debug: () => undefined,
    info: keep('info'),
    warning: keep('warning'),
    error: keep('error'),
    clean: (line) => line,
  };
  return { lines, log };
}

describe('outageLog', () => {
  it('says the start once, a summary every few minutes, and the end once, whatever the number of failures', () => {
    const { lines, log } = recordingLog();
    let clock = 0;
    const outage = outageLog(log, { down: 'the store does not answer', back: 'the store answers again' }, () => clock);
    outage.answered();
    expect(lines).toEqual([]);
    // Down for 12 minutes, a failure a second.
    for (; clock <= 12 * 60_000; clock += 1000) outage.failed('connect ECONNREFUSED 127.0.0.1:5432');
    outage.answered();
    outage.answered();
    expect(lines).toEqual([
      'warning: the store does not answer: connect ECONNREFUSED 127.0.0.1:5432',
      'warning: the store does not answer, for 5 min now (301 failed tries; the last: connect ECONNREFUSED 127.0.0.1:5432)',
      'warning: the store does not answer, for 10 min now (601 failed tries; the last: connect ECONNREFUSED 127.0.0.1:5432)',
      'info: the store answers again, after 12 min (721 failed tries)',
    ]);
    expect(OUTAGE_SUMMARY_MS).toBe(5 * 60_000);
    // A new outage starts anew.
    outage.failed('timeout');
    expect(lines.at(-1)).toBe('warning: the store does not answer: timeout');
  });
});

/** A store whose claims fail `failures` times, then find nothing; whose other calls answer. */
function failingStore(failures: number): Store & { claims: number } {
  const store = {
    engine: 'fake',
    claims: 0,
    claim() {
      store.claims++;
      return store.claims <= failures
        ? Promise.reject(new Error('Connection terminated unexpectedly'))
        : Promise.resolve({ work: [], held: [] });
    },
    prune: () => Promise.resolve(0),
    release: () => Promise.resolve(),
  };
  return store as unknown as Store & { claims: number };
}

describe('the worker, while the store does not answer', () => {
  it('writes one line when it stops answering and one when it is back, not one a poll', async () => {
    const { lines, log } = recordingLog();
    const store = failingStore(40);
    const worker = startWorker({
      store,
      http: { send: () => Promise.reject(new Error('not sent')), close: () => Promise.resolve() },
      connection: {
        apiKey: 'rd-test-key-8f3d0b6a4c25',
        baseUrl: new URL('http://127.0.0.1:1/'),
        timeoutMs: 1000,
        retries: 0,
        proxy: undefined,
      },
      words: CLI_WORDS,
      log,
      metrics: new Metrics(),
      retry: { retryForMs: 3600_000, maxBackoffMs: 60_000 },
      pollMs: 1,
    });
    await expect.poll(() => store.claims, { timeout: 5000, interval: 5 }).toBeGreaterThan(41);
    await worker.stop(1000);
    expect(lines).toEqual([
      'warning: the store does not answer the worker: Connection terminated unexpectedly',
      expect.stringMatching(/^info: the store answers the worker again, after \d+ s \(40 failed tries\)$/),
    ]);
  });
});

describe('/readyz and /healthz', () => {
  const stores = (ping: () => Promise<void>) =>
    ({ ping, stats: () => Promise.reject(new Error('password=hunter2 in an error')) }) as unknown as Store;

  it('say ready or not, never the store’s error, which the log says once', async () => {
    const { lines, log } = recordingLog();
    const probe = createProbe({
      store: stores(() => Promise.reject(new Error('could not write: password=hunter2'))),
      metrics: new Metrics(),
      log,
    });
    for (let i = 0; i < 5; i++)
      expect(await probe('/readyz')).toEqual({ status: 503, text: "not ready: see the receiver's log\n" });
    expect(await probe('/healthz')).toEqual({ status: 200, text: 'ok\n' });
    expect(await probe('/metrics')).toEqual({
      status: 503,
      text: "the store does not answer: see the receiver's log\n",
    });
    expect(lines).toEqual(['warning: readiness: the store does not take a write: could not write: password=hunter2']);
  });

  it('is ready while the service refuses the API key (deliveries are kept): /metrics says it, 1 then 0', async () => {
    const { log } = recordingLog();
    const metrics = new Metrics();
    const stats = { queueDepth: 1, oldestPendingSeconds: 0, held: 0, failed: 0 };
    const store = { ping: () => Promise.resolve(), stats: () => Promise.resolve(stats) } as unknown as Store;
    const probe = createProbe({ store, metrics, log });
    metrics.apiKeyRefused(true);
    expect(await probe('/readyz')).toEqual({ status: 200, text: 'ready\n' });
    const gauge = async () => (await probe('/metrics')).text.match(/^report_deployment_api_key_refused .*$/m)?.[0];
    expect(await gauge()).toBe('report_deployment_api_key_refused 1');
    expect((await probe('/metrics')).text).toContain(
      '# HELP report_deployment_api_key_refused 1 while the service refuses the API key (nothing is recorded; deliveries are still taken and kept), else 0.',
    );
    metrics.apiKeyRefused(false);
    expect(await gauge()).toBe('report_deployment_api_key_refused 0');
  });
});
