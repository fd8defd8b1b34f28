// What the worker says of an item it sends nothing for: a skip is logged at info, with its reason;
// a create its claim found left sending and held, as a warning.
import { describe, expect, it } from 'vitest';
import type { HttpClient } from '../../src/core/http.ts';
import type { Log } from '../../src/core/log.ts';
import { Metrics } from '../../src/receiver/metrics.ts';
import type { ItemRecord, Outcome, Store, Work } from '../../src/receiver/store/store.ts';
import { startWorker } from '../../src/receiver/worker.ts';

const WORK: Work = {
  key: 'github:github.com:742519063:7',
  serviceId: { text: '41', numeric: true },
  // The service has the end already: the late start has nothing to send.
  recorded: 'SUCCEEDED',
  item: {
    id: 3,
    source: 'github',
    deliveryId: 'guid-3',
    status: 'STARTED',
    fields: {
      artifactName: 'shop',
      version: '1',
      environment: 'prod',
      commitSha: 'a'.repeat(40),
      user: 'u',
      branch: 'm',
    },
    attempts: 0,
    firstFailedAt: undefined,
  },
  lease: { owner: 'w', token: 1 },
};

describe('the worker', () => {
  it('logs an item it skips at info, with why', async () => {
    const { lines, log } = collectingLog();
    let finished: (outcome: Outcome) => void = () => undefined;
    const done = new Promise<Outcome>((resolve) => (finished = resolve));
    let handed = false;
    const store = {
      claim: () => {
        if (handed) return Promise.resolve({ work: [], held: [] });
        handed = true;
        return Promise.resolve({ work: [WORK], held: [] });
      },
      finish: (_work: Work, outcome: Outcome) => {
        finished(outcome);
        return Promise.resolve(true);
      },
      release: () => Promise.resolve(),
      prune: () => Promise.resolve(0),
    } as unknown as Store;
    const worker = startWorker(workerOptions(store, log));
    worker.wake();
    expect(await done).toEqual({ kind: 'skipped', reason: 'the service has SUCCEEDED already' });
    await worker.stop(1000);
    expect(lines.filter(([, line]) => line.startsWith('skipped'))).toEqual([
      [
        'info',
        'skipped github:github.com:742519063:7 STARTED (item 3, delivery guid-3): the service has SUCCEEDED already',
      ],
    ]);
  });

  it('logs, as a warning, each create its claim found left sending and held', async () => {
    const { lines, log } = collectingLog();
    let told: () => void = () => undefined;
    const claimed = new Promise<void>((resolve) => (told = resolve));
    const held: ItemRecord = {
      id: 9,
      source: 'github',
      deliveryId: 'guid-9\u001b[2J',
      via: 'live',
      key: 'github:github.com:742519063:9',
      status: 'STARTED',
      state: 'held',
      serviceId: null,
      error: 'the receiver stopped while this create was being sent: it may have reached the service',
      note: null,
      attempts: 0,
      receivedAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      nextAttemptAt: null,
    };
    let handed = false;
    const store = {
      claim: () => {
        told();
        if (handed) return Promise.resolve({ work: [], held: [] });
        handed = true;
        return Promise.resolve({ work: [], held: [held] });
      },
      release: () => Promise.resolve(),
      prune: () => Promise.resolve(0),
    } as unknown as Store;
    const worker = startWorker(workerOptions(store, log));
    await claimed;
    await worker.stop(1000);
    expect(lines.filter(([, line]) => line.startsWith('held'))).toEqual([
      [
        'warning',
        'held github:github.com:742519063:9 STARTED (item 9, delivery guid-9\\u001b[2J): the receiver stopped while this create was being sent: it may have reached the service. See `report-deployment deliveries`.',
      ],
    ]);
  });
});

/** A log that keeps each line with its level. */
function collectingLog() {
  const lines: Array<[string, string]> = [];
  const at = (level: string) => (text: string | readonly string[] | (() => string | readonly string[])) => {
    const value = typeof text === 'function' ? text() : text;
    for (const line of typeof value === 'string' ? [value] : value) lines.push([level, line]);
  };
  const log: Log & { error(text: string): void } = {
    debug: at('debug'),
    info: at('info'),
    warning: at('warning'),
    error: at('error'),
    clean: (line) => line,
  };
  return { lines, log };
}

/** A worker on `store` whose every send fails (none is expected), polling only when woken. */
function workerOptions(store: Store, log: Log & { error(text: string): void }): Parameters<typeof startWorker>[0] {
  const http: HttpClient = {
    send: () => Promise.reject(new Error('nothing is sent')),
    close: () => Promise.resolve(),
  };
  return {
    store,
    http,
    connection: {
      apiKey: 'rd-test-key-2a9c5e8f1d47',
      baseUrl: new URL('http://127.0.0.1:9/'),
      timeoutMs: 1000,
      retries: 0,
      proxy: undefined,
    },
    words: { tool: 'report-deployment', serviceAddress: '--url', setting: (name) => `--${name}` },
    log,
    metrics: new Metrics(),
    retry: { retryForMs: 1000, maxBackoffMs: 1000, random: () => 1 },
    pollMs: 60_000,
  };
}
