// What /metrics shows, in Prometheus' text format: counters kept in memory since the start, and the
// queue's figures asked of the store at each scrape.
import type { SourceName } from './event.js';
import type { StoreStats } from './store/store.js';

export type Verdict = 'stored' | 'duplicate' | 'ignored' | 'invalid' | 'unauthorized' | 'too_large' | 'busy' | 'error';
type CallResult = 'created' | 'updated' | 'retry' | 'held' | 'failed';

export class Metrics {
  private readonly deliveries = new Map<string, number>();
  private readonly calls = new Map<CallResult, number>();
  private keyRefused = false;
  private readonly catchUps = new Map<string, number>();

  delivery(source: SourceName, verdict: Verdict): void {
    const key = `${source}\u0000${verdict}`;
    this.deliveries.set(key, (this.deliveries.get(key) ?? 0) + 1);
  }

  call(result: CallResult): void {
    this.calls.set(result, (this.calls.get(result) ?? 0) + 1);
  }

  /** What a catch-up pass of `source` found, got in, or that it failed. */
  catchUp(source: SourceName, result: 'found' | 'fetched' | 'failed', count: number): void {
    const key = `${source}\u0000${result}`;
    this.catchUps.set(key, (this.catchUps.get(key) ?? 0) + count);
  }

  /** Whether the service refuses the API key now (the worker's keyState). */
  apiKeyRefused(refused: boolean): void {
    this.keyRefused = refused;
  }

  text(stats: StoreStats): string {
    const lines: string[] = [];
    const family = (name: string, type: string, help: string) =>
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    family('report_deployment_deliveries_total', 'counter', 'Deliveries received, by source and verdict.');
    for (const [key, count] of [...this.deliveries].sort()) {
      const [source, verdict] = key.split('\u0000');
      lines.push(`report_deployment_deliveries_total{source="${source}",verdict="${verdict}"} ${count}`);
    }
    family('report_deployment_service_calls_total', 'counter', 'Requests to the service, by what became of them.');
    for (const [result, count] of [...this.calls].sort()) {
      lines.push(`report_deployment_service_calls_total{result="${result}"} ${count}`);
    }
    family('report_deployment_queue_depth', 'gauge', 'Deployment events waiting to be sent to the service.');
    lines.push(`report_deployment_queue_depth ${stats.queueDepth}`);
    family('report_deployment_oldest_pending_age_seconds', 'gauge', 'Age of the oldest event waiting to be sent.');
    lines.push(`report_deployment_oldest_pending_age_seconds ${stats.oldestPendingSeconds}`);
    family(
      'report_deployment_held_creates',
      'gauge',
      'Creates that may have reached the service, held for an operator.',
    );
    lines.push(`report_deployment_held_creates ${stats.held}`);
    family('report_deployment_failed_events', 'gauge', 'Events given up on, waiting for an operator.');
    lines.push(`report_deployment_failed_events ${stats.failed}`);
    family(
      'report_deployment_api_key_refused',
      'gauge',
      '1 while the service refuses the API key (nothing is recorded; deliveries are still taken and kept), else 0.',
    );
    lines.push(`report_deployment_api_key_refused ${this.keyRefused ? 1 : 0}`);
    family(
      'report_deployment_catch_up_total',
      'counter',
      'Catch-up: events a sender held that the store did not (found), got in (fetched), and passes that failed.',
    );
    for (const [key, count] of [...this.catchUps].sort()) {
      const [source, result] = key.split('\u0000');
      lines.push(`report_deployment_catch_up_total{source="${source}",result="${result}"} ${count}`);
    }
    return `${lines.join('\n')}\n`;
  }
}
