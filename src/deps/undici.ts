// The only module that loads undici, and its two shortcuts past undici's public entry (what
// `npm run bench -- --reaches` measures). Why each pays:
// - by path: undici's index also builds fetch, WebSocket, the caches, the mocks and every other
//   dispatcher, where a report sends one request through an Agent; this loads only what the index
//   would use for that (undici has no `exports` map: its files load by path), and the proxy agent
//   only for a request that goes through a proxy.
// - node:http2 (undiciLazyBuiltins below): undici's client requires it at load only to read fixed
//   constants, and a report never speaks HTTP/2; a stand-in answers those constants.
// Pinned by test/deps/undici.test.ts; each one's gain is in docs/performance.md.
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import api from 'undici/lib/api/index.js';
import Agent from 'undici/lib/dispatcher/agent.js';
import util from 'undici/lib/core/util.js';
import { isIP } from 'node:net';
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
interface Timeouts {
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
    clientFactory: (origin: URL, options: { connect: Connector }) =>
      new Pool(origin, { ...options, ...phases, connect: withoutAddressServername(options.connect) }),
  });
}

type Connector = Undici.buildConnector.connector;

/**
 * ProxyAgent names an https proxy's host as the TLS server name even where it is an IP address,
 * which RFC 6066 forbids and Node answers with a DeprecationWarning on stderr. Without it, undici's
 * connector sends no server name for an address (as it does for a service on one), and the
 * certificate is still checked against the address.
 */
function withoutAddressServername(connect: Connector): Connector {
  return (options, callback) =>
    connect(isIP(options.servername ?? '') ? { ...options, servername: undefined } : options, callback);
}

type RequestOptions = Omit<Undici.Dispatcher.RequestOptions, 'origin' | 'path' | 'method'> &
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

/**
 * Builtins undici requires at load, each written next to the bundle as a stand-in that loads it on
 * first use (scripts/lazy-builtins.ts). node:http2: undici's client (lib/dispatcher/client-h2.js)
 * requires it at load for HTTP/2, which a report never negotiates, and reads only `constants` then:
 * header names and error codes RFC 9113 fixes, which the stand-in answers without loading http2
 * (any other constant, and everything else, loads the real module). A function, so that the bundle
 * carries no copy of it.
 */
export function undiciLazyBuiltins() {
  return {
    'node:http2': {
      file: 'node-http2.js',
      constants: {
        HTTP2_HEADER_AUTHORITY: ':authority',
        HTTP2_HEADER_METHOD: ':method',
        HTTP2_HEADER_PATH: ':path',
        HTTP2_HEADER_SCHEME: ':scheme',
        HTTP2_HEADER_STATUS: ':status',
        HTTP2_HEADER_PROTOCOL: ':protocol',
        HTTP2_HEADER_CONTENT_LENGTH: 'content-length',
        HTTP2_HEADER_EXPECT: 'expect',
        NGHTTP2_NO_ERROR: 0,
        NGHTTP2_REFUSED_STREAM: 7,
      },
    },
  };
}
