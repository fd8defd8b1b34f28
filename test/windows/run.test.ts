// `report-deployment run` on Windows (vitest runs test/windows/ there only): the command found through
// PATH and PATHEXT, a batch file started through cmd.exe with every argument arriving as it was given
// and none running a second command, and the exit code kept. The CI workflow's Windows job runs these.
import fc from 'fast-check';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFakeService } from '../helpers/fixture.ts';
import { INSTALL_TIMEOUT_MS, installedCli, runCli } from '../helpers/run-cli.ts';
import { ROOT } from '../helpers/run-action.ts';

beforeAll(() => void installedCli(), INSTALL_TIMEOUT_MS);

const fake = useFakeService();
const FIELDS = ['--artifact-id', '42', '--commit-sha', 'c0ffee', '--user', 'alice', '--branch', 'main'];
const env = () => ({ DEPLOY_TRACKER_URL: fake.service.url, DEPLOY_TRACKER_API_KEY: fake.service.apiKey });
const statuses = () => [...fake.service.deployments.values()].map((deployment) => deployment.statuses);
const FIXTURES = join(ROOT, 'test', 'fixtures', 'cli');

describe('on Windows', () => {
  it('finds a batch file by its bare name through PATH and PATHEXT (npm is npm.cmd), and keeps its exit code', async () => {
    const result = await runCli(['run', ...FIELDS, '--', 'exit', '3'], {
      env: { ...env(), PATH: `${FIXTURES};${dirname(process.execPath)};${process.env.PATH ?? ''}` },
    });

    expect(result.exitCode).toBe(3);
    expect(statuses()).toEqual([['STARTED', 'FAILED']]);
  });

  it('runs npm, as `run -- npm run deploy` does', async () => {
    const result = await runCli(['run', ...FIELDS, '--', 'npm', '--version'], {
      env: { ...env(), PATH: process.env.PATH ?? '' },
    });

    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^\d+\.\d+\.\d+/);
    expect(statuses()).toEqual([['STARTED', 'SUCCEEDED']]);
  });

  it('passes every argument to a batch file as it was, and none runs a second command', async () => {
    const hostile = fc.string({
      unit: fc.constantFrom(...'"\\%^&|<>()! a'.split(''), '%PATH%', '&echo INJECTED'),
      maxLength: 10,
    });
    await fc.assert(
      fc.asyncProperty(fc.array(hostile, { minLength: 1, maxLength: 3 }), async (args) => {
        const result = await runCli(['run', ...FIELDS, '--', join(FIXTURES, 'args.cmd'), ...args], { env: env() });
        expect(result.exitCode).toBe(0);
        expect(result.stdout.trim().split('\n')).toEqual([JSON.stringify(args)]);
      }),
      { numRuns: 15 },
    );
  });

  it('refuses an argument holding a line break, which cmd.exe cannot carry (126), and runs nothing', async () => {
    const result = await runCli(['run', ...FIELDS, '--', join(FIXTURES, 'args.cmd'), 'a\nb'], { env: env() });

    expect(result.exitCode).toBe(126);
    expect(result.stdout).toBe('');
    expect(result.messages.join('\n')).toContain('cmd.exe cannot pass to a batch file');
  });

  it('127 for a command found nowhere', async () => {
    const result = await runCli(['run', ...FIELDS, '--', 'no-such-deploy'], { env: env() });

    expect(result.exitCode).toBe(127);
    expect(result.messages).toContain("error: 'no-such-deploy' was not found.");
  });
});
