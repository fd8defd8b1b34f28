// NODE_EXTRA_CA_CERTS, as Node.js reads it: whole and synchronously, on the process's only thread,
// the first time a TLS connection is made. A file that never ends (a FIFO nobody writes, a device such
// as /dev/zero) would hold the process there for ever, deaf to its deadline and its signals; so one that
// is not a regular file is a configuration error, said before any request. A file that is missing or
// cannot be reached is Node's to warn about, as it does (it then goes on without it).
import { statSync } from 'node:fs';
import { ConfigError } from './config-error.js';
import type { Env } from './proxy.js';
import { quote } from './text.js';

const VARIABLE = 'NODE_EXTRA_CA_CERTS';

/** Throws a ConfigError where `usesTls` and the variable names something other than a regular file. */
export function checkExtraCaCerts(env: Env, usesTls: boolean, shown: (value: string) => string = quote): void {
  const path = env[VARIABLE];
  if (!usesTls || !path) return;
  let stats;
  try {
    // stat, not open: it never waits on a FIFO.
    stats = statSync(path);
  } catch {
    // Missing or out of reach (ENOENT, ENOTDIR, EACCES): Node.js warns of it and goes on without it.
    return;
  }
  if (!stats.isFile()) {
    throw new ConfigError(
      `Environment variable ${VARIABLE}`,
      `names ${shown(path)}, which is not a regular file (Node.js would wait on it for ever): point it at the certificate authority's PEM file, or unset it.`,
    );
  }
}
