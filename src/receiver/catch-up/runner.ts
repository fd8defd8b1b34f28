// Catch-up's schedule: each sender whose API the receiver may read (a source's catch-up) is asked,
// once as the receiver starts and then every interval, for what it holds that the receiver never
// heard (docs/receiver.md, "Catch-up"). One pass at a time, each bounded; a pass that fails is tried
// again at the next, or later where the sender asked for a wait; a failure is said once until it
// changes, and never stops the receiver or its live routes.
import type { Log } from '../../core/log.js';
import type { SourceName } from '../event.js';
import type { Metrics } from '../metrics.js';

/** What one pass of a source found, in numbers and in the one line the log says of it. */
export interface PassReport {
  /** Events the sender holds that the store did not. */
  found: number;
  /** Of those, the ones the pass got into the store. */
  fetched: number;
  /** The pass in one line, no credential in it. */
  line: string;
  /** Another replica ran this pass now: nothing to count or say. */
  elsewhere?: boolean;
  /** Why the pass stopped short, and how long the sender asked to be left alone; undefined when it ran to its end. */
  failure?: { reason: string; retryAfterMs?: number };
}

export interface CatchUpSource {
  name: SourceName;
  pass(): Promise<PassReport>;
}

/** The longest a pass may take; one still running then is said and left, its source tried again at the next. */
export const PASS_BOUND_MS = 120_000;

interface RunnerOptions {
  sources: readonly CatchUpSource[];
  everyMs: number;
  log: Log;
  metrics: Metrics;
  passBoundMs?: number;
}

export interface CatchUpRunner {
  /** No pass starts after this; one under way is left to end unsaid (what it got in is committed). */
  stop(): void;
}

export function startCatchUp({
  sources,
  everyMs,
  log,
  metrics,
  passBoundMs = PASS_BOUND_MS,
}: RunnerOptions): CatchUpRunner {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  /** Per source: the failure said last (said again only once it changes), and the wait asked for. */
  const lastFailure = new Map<SourceName, string | undefined>();
  const notBefore = new Map<SourceName, number>();

  async function passOf(source: CatchUpSource): Promise<void> {
    if ((notBefore.get(source.name) ?? 0) > Date.now()) return;
    const report = await bounded(source.pass(), passBoundMs).catch((error: unknown): PassReport => {
      const reason = error instanceof Error ? error.message : String(error);
      return { found: 0, fetched: 0, line: `${source.name} catch-up: the pass failed: ${reason}`, failure: { reason } };
    });
    // Stopping: what a pass cut short by the stop says is no news (the next start asks again).
    if (stopped) return;
    if (report.elsewhere) return log.debug(report.line);
    metrics.catchUp(source.name, 'found', report.found);
    metrics.catchUp(source.name, 'fetched', report.fetched);
    if (report.failure) metrics.catchUp(source.name, 'failed', 1);
    notBefore.set(source.name, Date.now() + (report.failure?.retryAfterMs ?? 0));
    const before = lastFailure.get(source.name);
    lastFailure.set(source.name, report.failure?.reason);
    if (!report.failure) {
      log.info(before === undefined ? report.line : `${report.line} (the passes before had failed: it works again)`);
    } else if (report.failure.reason !== before) {
      log.warning(`${report.line}. Tried again every ${everyMs / 1000} s; said again once it changes.`);
    } else {
      log.debug(report.line);
    }
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => void round(), everyMs);
    timer.unref();
  }

  async function round(): Promise<void> {
    for (const source of sources) {
      if (stopped) return;
      await passOf(source);
    }
    schedule();
  }

  void round();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/** The pass, or a failure once `ms` have gone by (the pass is left to end by itself: its requests are bounded too). */
function bounded(pass: Promise<PassReport>, ms: number): Promise<PassReport> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the pass took more than ${ms / 1000} s`)), ms);
    timer.unref();
  });
  return Promise.race([pass, late]).finally(() => clearTimeout(timer));
}
