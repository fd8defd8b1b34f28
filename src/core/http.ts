// One request to the service: a timeout on every attempt, retries as retry.ts allows, the proxy
// proxy.ts chose, and an answer read only up to a bound.
import { setTimeout as wait } from 'node:timers/promises';
import { Limits } from './constants.js';
import type { Log } from './log.js';
import { describeNetworkError, NetworkError } from './network-error.js';
import type { Proxy } from './proxy.js';
import { backoffMs, isRetryable, mayHaveArrived, retryAfterMs, type Attempt } from './retry.js';
import { cutter } from './secret.js';
import { createAgent, createProxyAgent, request } from '../deps/undici.js';

export interface HttpRequest {
  method: 'POST' | 'PATCH';
  url: URL;
  headers: Record<string, string>;
  body: string;
}

export interface HttpResponse {
  status: number;
  contentType: string;
  /** A redirect's `Location`. */
  location?: string;
  /** `Content-Encoding`, when the answer has one (it was asked for none: `accept-encoding: identity`). */
  contentEncoding?: string;
  retryAfter?: string;
  /** The answer's first bytes (Limits.answerBytes), as text. */
  text: string;
  /** Whether the answer was longer than what was read. */
  truncated: boolean;
}

export interface HttpClient {
  /** Once `signal` is aborted (a cancelled run), the request is not tried again: its last outcome stands. */
  send(request: HttpRequest, signal?: AbortSignal): Promise<HttpResponse>;
  close(): Promise<void>;
}

interface HttpClientOptions {
  timeoutMs: number;
  retries: number;
  proxy: Proxy | undefined;
  log: Log;
  /** The key, which the debug line of an answer is cleaned of before it is cut. */
  apiKey?: string;
  /** The setting that gives the service's address, for messages: the face's Words.serviceAddress. */
  serviceAddress: string;
  /** The wait before a retry, over early when `signal` is aborted; tests pass one that does not really wait. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The backoff's jitter, from 0 to 1. */
  random?: () => number;
}

export async function createHttpClient(options: HttpClientOptions): Promise<HttpClient> {
  const { timeoutMs, retries, proxy, log, random = Math.random } = options;
  const cut = cutter(options.apiKey ?? '');
  const sleep = options.sleep ?? ((ms, signal) => wait(ms, undefined, signal && { signal }));
  const dispatcher = proxy ? await createProxyAgent(proxy.url, { timeoutMs }) : createAgent({ timeoutMs });

  /** One attempt, over at `timeoutMs` whatever stage it is in (undici's own timeouts bound what it leaves behind). */
  function attempt(req: HttpRequest): Promise<HttpResponse> {
    return withDeadline(answer(req), timeoutMs);
  }

  async function answer(req: HttpRequest): Promise<HttpResponse> {
    const response = await request(req.url, {
      method: req.method,
      headers: req.headers,
      body: req.body,
      dispatcher,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const { text, truncated } = await readPrefix(response.body as AsyncIterable<Buffer>, Limits.answerBytes);
    return {
      status: response.statusCode,
      contentType: headerValue(response.headers['content-type']) ?? '',
      location: headerValue(response.headers.location),
      contentEncoding: headerValue(response.headers['content-encoding']),
      retryAfter: headerValue(response.headers['retry-after']),
      text,
      truncated,
    };
  }

  async function send(req: HttpRequest, signal?: AbortSignal): Promise<HttpResponse> {
    const label = `${req.method} ${req.url.href}`;
    log.debug(`${label} ${req.body}`);
    for (let retry = 0; ; retry++) {
      let outcome: Attempt;
      let what: string;
      let waitMs: number | undefined;
      /** The last outcome, should no retry come. */
      let last: () => HttpResponse;
      // A cancelled run tries nothing again.
      const final = () => retry >= retries || signal?.aborted === true;
      try {
        const response = await attempt(req);
        // Cleaned before it is cut, or the cut could show part of the key; only with debug logging on.
        log.debug(() => `${label} -> HTTP ${response.status} ${cut(response.text, Limits.detailLength)}`);
        outcome = { kind: 'response', status: response.status };
        if (response.status < 300 || final() || !isRetryable(req.method, outcome)) return response;
        what = `HTTP ${response.status}`;
        waitMs = retryAfterMs(response.retryAfter);
        last = () => response;
      } catch (error) {
        const failure = describeNetworkError(error, req.url.host, proxy, options.serviceAddress);
        outcome = { kind: 'network', cause: failure.cause };
        log.debug(`${label} -> ${failure.cause}: ${String(error)}`);
        if (final() || !isRetryable(req.method, outcome)) {
          // A create that may have reached the service is not sent again (it would be recorded twice).
          const text =
            req.method === 'POST' && mayHaveArrived(outcome)
              ? `${failure.text}; it may have reached the service, so it is not sent again`
              : failure.text;
          throw new NetworkError(text, failure.cause, { cause: error });
        }
        what = failure.text;
        last = () => {
          throw new NetworkError(failure.text, failure.cause, { cause: error });
        };
      }
      const delay = waitMs ?? backoffMs(retry, random);
      log.info(`${label}: ${what}; retrying in ${(delay / 1000).toFixed(1)} s (retry ${retry + 1} of ${retries})`);
      await sleep(delay, signal).catch(() => undefined);
      if (signal?.aborted) return last();
    }
  }

  // Every request has ended by now: its sockets are destroyed, and nothing waits for them to wind
  // down (a step's process ends once they have).
  const close = () => {
    dispatcher.destroy().catch(() => undefined);
    return Promise.resolve();
  };
  return { send, close };
}

/** `work`, or a TimeoutError once `ms` have passed (what the work does after that is ignored). */
function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DOMException('The attempt took longer than its timeout', 'TimeoutError')), ms);
    timer.unref();
  });
  work.catch(() => undefined);
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** The first `limit` bytes of a body as text; the rest is never read (the connection is closed). */
async function readPrefix(body: AsyncIterable<Buffer>, limit: number): Promise<{ text: string; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > limit) {
      truncated = true;
      break; // ends the iteration, which destroys the stream
    }
  }
  return { text: Buffer.concat(chunks).subarray(0, limit).toString('utf8'), truncated };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
