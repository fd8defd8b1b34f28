// node:sqlite, Node's own SQLite: no native module, so it runs in the npm package and in the
// executable alike. Node 22 says it is experimental on stderr the first time it loads; that one
// warning is not the user's business (every other warning is still shown).
import type * as NodeSqlite from 'node:sqlite';
import type { DatabaseSync } from 'node:sqlite';
import { ConfigError } from '../../core/config-error.js';

type Sqlite = typeof NodeSqlite;

let loaded: Sqlite | undefined;

export function loadSqlite(): Sqlite {
  if (loaded) return loaded;
  const others = process.listeners('warning');
  process.removeAllListeners('warning');
  const filter = (warning: Error) => {
    if (warning.name === 'ExperimentalWarning' && /SQLite/i.test(warning.message)) return;
    for (const listener of others) listener(warning);
  };
  process.on('warning', filter);
  let sqlite: Sqlite | undefined;
  try {
    sqlite = process.getBuiltinModule('node:sqlite');
  } catch {
    sqlite = undefined;
  }
  // The warning is emitted on the next tick: the filter stays until then.
  process.nextTick(() => {
    process.removeListener('warning', filter);
    for (const listener of others) process.on('warning', listener);
  });
  if (!sqlite?.DatabaseSync) {
    throw new ConfigError(
      '--store',
      `needs node:sqlite, which this Node (${process.version}) does not give without a flag. Use Node 22.13 or later, or the standalone executable.`,
    );
  }
  loaded = sqlite;
  return sqlite;
}

export type { DatabaseSync };
