// Catch-up's schedule (src/receiver/catch-up/runner.ts): a pass at start and every interval, one at a
// time, bounded; what each found counted in /metrics; a failure said once until it changes, the
// wait a sender asked for kept, and nothing said once the receiver stops.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Log } from '../../src/core/log.ts';
import { type CatchUpSource, type PassReport, startCatchUp } from '../../src/receiver/catch-up/runner.ts';
import { Metrics } from '../../src/receiver/metrics.ts';

const STATS = { queueDepth: 0, oldestPendingSeconds: 0, held: 0, failed: 0 };

function recordingLog() {
  const lines: string[] = [];
  const log: Log = {
    info: (text) => void lines.push(`info ${String(text)}`),
    warning: (text) => void lines.push(`warning ${String(text)}`),
    debug: (text) => void lines.push(`debug ${String(typeof text === 'function' ? text() : text)}`),
    clean: (line) => line,
  };
  return { log, lines };
}

/** A source whose passes answer `reports` in turn (the last one again once they run out). */
function source(reports: Array<PassReport | Error>): CatchUpSource & { passes: number } {
  const self = {
    name: 'argocd' as const,
    passes: 0,
    pass: () => {
      const report = reports[Math.min(self.passes++, reports.length - 1)] as PassReport | Error;
      return report instanceof Error ? Promise.reject(report) : Promise.resolve(report);
    },
  };
  return self;
}

const ok = (found: number, fetched = found): PassReport => ({ found, fetched, line: `found ${found}` });
const failed = (reason: string, retryAfterMs?: number): PassReport => ({
  found: 0,
  fetched: 0,
  line: `stopped: ${reason}`,
  failure: { reason, retryAfterMs },
});

afterEach(() => void vi.useRealTimers());

describe('catch-up passes', () => {
  it('runs one pass at start and one every interval, counting what each found and got in', async () => {
    vi.useFakeTimers();
    const { log, lines } = recordingLog();
    const metrics = new Metrics();
    const argocd = source([ok(2, 1), ok(0)]);
    const runner = startCatchUp({ sources: [argocd], everyMs: 300_000, log, metrics });
    await vi.advanceTimersByTimeAsync(0);
    expect(argocd.passes).toBe(1);
    await vi.advanceTimersByTimeAsync(299_000);
    expect(argocd.passes).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(argocd.passes).toBe(2);
    runner.stop();
    await vi.advanceTimersByTimeAsync(600_000);
    expect(argocd.passes).toBe(2);
    expect(lines).toEqual(['info found 2', 'info found 0']);
    const text = metrics.text(STATS);
    expect(text).toContain('report_deployment_catch_up_total{source="argocd",result="found"} 2');
    expect(text).toContain('report_deployment_catch_up_total{source="argocd",result="fetched"} 1');
    expect(text).not.toContain('result="failed"');
  });

  it('says a failure once until it changes, counts each failed pass, and says when it works again', async () => {
    vi.useFakeTimers();
    const { log, lines } = recordingLog();
    const metrics = new Metrics();
    const argocd = source([failed('HTTP 401'), failed('HTTP 401'), new Error('boom'), ok(1)]);
    const runner = startCatchUp({ sources: [argocd], everyMs: 10_000, log, metrics });
    await vi.advanceTimersByTimeAsync(30_000);
    runner.stop();
    expect(lines).toEqual([
      'warning stopped: HTTP 401. Tried again every 10 s; said again once it changes.',
      'debug stopped: HTTP 401',
      'warning argocd catch-up: the pass failed: boom. Tried again every 10 s; said again once it changes.',
      'info found 1 (the passes before had failed: it works again)',
    ]);
    expect(metrics.text(STATS)).toContain('report_deployment_catch_up_total{source="argocd",result="failed"} 3');
  });

  it("waits as long as the sender asked before the next pass (a 429's Retry-After)", async () => {
    vi.useFakeTimers();
    const { log } = recordingLog();
    const argocd = source([failed('HTTP 429', 25_000), ok(0)]);
    const runner = startCatchUp({ sources: [argocd], everyMs: 10_000, log, metrics: new Metrics() });
    await vi.advanceTimersByTimeAsync(20_000);
    expect(argocd.passes).toBe(1);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(argocd.passes).toBe(2);
    runner.stop();
  });

  it('gives up waiting on a pass after its bound, says so, and starts the next at the interval', async () => {
    vi.useFakeTimers();
    const { log, lines } = recordingLog();
    let passes = 0;
    const stuck: CatchUpSource = { name: 'argocd', pass: () => (passes++, new Promise<never>(() => undefined)) };
    const runner = startCatchUp({ sources: [stuck], everyMs: 60_000, log, metrics: new Metrics(), passBoundMs: 5_000 });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(lines).toEqual([
      'warning argocd catch-up: the pass failed: the pass took more than 5 s. Tried again every 60 s; said again once it changes.',
    ]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(passes).toBe(2);
    runner.stop();
  });

  it('counts and says nothing of a pass another receiver ran (a replica on the same PostgreSQL)', async () => {
    vi.useFakeTimers();
    const { log, lines } = recordingLog();
    const metrics = new Metrics();
    const elsewhere = source([
      { found: 0, fetched: 0, line: 'argocd catch-up: another receiver runs this pass', elsewhere: true },
    ]);
    const runner = startCatchUp({ sources: [elsewhere], everyMs: 60_000, log, metrics });
    await vi.advanceTimersByTimeAsync(0);
    runner.stop();
    expect(lines).toEqual(['debug argocd catch-up: another receiver runs this pass']);
    expect(metrics.text(STATS)).not.toContain('report_deployment_catch_up_total{');
  });

  it('says nothing of a pass the stop cut short', async () => {
    const { log, lines } = recordingLog();
    let finish: (report: PassReport) => void = () => undefined;
    const slow: CatchUpSource = { name: 'argocd', pass: () => new Promise((resolve) => (finish = resolve)) };
    const runner = startCatchUp({ sources: [slow], everyMs: 60_000, log, metrics: new Metrics() });
    runner.stop();
    finish(failed('the store is closed'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toEqual([]);
  });
});
