// Which store a `--store` value names: a PostgreSQL URL (a later engine), or an SQLite file's path.
// Where none is given: the state directory systemd gives the service (StateDirectory=), else the
// user's XDG state directory.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../core/config-error.js';
import { openSqliteStore } from './sqlite.js';
import type { Store, StoreOptions } from './store.js';

export type { Store } from './store.js';

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

export function openStore(location: string, options: StoreOptions = {}): Store {
  if (/^postgres(ql)?:\/\//i.test(location)) {
    throw new ConfigError(
      '--store',
      'names a PostgreSQL database, which this version of report-deployment does not store in yet. Give an SQLite file path.',
    );
  }
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
