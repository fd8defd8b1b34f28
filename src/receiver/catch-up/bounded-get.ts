// One bounded GET to a sender's API, as every request the project makes: at most `maxBytes` of
// answer (the rest is never read), at most `timeoutMs` for the whole of it, through the proxy the
// environment names (core/proxy.ts), with Node's CAs and NODE_EXTRA_CA_CERTS. It says what went
// wrong in words that never hold the token; it never retries (the next pass does).
import { describeNetworkError } from '../../core/network-error.js';
import { type Env, proxyFor } from '../../core/proxy.js';
import { createAgent, createProxyAgent, request } from '../../deps/undici.js';

/** The largest answer read (issue 33: every API answer bounded at 10 MiB). */
export const MAX_ANSWER_BYTES = 10 * 1024 * 1024;
/** How long one request may take, from connecting to the answer's last byte. */
export const GET_TIMEOUT_MS = 30_000;

export interface GetOptions {
  headers: Record<string, string>;
  env: Env;
  /** What sets the address, for messages (`ARGOCD_SERVER`). */
  addressVariable: string;
  maxBytes?: number;
  timeoutMs?: number;
}

export type GetAnswer =
  | {
      kind: 'answer';
      status: number;
      retryAfter: string | undefined;
      /** Each header's first value, by its lower-case name (GitHub's `link`, `x-ratelimit-reset`). */
      headers: Record<string, string>;
      body: Buffer;
    }
  /** The answer was longer than `maxBytes`: not read further. */
  | { kind: 'too-large'; status: number }
  /** No answer: a network failure or the time ran out, in words. */
  | { kind: 'unreachable'; reason: string };

export async function boundedGet(url: URL, options: GetOptions): Promise<GetAnswer> {
  const { maxBytes = MAX_ANSWER_BYTES, timeoutMs = GET_TIMEOUT_MS } = options;
  const proxy = proxyFor(url, options.env);
  const dispatcher = proxy ? await createProxyAgent(proxy.url, { timeoutMs }) : createAgent({ timeoutMs });
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await request(url, { method: 'GET', headers: options.headers, dispatcher, signal });
    const body = await readUpTo(response.body as AsyncIterable<Buffer>, maxBytes);
    if (!body) return { kind: 'too-large', status: response.statusCode };
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      const first = Array.isArray(value) ? value[0] : value;
      if (first !== undefined) headers[name.toLowerCase()] = first;
    }
    return { kind: 'answer', status: response.statusCode, retryAfter: headers['retry-after'], headers, body };
  } catch (error) {
    const failure = describeNetworkError(error, url.host, proxy, options.addressVariable);
    return { kind: 'unreachable', reason: signal.aborted ? `no answer within ${timeoutMs / 1000} s` : failure.text };
  } finally {
    dispatcher.destroy().catch(() => undefined);
  }
}

/** The whole body when it holds at most `limit` bytes; undefined (and the rest unread) when longer. */
async function readUpTo(body: AsyncIterable<Buffer>, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) return undefined; // leaving the loop destroys the stream
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** The longest wait a Retry-After sets: a value of days is a mistake, not a reason to stop catching up. */
const LONGEST_WAIT_MS = 3_600_000;

/** `Retry-After` (seconds, or an HTTP date) in ms, at most an hour; undefined where it is absent or no time. */
export function waitAsked(header: string | undefined, now: number): number | undefined {
  const value = header?.trim() ?? '';
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : value ? Date.parse(value) - now : Number.NaN;
  return Number.isNaN(ms) ? undefined : Math.min(LONGEST_WAIT_MS, Math.max(0, ms));
}
