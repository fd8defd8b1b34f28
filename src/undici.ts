// The only module that loads undici, and not through its index: that also builds fetch, WebSocket,
// the cache, the mocks and every other dispatcher, a large part of a step's start-up, where a step
// sends one request through an Agent. This loads what the index would use for that, and the proxy
// agent only for a request that goes through a proxy. (undici has no `exports` map: its files load
// by path.)
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import api from 'undici/lib/api/index.js';
import Agent from 'undici/lib/dispatcher/agent.js';
import util from 'undici/lib/core/util.js';
import type * as Undici from 'undici';

// As undici's index does: every dispatcher gets request(), connect()... undici calls them on its
// own dispatchers too (ProxyAgent opens an https tunnel with `client.connect()`), so without this an
// https service behind a proxy fails with "this[kClient].connect is not a function".
Object.assign(Dispatcher.prototype, api);

/**
 * How long each phase of a request may take: connecting (TCP and TLS), waiting for the answer's
 * headers, and between two parts of its body. undici's defaults are 10 s and 300 s, and a request's
 * AbortSignal does not cancel a connection being made.
 */
export interface Timeouts {
  timeoutMs: number;
}

function phaseTimeouts({ timeoutMs }: Timeouts) {
  const ms = Math.max(1, Math.ceil(timeoutMs));
  return { connectTimeout: ms, headersTimeout: ms, bodyTimeout: ms };
}

/** A plain Agent: requests go straight to the service. */
export function createAgent(timeouts: Timeouts): Undici.Dispatcher {
  return new Agent(phaseTimeouts(timeouts));
}

/**
 * undici's ProxyAgent for `proxy` (credentials in it become Proxy-Authorization); its own chunk.
 * Its own client to the proxy (the one that asks for the CONNECT tunnel) gets the timeouts too.
 */
export async function createProxyAgent(proxy: URL, timeouts: Timeouts): Promise<Undici.Dispatcher> {
  const [{ default: ProxyAgent }, { default: Pool }] = await Promise.all([
    import('undici/lib/dispatcher/proxy-agent.js'),
    import('undici/lib/dispatcher/pool.js'),
  ]);
  const phases = phaseTimeouts(timeouts);
  return new ProxyAgent({
    uri: proxy.href,
    ...phases,
    clientFactory: (origin: URL, options: object) => new Pool(origin, { ...options, ...phases }),
  });
}

export type RequestOptions = Omit<Undici.Dispatcher.RequestOptions, 'origin' | 'path' | 'method'> &
  Partial<Pick<Undici.Dispatcher.RequestOptions, 'method'>> & { dispatcher: Undici.Dispatcher };

/** undici's `request(url, options)` (as its index makes it), with the dispatcher always given. */
export function request(
  url: URL | string,
  { dispatcher, ...options }: RequestOptions,
): Promise<Undici.Dispatcher.ResponseData<unknown>> {
  const target = util.parseURL(url);
  return api.request.call(dispatcher, {
    ...options,
    origin: target.origin,
    path: target.search ? `${target.pathname}${target.search}` : target.pathname,
    method: options.method || (options.body ? 'PUT' : 'GET'),
  });
}
