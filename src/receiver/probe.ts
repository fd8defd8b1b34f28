// What `/healthz`, `/readyz` and `/metrics` answer. Ready means a delivery would be stored: the store
// takes a write. A refused API key is not a reason (a receiver taken out of its Service would lose
// deliveries it keeps meanwhile): /metrics and the log say it. A probe's answer says ready
// or not, never why (anyone who reaches the port may ask): the log says why, a few lines per outage.
import type { Log } from '../core/log.js';
import type { Metrics } from './metrics.js';
import { outageLog } from './outage.js';
import type { Store } from './store/store.js';

export interface ProbeAnswer {
  status: number;
  text: string;
  type?: string;
}

interface ProbeOptions {
  store: Store;
  metrics: Metrics;
  log: Log;
}

export type Probe = (path: '/healthz' | '/readyz' | '/metrics') => Promise<ProbeAnswer>;

const NOT_READY: ProbeAnswer = { status: 503, text: "not ready: see the receiver's log\n" };

export function createProbe({ store, metrics, log }: ProbeOptions): Probe {
  const outage = outageLog(log, {
    down: 'readiness: the store does not take a write',
    back: 'readiness: the store takes writes again',
  });
  return async (path) => {
    if (path === '/healthz') return { status: 200, text: 'ok\n' };
    try {
      if (path === '/metrics') {
        const text = metrics.text(await store.stats());
        return { status: 200, text, type: 'text/plain; version=0.0.4; charset=utf-8' };
      }
      // A small write: a store that takes reads but no write (a full disk) refuses every delivery.
      await store.ping();
      outage.answered();
    } catch (error) {
      outage.failed(error instanceof Error ? error.message : String(error));
      return path === '/metrics'
        ? { status: 503, text: "the store does not answer: see the receiver's log\n" }
        : NOT_READY;
    }
    return { status: 200, text: 'ready\n' };
  };
}
