// Refused requests (no valid credential, too large, no room) are anyone's to send: each is counted in
// /metrics, and the log says them in summaries, one line at most per interval, whatever the rate.
// The first refusal after a quiet interval is said at once, so that a wrong secret shows straight away.
import type { Log } from '../core/log.js';
import { showControls } from '../core/log.js';

export class RefusalLog {
  private readonly counts = new Map<string, number>();
  private last = '';
  private lastLine = -Infinity;
  private timer: NodeJS.Timeout | undefined;
  private readonly log: Log;
  private readonly intervalMs: number;

  constructor(log: Log, intervalMs: number) {
    this.log = log;
    this.intervalMs = intervalMs;
  }

  /** One refusal: what was refused (`github unauthorized`) and why (the receiver's own words). */
  note(what: string, reason: string): void {
    this.counts.set(what, (this.counts.get(what) ?? 0) + 1);
    this.last = `${what}: ${reason}`;
    const wait = this.lastLine + this.intervalMs - Date.now();
    if (wait <= 0) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), wait).unref();
  }

  /** Says what was refused since the last line, if anything; the server calls it once more when it closes. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.counts.size === 0) return;
    const total = [...this.counts.values()].reduce((sum, count) => sum + count, 0);
    const each = [...this.counts].map(([what, count]) => `${what} ${count}`).join(', ');
    this.counts.clear();
    this.lastLine = Date.now();
    this.log.info(`refused ${total} request(s) (${each}); the last: ${showControls(this.last)}`);
  }
}
