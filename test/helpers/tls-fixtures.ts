// The TLS fixtures scripts/make-test-certs.sh writes into test/fixtures/tls/: a test CA and server
// certificates signed by it (or not), for the fake service's `tls` option.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const TLS_FIXTURES_DIR = join(import.meta.dirname, '..', 'fixtures', 'tls');

/** The test CA's certificate: give its path to the action as NODE_EXTRA_CA_CERTS. */
export const TEST_CA_PATH = join(TLS_FIXTURES_DIR, 'ca.pem');

/** The host names every certificate but `wrong-host` is for. */
export const TLS_HOSTS = ['127.0.0.1', 'localhost', 'tracker.test'] as const;

export const TLS_FIXTURES = {
  /** Signed by the test CA for TLS_HOSTS, valid 2025 to 2125. */
  server: 'server.pem',
  /** Signed by the test CA for TLS_HOSTS, valid only in 2000. */
  expired: 'expired.pem',
  /** Signed by the test CA for other-host.test only. */
  'wrong-host': 'wrong-host.pem',
  /** For TLS_HOSTS, signed by its own key: no CA vouches for it. */
  'self-signed': 'self-signed.pem',
} as const;

export type TlsFixtureName = keyof typeof TLS_FIXTURES;

/** The key and certificate (PEM) of a fixture, as the fake service's `tls` option takes them. */
export function tlsFixture(name: TlsFixtureName): { key: string; cert: string } {
  return {
    key: readFileSync(join(TLS_FIXTURES_DIR, 'leaf-key.pem'), 'utf8'),
    cert: readFileSync(join(TLS_FIXTURES_DIR, TLS_FIXTURES[name]), 'utf8'),
  };
}
