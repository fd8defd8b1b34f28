// A store's place as messages and logs show it: every credential a PostgreSQL URL can carry for pg
// hidden. pg reads the password from the URL's user information and from any query parameter
// named `password` (or `sslpassword`, a key's passphrase), the name percent-decoded as a URL's
// query is; what it cannot read as a URL at all is not shown.

const POSTGRES = /^(postgres(?:ql)?:\/\/)(.*)$/is;
const HIDDEN = '***';

export function shownStore(location: string): string {
  const url = POSTGRES.exec(location);
  if (!url) return location;
  const [, scheme = '', rest = ''] = url;
  if (!readable(location)) return `${scheme}${HIDDEN} (not a URL pg can read)`;
  // The authority ends at the first `/`, `?` or `#`, as a URL's does (pg-connection-string's parser).
  const end = rest.search(/[/?#]/);
  const authority = end === -1 ? rest : rest.slice(0, end);
  const after = end === -1 ? '' : rest.slice(end);
  return `${scheme}${shownAuthority(authority)}${shownTail(after)}`;
}

/** `user:***@host`: the user information ends at the authority's last `@`, its password after its first `:`. */
function shownAuthority(authority: string): string {
  const at = authority.lastIndexOf('@');
  if (at === -1) return authority;
  const info = authority.slice(0, at);
  const colon = info.indexOf(':');
  return colon === -1 ? authority : `${info.slice(0, colon)}:${HIDDEN}${authority.slice(at)}`;
}

/** The path, then the query with every parameter whose name speaks of a password hidden; the fragment too. */
function shownTail(tail: string): string {
  const hash = tail.indexOf('#');
  const beforeHash = hash === -1 ? tail : tail.slice(0, hash);
  const fragment = hash === -1 ? '' : `#${HIDDEN}`;
  const question = beforeHash.indexOf('?');
  if (question === -1) return `${beforeHash}${fragment}`;
  const query = beforeHash
    .slice(question + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      return /pass/i.test(decodedName(name)) ? `${name}=${HIDDEN}` : pair;
    });
  return `${beforeHash.slice(0, question)}?${query.join('&')}${fragment}`;
}

/** A query parameter's name as a URL's parser reads it: `+` a space, each `%XX` its byte (ASCII is all that matters here). */
function decodedName(name: string): string {
  return name
    .replace(/[\t\n\r]/g, '')
    .replace(/\+/g, ' ')
    .replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/**
 * `text` (an error's message, which may echo the URL) with each credential of the PostgreSQL URL
 * `location` hidden, in every spelling the URL gives it (as written, and decoded).
 */
export function hideCredentials(text: string, location: string): string {
  const secrets = new Set<string>();
  const url = parsed(location);
  const add = (value: string) => {
    secrets.add(value);
    try {
      secrets.add(decodeURIComponent(value));
    } catch {
      // Not valid percent-encoding: pg reads it as it is.
    }
  };
  if (url) {
    if (url.password) add(url.password);
    for (const [name, value] of url.searchParams) if (/pass/i.test(name) && value) secrets.add(value);
  }
  for (const pair of (/\?([^#]*)/.exec(location)?.[1] ?? '').split('&')) {
    const equals = pair.indexOf('=');
    if (equals > 0 && /pass/i.test(decodedName(pair.slice(0, equals)))) add(pair.slice(equals + 1));
  }
  let shown = text;
  // The longest first, so that a secret holding another is hidden whole.
  for (const secret of [...secrets].filter(Boolean).sort((a, b) => b.length - a.length))
    shown = shown.split(secret).join(HIDDEN);
  return shown.replace(/postgres(?:ql)?:\/\/\S*/gi, (found) => shownStore(found));
}

/** The URL as pg's own parser reads it (pg-connection-string), or undefined where it cannot. */
function parsed(location: string): URL | undefined {
  try {
    const text = /[ ]|%[^a-f0-9]|%[a-f0-9][^a-f0-9]/i.test(location) ? encodeURI(location) : location;
    return (
      URL.parse(text, 'postgres://base') ??
      URL.parse(text.replace('@/', '@___DUMMY___/'), 'postgres://base') ??
      undefined
    );
  } catch {
    return undefined; // encodeURI: a lone surrogate
  }
}

const readable = (location: string) => parsed(location) !== undefined;
