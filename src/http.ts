// One request to the service: a timeout on every attempt, retries as retry.ts allows, and the
// runner's HTTP(S)_PROXY / NO_PROXY honoured.
import { setTimeout as sleep } from 'node:timers/promises';
import { EnvHttpProxyAgent, request } from 'undici';
import type { Log } from './log.js';
import { backoffMs, isRetryable, networkCause, retryAfterMs, type NetworkCause, type Outcome } from './retry.js';

export interface HttpRequest {
  method: 'POST' | 'PATCH';
  url: URL;
  headers: Record<string, string>;
  body: string;
}

export interface HttpResponse {
  status: number;
  contentType: string;
  text: string;
  retryAfter?: string;
}

/** The request got no HTTP answer: nothing reached the service, or no reply came back in time. */
export class NetworkError extends Error {
  override name = 'NetworkError';
}

export interface HttpClient {
  send(request: HttpRequest): Promise<HttpResponse>;
  close(): Promise<void>;
}

const CAUSE_TEXT: Record<NetworkCause, string> = {
  refused: 'connection refused',
  dns: 'host name not found',
  timeout: 'no answer in time',
  reset: 'connection closed before an answer',
  other: 'network error',
};

export function createHttpClient(options: { timeoutMs: number; retries: number; log: Log }): HttpClient {
  const { timeoutMs, retries, log } = options;
  // Reads http_proxy / https_proxy / no_proxy (either case), as the runner sets them.
  const dispatcher = new EnvHttpProxyAgent();

  async function attempt(req: HttpRequest): Promise<HttpResponse> {
    const response = await request(req.url, {
      method: req.method,
      headers: req.headers,
      body: req.body,
      dispatcher,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const retryAfter = response.headers['retry-after'];
    return {
      status: response.statusCode,
      contentType: String(response.headers['content-type'] ?? ''),
      text: await response.body.text(),
      retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined,
    };
  }

  async function send(req: HttpRequest): Promise<HttpResponse> {
    const label = `${req.method} ${req.url.href}`;
    log.debug(`${label} ${req.body}`);
    for (let retry = 0; ; retry++) {
      let outcome: Outcome;
      let waitMs: number | undefined;
      try {
        const response = await attempt(req);
        log.debug(`${label} -> HTTP ${response.status} ${response.text}`);
        outcome = { kind: 'response', status: response.status };
        if (response.status < 300 || retry >= retries || !isRetryable(req.method, outcome)) return response;
        waitMs = retryAfterMs(response.retryAfter);
      } catch (error) {
        const cause = networkCause(error);
        outcome = { kind: 'network', cause };
        log.debug(`${label} -> ${cause}: ${String(error)}`);
        if (retry >= retries || !isRetryable(req.method, outcome)) {
          throw new NetworkError(`${CAUSE_TEXT[cause]} (${req.url.host})`);
        }
      }
      const delay = waitMs ?? backoffMs(retry);
      const what = outcome.kind === 'response' ? `HTTP ${outcome.status}` : CAUSE_TEXT[outcome.cause];
      log.info(`${label}: ${what}; retrying in ${(delay / 1000).toFixed(1)} s (retry ${retry + 1} of ${retries})`);
      await sleep(delay);
    }
  }

  return { send, close: () => dispatcher.close() };
}
