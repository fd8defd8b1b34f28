// Argo CD's catch-up is enabled by the variables Argo CD's own CLI reads: ARGOCD_SERVER (`host:port`,
// spoken to over HTTPS, or a URL with its scheme) and ARGOCD_AUTH_TOKEN (an account's token, sent as
// a Bearer token). Neither set: no catch-up. One without the other, or a value that cannot be what
// it says, stops the receiver at start with the variable named; the token's value is never shown.
import { ConfigError } from '../../core/config-error.js';
import { proxyFor } from '../../core/proxy.js';
import { quote } from '../../core/text.js';
import { instanceOf } from '../sources/fields.js';

type Env = Record<string, string | undefined>;

export const SERVER_VARIABLE = 'ARGOCD_SERVER';
export const TOKEN_VARIABLE = 'ARGOCD_AUTH_TOKEN';

export interface ArgoCdCatchUpConfig {
  /** Where the API is: the server's URL, ending in `/` (a path prefix, `--rootpath`, kept). */
  base: URL;
  /** The account's token, sent as `Authorization: Bearer`; never in any output. */
  token: string;
  /** This Argo CD as the catch-up mark names it: its host, port and path, lower case. */
  instance: string;
}

/** The configuration, or undefined when neither variable is set; throws a ConfigError naming the variable at fault. */
export function readArgoCdCatchUp(env: Env): ArgoCdCatchUpConfig | undefined {
  const server = env[SERVER_VARIABLE] ?? '';
  const token = env[TOKEN_VARIABLE] ?? '';
  if (!server && !token) return undefined;
  if (!server)
    throw missing(SERVER_VARIABLE, `${TOKEN_VARIABLE} is set`, 'the Argo CD server (`argocd.example.com:443`)');
  if (!token)
    throw missing(
      TOKEN_VARIABLE,
      `${SERVER_VARIABLE} is set`,
      'the token of an Argo CD account (`argocd account generate-token`)',
    );
  checkToken(token);
  const base = serverUrl(server);
  // A proxy variable that is no URL is said now, not at the first pass.
  proxyFor(base, env);
  return { base, token, instance: instanceOf(base.href) ?? base.host };
}

function missing(variable: string, because: string, what: string): ConfigError {
  return new ConfigError(
    `Environment variable ${variable}`,
    `is not set, but ${because}: Argo CD's catch-up needs both. Set it to ${what}, or unset ${variable === SERVER_VARIABLE ? TOKEN_VARIABLE : SERVER_VARIABLE} to leave catch-up off.`,
  );
}

/** A token goes into a header as it is: it must be one there (no white space, no control character). */
function checkToken(token: string): void {
  if (/^[\x21-\x7e]+$/.test(token)) return;
  throw new ConfigError(
    `Environment variable ${TOKEN_VARIABLE}`,
    'holds white space or a character no HTTP header carries (a line break from `echo`?). Set it to the token alone, as `argocd account generate-token` prints it.',
  );
}

/**
 * The server's URL: `host:port` (or a host alone) is HTTPS, as the CLI speaks to it; `https://` or
 * `http://` (a server run with `--insecure` behind nothing, the CLI's `--plaintext`) as given. A
 * user, a query or a fragment in it is refused: the token is the only credential.
 */
function serverUrl(value: string): URL {
  const text = value.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  const url = URL.parse(withScheme);
  const problem = !url
    ? 'is not a host:port or a URL'
    : !/^https?:$/.test(url.protocol)
      ? `has the scheme ${quote(url.protocol)}, not https or http`
      : url.username || url.password
        ? 'holds a user or a password (the token is the only credential: put it in ARGOCD_AUTH_TOKEN)'
        : url.search || url.hash
          ? 'holds a query or a fragment'
          : !url.hostname
            ? 'names no host'
            : undefined;
  if (problem || !url) {
    // The value may hold a password: shown without what comes before an `@`.
    const shown = quote(text.replace(/^([a-z][a-z0-9+.-]*:\/\/)?[^/]*@/i, '$1***@'));
    throw new ConfigError(
      `Environment variable ${SERVER_VARIABLE}`,
      `${problem ?? 'is not a URL'}: ${shown}. Set it as for the argocd CLI: \`argocd.example.com\`, \`argocd.example.com:8443\` or \`https://argocd.example.com/argocd\`.`,
    );
  }
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}
