// A `postgres://` URL as libpq reads it, for pg: TLS (`sslmode` and its files) from the URL or the
// PGSSL* variables with libpq's meanings, what the URL leaves out from the PG* variables (pg reads
// them itself), and a pg error in words.
import type pg from 'pg';
import { parse as parseConnectionString } from 'pg-connection-string';
import { hideCredentials } from './shown.js';

type Env = Record<string, string | undefined>;

/** The libpq TLS variables, for a URL that does not say them itself. */
const TLS_VARIABLES = { sslmode: 'PGSSLMODE', sslrootcert: 'PGSSLROOTCERT', sslcert: 'PGSSLCERT', sslkey: 'PGSSLKEY' };

/**
 * The pool's settings from a `postgres://` URL, read as libpq reads it: `sslmode` and its files in
 * the URL or in PGSSLMODE..., and what the URL leaves out (host, user, password, database) from the
 * PG* variables, which pg reads itself.
 */
export function connectionConfig(url: string, env: Env = process.env): pg.PoolConfig {
  const [base, query = ''] = url.split(/\?(.*)/s, 2);
  const params = new URLSearchParams(query);
  for (const [param, variable] of Object.entries(TLS_VARIABLES)) {
    const value = env[variable];
    if (!params.has(param) && value) params.set(param, value);
  }
  const text = params.size ? `${base}?${params.toString()}` : (base ?? url);
  const parsed = parseConnectionString(text, { useLibpqCompat: !params.has('uselibpqcompat') });
  const config: Record<string, unknown> = {};
  // What the URL leaves empty is left to pg's defaults: the PG* variables, as libpq.
  for (const [name, value] of Object.entries(parsed))
    if (value !== null && value !== undefined && value !== '') config[name] = value;
  return config;
}

/**
 * A pg error in words: its message, and PostgreSQL's code or Node's where there is one; every
 * credential of `url` hidden, should the message echo it.
 */
export function describe(error: unknown, url?: string): string {
  const { message, code } = error as { message?: string; code?: string };
  const text = message || String(error);
  const said = code && !text.includes(code) ? `${text} (${code})` : text;
  return url === undefined ? said : hideCredentials(said, url);
}

/**
 * How long one query may take, the client's count: a connection that died without a reset (a
 * network that drops everything) answers nothing, and without a bound a group commit would wait
 * for the kernel's keepalive (about 15 minutes), and every acknowledgement with it.
 */
export const QUERY_TIMEOUT_MS = 30_000;

/** Every wait on the database bounded: connecting, each query (client and server), an idle transaction. */
export function poolBounds(queryTimeoutMs: number): pg.PoolConfig {
  return {
    connectionTimeoutMillis: 10_000,
    query_timeout: queryTimeoutMs,
    // The server's own bound comes first, with PostgreSQL's clearer error.
    statement_timeout: Math.round(queryTimeoutMs * 0.8),
    // A transaction left open by a client that vanished gives its row locks back.
    idle_in_transaction_session_timeout: 2 * queryTimeoutMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  };
}
