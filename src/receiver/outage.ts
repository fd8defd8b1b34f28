// What the log says of something that fails again and again (the store down, a probe that cannot
// reach it): one line when it stops answering, a summary now and then while it stays down, one line
// when it is back. A replica that retries every second writes a few lines an hour, not thousands.
import type { Log } from '../core/log.js';

/** How often a summary is written while the outage lasts. */
export const OUTAGE_SUMMARY_MS = 5 * 60_000;

export interface Outage {
  /** One more failure; `error` is its text (the log's only: never an answer to a client). */
  failed(error: string): void;
  /** It answered: says so once if it had stopped. */
  answered(): void;
}

export interface OutageWords {
  /** "the store does not answer the worker" */
  down: string;
  /** "the store answers the worker again" */
  back: string;
}

export function outageLog(
  log: Log,
  { down, back }: OutageWords,
  now: () => number = Date.now,
  summaryMs = OUTAGE_SUMMARY_MS,
): Outage {
  let since: number | undefined;
  let lastSaid = 0;
  let failures = 0;
  return {
    failed(error) {
      failures++;
      const at = now();
      if (since === undefined) {
        since = lastSaid = at;
        log.warning(`${down}: ${error}`);
      } else if (at - lastSaid >= summaryMs) {
        lastSaid = at;
        log.warning(`${down}, for ${duration(at - since)} now (${failures} failed tries; the last: ${error})`);
      }
    },
    answered() {
      if (since === undefined) return;
      log.info(`${back}, after ${duration(now() - since)} (${failures} failed tries)`);
      since = undefined;
      failures = 0;
    },
  };
}

function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  return minutes < 120 ? `${minutes} min` : `${Number((minutes / 60).toFixed(1))} h`;
}
