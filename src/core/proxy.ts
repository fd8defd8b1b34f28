// Which proxy, if any, carries a request to the service. The variables are read as undici's
// EnvHttpProxyAgent reads them (lower case first; https falls back to the http proxy; NO_PROXY
// entries match a host, its subdomains, `*`, with an optional port), with one rule more: a loopback
// service (`localhost`, 127.x.x.x, [::1]) is always reached directly, as Go's net/http does for
// localhost and loopback addresses. A proxy cannot reach
// this machine's loopback anyway, and the key would travel to it in clear over plain http. Of the
// proxy's URL, only what curl takes: its scheme, host, port and credentials.
import { ConfigError } from './config-error.js';
import { quote } from './text.js';

export type Env = Record<string, string | undefined>;

export interface Proxy {
  url: URL;
  /** The variable it came from, e.g. `HTTPS_PROXY`, to name in messages. */
  variable: string;
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/**
 * The proxy for requests to `target`, or undefined for a direct connection. Throws a ConfigError when
 * the variable is no proxy URL, its value shown by `shown` (settings.ts cleans it of the key first).
 */
export function proxyFor(target: URL, env: Env, shown: (value: string) => string = quote): Proxy | undefined {
  if (isLoopback(target.hostname)) return undefined;
  const variable = proxyVariable(target.protocol, env);
  if (!variable) return undefined;
  const port = Number(target.port) || DEFAULT_PORTS[target.protocol] || 0;
  if (!shouldProxy(hostOf(target), port, env.no_proxy ?? env.NO_PROXY ?? '')) return undefined;
  return { url: parseProxyUrl(variable.name, variable.value, shown), variable: variable.name };
}

function proxyVariable(protocol: string, env: Env): { name: string; value: string } | undefined {
  const pick = (lower: string, upper: string) => {
    const name = env[lower] !== undefined ? lower : upper;
    const value = env[name];
    return value ? { name, value } : undefined;
  };
  const http = pick('http_proxy', 'HTTP_PROXY');
  return protocol === 'https:' ? (pick('https_proxy', 'HTTPS_PROXY') ?? http) : http;
}

function parseProxyUrl(variable: string, value: string, shown: (value: string) => string): URL {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url || !['http:', 'https:'].includes(url.protocol) || !url.hostname) {
    throw new ConfigError(
      `Environment variable ${variable}`,
      `is not a proxy URL: ${shown(withoutCredentials(value))}. Set it to e.g. \`http://proxy.example.com:3128\`, or unset it.`,
    );
  }
  // undici decodes them for the Proxy-Authorization header, and throws at the first request where one
  // is no UTF-8 percent-encoding (`us%ZZer`): said here instead, the credentials not shown.
  if (!decodes(url.username) || !decodes(url.password)) {
    throw new ConfigError(
      `Environment variable ${variable}`,
      `has a user name or password that is not percent-encoded: ${shown(withoutCredentials(value))}. Write each \`%\` in them as \`%25\` (and \`@\`, \`:\`, \`/\` as \`%40\`, \`%3A\`, \`%2F\`).`,
    );
  }
  // A proxy is a host and a port (and credentials): a path, query or fragment after them says
  // nothing to it, and curl ignores them; so does this (undici would refuse the URL at connection time).
  url.pathname = '/';
  url.search = '';
  url.hash = '';
  return url;
}

function decodes(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/** The host name as NO_PROXY entries name it: lower case, no brackets, no trailing dot. */
function hostOf(url: URL): string {
  return url.hostname
    .replace(/^\[(.+)\]$/, '$1')
    .replace(/^(.+)\.$/, '$1')
    .toLowerCase();
}

function shouldProxy(host: string, port: number, noProxy: string): boolean {
  for (const entry of noProxy.split(/[,\s]/)) {
    if (!entry) continue;
    const { hostname, port: entryPort, wildcard } = parseNoProxyEntry(entry);
    if (entryPort && entryPort !== port) continue;
    if (hostname === '*') return false;
    if (!wildcard && host === hostname) return false;
    if (host.endsWith(`.${hostname}`)) return false;
  }
  return true;
}

function parseNoProxyEntry(entry: string): { hostname: string; port: number; wildcard: boolean } {
  const bracketed = /^\[(.+)\]:(\d+)$/.exec(entry);
  let hostname = bracketed?.[1];
  let port = bracketed ? Number(bracketed[2]) : 0;
  if (!bracketed) {
    const unbracketed = entry.replace(/^\[(.+)\]$/, '$1');
    const hostPort = (unbracketed.match(/:/g) ?? []).length === 1 ? /^(.+):(\d+)$/.exec(unbracketed) : null;
    hostname = hostPort?.[1] ?? unbracketed;
    port = hostPort ? Number(hostPort[2]) : 0;
  }
  const name = (hostname ?? '')
    .replace(/^\*?\./, '')
    .replace(/^(.+)\.$/, '$1')
    .toLowerCase();
  return { hostname: name, port, wildcard: entry.startsWith('*') };
}

export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  // `localhost` by name, not its subdomains: a resolver may send `x.localhost` anywhere.
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** A URL, or what was meant as one, for a message: its user name and password shown as `***`. */
export function withoutCredentials(text: string): string {
  // Up to the last '@': a password may hold '/', '?' or '#' (more is hidden than needed, never less).
  return text.replace(/^([a-z][a-z0-9+.-]*:\/\/)?.*@/is, '$1***@');
}
