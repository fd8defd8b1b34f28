// Whether the service refuses the API key, as the worker's requests find it. A refused key is said
// loudly once (the log, and the `report_deployment_api_key_refused` gauge of /metrics), never by
// /readyz: a receiver taken out of its Service would lose deliveries, and they are kept meanwhile.
//
// A 401 is always the key's fault. A 403 may be the key's (a rotated key) or the item's own (a WAF
// refusing its body, a key scoped away from its environment): it is the key's until the service
// accepts a request sent after the item's first 403, then the item's.
import type { Log } from '../core/log.js';
import type { Metrics } from './metrics.js';

export interface KeyState {
  /** Before each request: its number, in the order they are sent. */
  sending(): number;
  /** The service took the key of request `sent` (a success, or a refusal of the request itself). */
  accepted(sent: number): void;
  /**
   * The service answered request `sent`, for item `itemId`, with 401 or 403: whose fault that is, the
   * key's (the item kept and tried again) or the item's own (handled as any other refusal).
   */
  refused(itemId: number, sent: number, status: number, error: string): 'key' | 'item';
}

/** Items refused with a 403 remembered at most: one forgotten is only tried once more. */
const REMEMBERED = 10_000;

export function keyState(log: Log & { error(text: string): void }, metrics: Metrics, keySetting: string): KeyState {
  let refusedWith: string | undefined;
  let requests = 0;
  let lastAccepted = 0;
  // Item id → the number of the request first refused with a 403 for it.
  const first403 = new Map<number, number>();
  metrics.apiKeyRefused(false);

  function sayRefused(error: string): void {
    if (refusedWith !== undefined) return;
    refusedWith = error;
    metrics.apiKeyRefused(true);
    log.error(
      `the service refuses the API key (${error}): nothing is recorded until it is put right. Every delivery is still taken and kept, and sent again, with backoff, once the service accepts the key; /metrics says report_deployment_api_key_refused 1 until then. Check ${keySetting}.`,
    );
  }

  return {
    sending: () => ++requests,
    accepted(sent) {
      lastAccepted = Math.max(lastAccepted, sent);
      if (refusedWith === undefined) return;
      refusedWith = undefined;
      metrics.apiKeyRefused(false);
      log.info('the service accepts the API key again: the deliveries kept are being recorded');
    },
    refused(itemId, sent, status, error) {
      if (status === 403) {
        const first = first403.get(itemId);
        if (first !== undefined && lastAccepted > first) {
          first403.delete(itemId);
          return 'item';
        }
        if (first === undefined) {
          if (first403.size >= REMEMBERED) first403.delete(first403.keys().next().value as number);
          first403.set(itemId, sent);
        }
      }
      sayRefused(error);
      return 'key';
    },
  };
}
