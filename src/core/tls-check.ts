// NODE_TLS_REJECT_UNAUTHORIZED=0 turns off Node's check of every certificate: the API key would go to
// whichever server answers for the service (or the proxy). Teams set it CI-wide for another tool, so
// it is refused, before any request, where the service or its proxy is reached over TLS, rather than
// honoured with a warning that a log nobody reads would carry (and Node's own warning names a
// `--trace-warnings` flag the tool does not have). A private certificate authority has a safe way in:
// NODE_EXTRA_CA_CERTS.
import { ConfigError } from './config-error.js';
import type { Env } from './proxy.js';

const VARIABLE = 'NODE_TLS_REJECT_UNAUTHORIZED';

/** Throws a ConfigError where `usesTls` and the variable turns certificate checks off ('0', as Node reads it). */
export function checkTlsVerification(env: Env, usesTls: boolean): void {
  if (!usesTls || env[VARIABLE] !== '0') return;
  throw new ConfigError(
    `Environment variable ${VARIABLE}`,
    `is '0', which turns off the check of the service's certificate: the API key would go to whichever server answers. report-deployment does not send it so. Unset the variable for report-deployment (or set it to 1); if the service's certificate comes from a private certificate authority, point NODE_EXTRA_CA_CERTS at that authority's PEM file instead.`,
  );
}
