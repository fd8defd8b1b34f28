// Which store a `--store` value names: a PostgreSQL URL (postgres.ts), or an SQLite file's path.
// Where none is given: the state directory systemd gives the service (StateDirectory=), else the
// user's XDG state directory.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../core/config-error.js';
import { openSqliteStore } from './sqlite.js';
import type { Store, StoreOptions } from './store.js';

export type { Store } from './store.js';
export { shownStore } from './shown.js';

type Env = Record<string, string | undefined>;

const FILE = 'receiver.sqlite';

/** The store's default place: $STATE_DIRECTORY, else $XDG_STATE_HOME/report-deployment, else ~/.local/state/report-deployment. */
export function defaultStorePath(env: Env, home = homedir()): string {
  // systemd may give several directories, separated by colons: the first is the unit's own.
  const systemd = env.STATE_DIRECTORY?.split(':')[0];
  if (systemd) return join(systemd, FILE);
  const xdg = env.XDG_STATE_HOME?.startsWith('/') ? env.XDG_STATE_HOME : join(home, '.local', 'state');
  return join(xdg, 'report-deployment', FILE);
}

const POSTGRES_URL = /^postgres(ql)?:\/\//i;

export const isPostgresUrl = (location: string) => POSTGRES_URL.test(location);

/**
 * The store where --store is not given: DATABASE_URL when it names a PostgreSQL database (as
 * platforms set it), else the SQLite file's default place.
 */
export function defaultStore(env: Env, home = homedir()): string {
  const url = env.DATABASE_URL?.trim();
  return url && isPostgresUrl(url) ? url : defaultStorePath(env, home);
}

/**
 * The PostgreSQL store, its module (and pg with it) loaded only when a PostgreSQL URL is given: a
 * receiver on SQLite never loads it. Each call waits for the module.
 */
function openPostgres(url: string, options: StoreOptions): Store {
  if (process.env.NODE_PG_FORCE_NATIVE !== undefined)
    throw new ConfigError(
      'Environment variable NODE_PG_FORCE_NATIVE',
      "asks pg for its native binding, which report-deployment does not ship. Unset it: pg's own client is used.",
    );
  const loading = import('./postgres.js').then((module) => module.openPostgresStore(url, options));
  loading.catch(() => undefined);
  return {
    engine: 'postgres',
    accept: (delivery) => loading.then((store) => store.accept(delivery)),
    claim: (owner, limit, leaseMs) => loading.then((store) => store.claim(owner, limit, leaseMs)),
    markSending: (work) => loading.then((store) => store.markSending(work)),
    finish: (work, outcome) => loading.then((store) => store.finish(work, outcome)),
    release: (works) => loading.then((store) => store.release(works)),
    list: (states, limit) => loading.then((store) => store.list(states, limit)),
    retry: (id) => loading.then((store) => store.retry(id)),
    resolve: (id, serviceId) => loading.then((store) => store.resolve(id, serviceId)),
    stats: () => loading.then((store) => store.stats()),
    prune: (olderThanMs) => loading.then((store) => store.prune(olderThanMs)),
    ping: () => loading.then((store) => store.ping()),
    holds: (source, deliveryId) => loading.then((store) => store.holds(source, deliveryId)),
    exclusive: (name, work) => loading.then((store) => store.exclusive(name, work)),
    markOf: (source, name, now) => loading.then((store) => store.markOf(source, name, now)),
    close: () => loading.then((store) => store.close()),
  };
}

export function openStore(location: string, options: StoreOptions = {}): Store {
  if (POSTGRES_URL.test(location)) return openPostgres(location, options);
  if (location.trim() === '')
    throw new ConfigError('--store', 'is empty. Give an SQLite file path, or leave the flag out for the default.');
  try {
    return openSqliteStore(location, options);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    const code = (error as { code?: string }).code;
    const why = error instanceof Error ? error.message : String(error);
    throw new ConfigError(
      '--store',
      `cannot be opened as an SQLite file (${location}): ${why}${code ? ` (${code})` : ''}.`,
    );
  }
}
