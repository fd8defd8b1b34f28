// What a request that got no HTTP answer ran into, named for the retry policy and said for a person:
// which host, the service's or the proxy's, and what to do about a certificate.
import type { NetworkCause } from './retry.js';
import type { Proxy } from './proxy.js';

/** The request got no HTTP answer: nothing reached the service, or no reply came back in time. */
export class NetworkError extends Error {
  override name = 'NetworkError';
  /** What it ran into, for the retry policy (retry.ts). */
  readonly category: NetworkCause;
  constructor(message: string, category: NetworkCause = 'other', options?: ErrorOptions) {
    super(message, options);
    this.category = category;
  }
}

interface NetworkFailure {
  cause: NetworkCause;
  /** One line, e.g. "connection refused (tracker.example.com)". */
  text: string;
}

interface ChainLink {
  code: string;
  name: string;
  message: string;
}

const CERTIFICATE_PROBLEMS: [RegExp, string][] = [
  [/CERT_HAS_EXPIRED/, 'has expired'],
  [/CERT_NOT_YET_VALID/, 'is not valid yet'],
  [/SELF_SIGNED/, 'is self-signed (no trusted authority issued it)'],
  [/UNABLE_TO_(VERIFY_LEAF_SIGNATURE|GET_ISSUER_CERT)/, 'is issued by an authority this runner does not trust'],
  [/ERR_TLS_CERT_ALTNAME_INVALID|HOSTNAME_MISMATCH/, 'is for another host name'],
  [/CERT_/, 'was refused'],
];

/** Names what `error` (undici nests the system error in `cause`) means, for a request to `host`. */
export function describeNetworkError(
  error: unknown,
  host: string,
  proxy: Proxy | undefined,
  serviceAddress: string,
): NetworkFailure {
  const chain = errorChain(error);
  const has = (pattern: RegExp) => chain.some((link) => pattern.test(`${link.code} ${link.name} ${link.message}`));
  const code = chain.map((link) => link.code).find((c) => c !== '') ?? '';
  const through = proxy ? ` through the proxy ${proxyName(proxy)}` : '';

  const proxyStatus = /Proxy (?:response|Authentication Required) \((\d{3})\)/.exec(
    chain.map((l) => l.message).join(' '),
  );
  if (proxy && proxyStatus?.[1] === '407') {
    // Credentials given and refused, or none given.
    const text = proxy.url.username
      ? `the proxy ${proxyName(proxy)} refused the credentials its URL gives (HTTP 407): check the user name and password there (a \`%\`, \`@\`, \`:\` or \`/\` in them written \`%25\`, \`%40\`, \`%3A\`, \`%2F\`)`
      : `the proxy ${proxyName(proxy)} asks for credentials (HTTP 407): put them in ${proxy.variable} as http://user:password@host:port`;
    return { cause: 'proxy-auth', text };
  }
  if (proxy && proxyStatus) {
    return {
      cause: 'proxy-refused',
      text: `the proxy ${proxyName(proxy)} would not connect to ${host} (HTTP ${proxyStatus[1]})`,
    };
  }
  const certificate = CERTIFICATE_PROBLEMS.find(([pattern]) => has(pattern));
  if (certificate) {
    // Through an https proxy, the certificate may be the proxy's: undici does not always say which.
    const whose = proxy?.url.protocol === 'https:' ? `${host} (or of the proxy ${proxyName(proxy)})` : host;
    return {
      cause: 'tls',
      text: `the TLS certificate of ${whose} ${certificate[1]} (${code || 'TLS'}). If the service uses a private certificate authority, point NODE_EXTRA_CA_CERTS at its certificate`,
    };
  }
  if (has(/ERR_SSL|ERR_TLS|EPROTO|UND_ERR_PRX_TLS/))
    return { cause: 'tls', text: `the TLS handshake with ${host} failed (${code})` };
  // An answer that is no valid HTTP/1.1: llhttp's error (undici leaves its HPE_ code unset, but
  // names it); or, said as 'bad response', an interim 100 Continue that was not asked for (undici
  // takes none, though HTTP allows one) or an answer to no request.
  const parser = chain.find((link) => link.name === 'HTTPParserError' || link.code.startsWith('HPE_'));
  if (parser) {
    const why = /\((.+)\)$/.exec(parser.message)?.[1] ?? (parser.code || 'unreadable');
    return {
      cause: 'malformed',
      text: `the answer of ${host}${through} is not valid HTTP/1.1 (${why}): is ${serviceAddress} the service's address, with the right scheme (http or https)?`,
    };
  }
  if (chain.some((link) => link.code === 'UND_ERR_SOCKET' && link.message === 'bad response')) {
    return {
      cause: 'malformed',
      text: `the answer of ${host}${through} is one this client cannot read: an interim \`100 Continue\` it did not ask for, or an answer before any request (the service may have acted on the request)`,
    };
  }
  // Through a proxy every connection is to the proxy: a refused or unknown host is the proxy's.
  if (has(/ECONNREFUSED/)) {
    return proxy
      ? { cause: 'refused', text: `cannot reach the proxy ${proxyName(proxy)}: connection refused` }
      : { cause: 'refused', text: `connection refused (${host})` };
  }
  if (has(/ENOTFOUND|EAI_AGAIN|EAI_NONAME|EAI_FAIL/)) {
    return proxy
      ? { cause: 'dns', text: `cannot reach the proxy ${proxyName(proxy)}: host name not found` }
      : { cause: 'dns', text: `host name not found (${host})` };
  }
  if (has(/TimeoutError|AbortError|UND_ERR_(HEADERS|BODY|CONNECT)_TIMEOUT|ETIMEDOUT/)) {
    return { cause: 'timeout', text: `no answer in time (${host}${through})` };
  }
  if (has(/ECONNRESET|EPIPE|UND_ERR_SOCKET|UND_ERR_CLOSED|ProxyConnectionError/)) {
    return { cause: 'reset', text: `connection closed before an answer (${host}${through})` };
  }
  return { cause: 'other', text: `network error${code ? ` ${code}` : ''} (${host}${through})` };
}

/** "HTTPS_PROXY (http://proxy.example.com:3128)", without credentials. */
function proxyName(proxy: Proxy): string {
  return `${proxy.variable} (${proxy.url.origin})`;
}

function errorChain(error: unknown): ChainLink[] {
  const chain: ChainLink[] = [];
  let current: unknown = error;
  while (current && typeof current === 'object' && chain.length < 6) {
    const { code, name, message, cause } = current as {
      code?: unknown;
      name?: unknown;
      message?: unknown;
      cause?: unknown;
    };
    chain.push({
      code: typeof code === 'string' ? code : '',
      name: typeof name === 'string' ? name : '',
      message: typeof message === 'string' ? message : '',
    });
    current = cause;
  }
  return chain;
}
