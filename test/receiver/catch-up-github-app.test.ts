// The GitHub App's JWT for catch-up over `/app/hook/deliveries` (issue 33): RS256, the claims GitHub
// reads, and errors that name the variable but never show the key.
import { createPublicKey, createVerify, generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { appJwt, readAppKey } from '../../src/receiver/catch-up/github-app-jwt.ts';

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PEM = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
const NOW = Date.parse('2026-11-28T12:00:00.750Z');

function decode(part: string): unknown {
  return JSON.parse(Buffer.from(part, 'base64url').toString());
}

describe('the App JWT', () => {
  it('is signed RS256 by the App key, issued by the App a minute ago and valid 9 minutes on', () => {
    const jwt = appJwt(readAppKey(' 123456 ', PEM), NOW);
    const [header = '', claims = '', signature = ''] = jwt.split('.');
    expect(decode(header)).toEqual({ alg: 'RS256', typ: 'JWT' });
    const now = Math.floor(NOW / 1000);
    expect(decode(claims)).toEqual({ iat: now - 60, exp: now + 540, iss: '123456' });
    const verify = createVerify('RSA-SHA256').update(`${header}.${claims}`);
    expect(verify.verify(createPublicKey(privateKey), Buffer.from(signature, 'base64url'))).toBe(true);
  });

  it('reads a key whose line breaks were written as \\n, and a PKCS#8 key', () => {
    const pkcs8 = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    for (const pem of [PEM.replace(/\n/g, '\\n'), pkcs8]) {
      expect(readAppKey('1', pem).key.asymmetricKeyType).toBe('rsa');
    }
  });

  it('names the variable to fix', () => {
    expect(() => readAppKey('app-1', PEM)).toThrow(/^GITHUB_APP_ID: give the App ID/);
    expect(() => readAppKey('1', 'not a key')).toThrow(/^GITHUB_APP_PRIVATE_KEY: not a PEM private key/);
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' });
    expect(() => readAppKey('1', ec.toString())).toThrow(/^GITHUB_APP_PRIVATE_KEY: not an RSA key/);
  });

  it('never shows the key given, whatever it is', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 8, maxLength: 200 }), (secret) => {
        const broken = PEM.slice(0, 200) + `S3cr3t-${secret}`;
        try {
          readAppKey('1', broken);
        } catch (error) {
          expect((error as Error).message).not.toContain(`S3cr3t-`);
          expect((error as Error).message).not.toContain(PEM.slice(40, 80));
        }
      }),
      { numRuns: 100 },
    );
  });
});
