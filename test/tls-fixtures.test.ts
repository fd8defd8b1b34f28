// The TLS fixtures are what their names say, checked by certificate and by a real handshake with
// the fake service, so a test that uses one fails for the reason it means to.
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { startFakeService } from './helpers/fake-service.ts';
import { TEST_CA_PATH, TLS_HOSTS, tlsFixture, type TlsFixtureName } from './helpers/tls-fixtures.ts';

const ca = new X509Certificate(readFileSync(TEST_CA_PATH));
const certificate = (name: TlsFixtureName) => new X509Certificate(tlsFixture(name).cert);
const YEAR_MS = 365.25 * 24 * 3600 * 1000;

describe('the certificates', () => {
  it('the CA is a CA, signed by itself, valid for about 100 years', () => {
    expect(ca.ca).toBe(true);
    expect(ca.subject).toBe('CN=report-deployment test CA');
    expect(ca.verify(ca.publicKey)).toBe(true);
    expect(ca.validToDate.getTime() - Date.now()).toBeGreaterThan(90 * YEAR_MS);
  });

  it.each(['server', 'expired', 'wrong-host'] as const)('%s is signed by the CA, not a CA itself', (name) => {
    const cert = certificate(name);
    expect(cert.ca).toBe(false);
    expect(cert.checkIssued(ca)).toBe(true);
    expect(cert.verify(ca.publicKey)).toBe(true);
  });

  it('every certificate belongs to leaf-key.pem', () => {
    const key = createPrivateKey(tlsFixture('server').key);
    for (const name of ['server', 'expired', 'wrong-host', 'self-signed'] as const) {
      expect(certificate(name).checkPrivateKey(key)).toBe(true);
    }
  });

  it('server: for 127.0.0.1, localhost and tracker.test, valid from 2025 for about 100 years', () => {
    const cert = certificate('server');
    expect(cert.subjectAltName).toBe('IP Address:127.0.0.1, DNS:localhost, DNS:tracker.test');
    expect(TLS_HOSTS).toEqual(['127.0.0.1', 'localhost', 'tracker.test']);
    expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(cert.checkHost('tracker.test')).toBe('tracker.test');
    expect(cert.validFromDate.toISOString()).toBe('2025-01-01T00:00:00.000Z');
    expect(cert.validToDate.toISOString()).toBe('2125-01-01T00:00:00.000Z');
  });

  it('expired: the same names, expired at the end of 2000', () => {
    const cert = certificate('expired');
    expect(cert.subjectAltName).toBe('IP Address:127.0.0.1, DNS:localhost, DNS:tracker.test');
    expect(cert.validToDate.toISOString()).toBe('2000-12-31T00:00:00.000Z');
  });

  it('wrong-host: for other-host.test only', () => {
    const cert = certificate('wrong-host');
    expect(cert.subjectAltName).toBe('DNS:other-host.test');
    expect(cert.checkHost('tracker.test')).toBeUndefined();
    expect(cert.checkIP('127.0.0.1')).toBeUndefined();
  });

  it('self-signed: the same names, signed by itself, not by the CA', () => {
    const cert = certificate('self-signed');
    expect(cert.subjectAltName).toBe('IP Address:127.0.0.1, DNS:localhost, DNS:tracker.test');
    expect(cert.issuer).toBe(cert.subject);
    expect(cert.checkIssued(ca)).toBe(false);
    expect(cert.verify(ca.publicKey)).toBe(false);
  });
});

/** 'authorized', or the code of the error a client trusting `ca` gets from the fake with `name`. */
async function handshake(name: TlsFixtureName, trust: string | undefined): Promise<string> {
  const service = await startFakeService({ tls: tlsFixture(name) });
  try {
    return await new Promise<string>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port: service.port, ...(trust ? { ca: trust } : {}) }, () => {
        resolve(socket.authorized ? 'authorized' : String(socket.authorizationError));
        socket.end();
      });
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    });
  } finally {
    await service.close();
  }
}

describe('a TLS handshake with the fake service serving each', () => {
  const trusted = readFileSync(TEST_CA_PATH, 'utf8');

  it.each([
    ['server', true, 'authorized'],
    ['server', false, 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'],
    ['expired', true, 'CERT_HAS_EXPIRED'],
    ['wrong-host', true, 'ERR_TLS_CERT_ALTNAME_INVALID'],
    ['self-signed', true, 'DEPTH_ZERO_SELF_SIGNED_CERT'],
  ] as const)('%s, the test CA trusted: %s -> %s', async (name, trust, expected) => {
    expect(await handshake(name, trust ? trusted : undefined)).toBe(expected);
  });

  it('the fake serves https:// with the tls option', async () => {
    const service = await startFakeService({ tls: tlsFixture('server'), prefix: '/api' });
    try {
      expect(service.url).toBe(`https://127.0.0.1:${service.port}/api`);
    } finally {
      await service.close();
    }
  });
});
