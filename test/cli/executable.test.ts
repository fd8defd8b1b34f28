// The single executable itself (scripts/sea.ts), beyond what every subject's tests check (the CLI's
// end-to-end files run on it too, vitest.config.ts): one file that needs nothing beside it and no
// Node on the machine, that never starts `node` (process.execPath is the executable itself), and
// that NODE_OPTIONS cannot change.
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seaName } from '../../scripts/sea.ts';
import { useFakeService } from '../helpers/fixture.ts';
import { INSTALL_TIMEOUT_MS, installedSea, runCli } from '../helpers/run-cli.ts';
import { ROOT } from '../helpers/run-action.ts';

beforeAll(() => void installedSea(), INSTALL_TIMEOUT_MS);

const fake = useFakeService();
const FIELDS = ['--artifact-id', '42', '--commit-sha', 'c0ffee', '--user', 'alice', '--branch', 'main'];
const env = (extra: Record<string, string> = {}) => ({
  DEPLOY_TRACKER_URL: fake.service.url,
  DEPLOY_TRACKER_API_KEY: fake.service.apiKey,
  ...extra,
});
const SHA = '9fceb02d0ae598e95dc970b74767f19372d61af8';
const packageVersion = () =>
  (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

let work: string | undefined;
afterEach(() => {
  if (work) rmSync(work, { recursive: true, force: true });
  work = undefined;
});

describe('the executable', () => {
  it('is one file alone in its folder, run with no node on its PATH; --version is the package’s', async () => {
    const { dir, path } = installedSea();
    const version = await runCli(['--version'], { subject: 'sea' });

    expect(readdirSync(dir)).toEqual([seaName()]);
    expect(path.split(delimiter).filter((entry) => existsSync(join(entry, 'node')))).toEqual([]);
    expect(version.exitCode).toBe(0);
    expect(version.stdout).toBe(`${packageVersion()}\n`);
    expect(version.stderr).toBe('');
  });

  it('reads a CI only env-ci knows (Travis CI) without starting node: a `node` on PATH is never run', async () => {
    work = mkdtempSync(join(tmpdir(), 'report-deployment-no-node-'));
    const marker = join(work, 'node-was-run');
    writeFileSync(join(work, 'node'), `#!/bin/sh\necho "$@" >> '${marker}'\nexit 1\n`);
    chmodSync(join(work, 'node'), 0o755);
    const travis = {
      CI: 'true',
      TRAVIS: 'true',
      TRAVIS_COMMIT: SHA,
      TRAVIS_BRANCH: 'main',
      TRAVIS_JOB_WEB_URL: 'https://app.travis-ci.com/acme/shop/jobs/5',
      PATH: [work, installedSea().path].join(delimiter),
    };

    const context = await runCli(['context', '--artifact-id', '42', '--user', 'alice', '--json'], {
      subject: 'sea',
      env: env(travis),
    });
    const record = await runCli(['record', '--status', 'success', '--artifact-id', '42', '--user', 'alice'], {
      subject: 'sea',
      env: env(travis),
    });

    expect(context.exitCode).toBe(0);
    expect(JSON.parse(context.stdout)).toMatchObject({
      ci: { value: 'Travis CI' },
      commitSha: { value: SHA, source: 'Travis CI (through env-ci)' },
      link: { value: 'https://app.travis-ci.com/acme/shop/jobs/5' },
    });
    expect(record.exitCode).toBe(0);
    expect(fake.service.requests[0]?.body).toMatchObject({ commitSha: SHA, branch: 'main', status: 'SUCCEEDED' });
    expect(existsSync(marker)).toBe(false);
  });

  it('ignores NODE_OPTIONS (a CI’s, meant for its build): it neither stops it nor changes it; the command gets it', async () => {
    const nodeOptions = '--require ./no-such-preload.cjs --max-old-space-size=1';
    const result = await runCli(['run', ...FIELDS, '--', 'sh', '-c', 'echo "$NODE_OPTIONS"; exit 3'], {
      subject: 'sea',
      env: env({ NODE_OPTIONS: nodeOptions }),
    });

    expect(result.exitCode).toBe(3);
    expect(result.stdout).toBe(`${nodeOptions}\n`);
    expect(result.messages[0]).toBe('Recorded deployment 1: artifact 42 version c0ffee to Production (STARTED).');
    expect(fake.service.deployments.get('1')?.statuses).toEqual(['STARTED', 'FAILED']);
  });

  it('passes the smoke test the release runs on each platform’s runner (scripts/sea-smoke.ts)', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(ROOT, 'scripts', 'sea-smoke.ts'), installedSea().bin, packageVersion()],
      { timeout: 60_000 },
    );

    expect(stdout.split('\n').filter((line) => line.startsWith('ok: '))).toHaveLength(5);
  });
});
