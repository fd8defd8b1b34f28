// NODE_EXTRA_CA_CERTS that Node.js would read for ever (a FIFO, a device): refused before any request.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/config-error.ts';
import { checkExtraCaCerts } from '../../src/core/extra-ca-certs.ts';
import { runCliInProcess } from '../helpers/cli-in-process.ts';
import { fixtureCommand } from '../helpers/run-cli.ts';

// A key as real ones look: the log masks every occurrence of the key, and a one-letter key would mask
// that letter in the temporary folder's random name too, which the messages quote.
const KEY = 'rd-test-key-5d1c0f6a9b2e';
const dir = mkdtempSync(join(tmpdir(), 'report-deployment-ca-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const fifo = join(dir, 'fifo');
execFileSync('mkfifo', [fifo]);
const pem = join(dir, 'ca.pem');
writeFileSync(pem, '-----BEGIN CERTIFICATE-----\n');

describe('checkExtraCaCerts', () => {
  it.each([fifo, '/dev/zero', dir])('refuses %s where TLS is used: not a regular file', (path) => {
    const check = () => checkExtraCaCerts({ NODE_EXTRA_CA_CERTS: path }, true);
    expect(check).toThrow(ConfigError);
    expect(check).toThrow(
      `Environment variable NODE_EXTRA_CA_CERTS names '${path}', which is not a regular file (Node.js would wait on it for ever): point it at the certificate authority's PEM file, or unset it.`,
    );
  });

  it.each([
    ['a regular file', pem, true],
    ['a missing file (Node warns, and goes on without it)', join(dir, 'none.pem'), true],
    ['a path through a file (ENOTDIR)', join(pem, 'x'), true],
    ['unset', '', true],
    ['a FIFO, where no TLS is used', fifo, false],
  ])('takes %s', (_, path, usesTls) => {
    expect(() => checkExtraCaCerts({ NODE_EXTRA_CA_CERTS: path }, usesTls)).not.toThrow();
  });
});

describe('in the settings', () => {
  it('run against an https service with NODE_EXTRA_CA_CERTS a FIFO: a bad setting, the command runs at once', async () => {
    const result = await runCliInProcess(
      [
        'run',
        '--artifact-id',
        '42',
        '--user',
        'a',
        '--commit-sha',
        'c0ffee',
        '--branch',
        'main',
        '--',
        ...fixtureCommand('exit.cjs', '3'),
      ],
      { DEPLOY_TRACKER_URL: 'https://tracker.example.com/api', DEPLOY_TRACKER_API_KEY: KEY, NODE_EXTRA_CA_CERTS: fifo },
    );

    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain(`NODE_EXTRA_CA_CERTS names '${fifo}', which is not a regular file`);
    expect(result.stderr).toContain('Nothing is recorded; the command runs.');
  });

  it('an http service through an https proxy uses TLS too', async () => {
    const result = await runCliInProcess(['context', '--artifact-id', '42', '--allow-insecure-http'], {
      DEPLOY_TRACKER_URL: 'http://tracker.example.com/api',
      DEPLOY_TRACKER_API_KEY: KEY,
      HTTP_PROXY: 'https://proxy.example.com:3128',
      NODE_EXTRA_CA_CERTS: fifo,
    });

    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('NODE_EXTRA_CA_CERTS names');
  });
});
