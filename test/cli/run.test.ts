// `report-deployment run -- <command>`, as npm pack ships it: the command's exit code, its stdout
// untouched, signals passed on, and reporting that never decides the command's fate.
import { delimiter, dirname } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFakeService } from '../fixture.ts';
import { fixtureCommand, INSTALL_TIMEOUT_MS, installedCli, runCli, waitForText } from '../run-cli.ts';

// Packed and installed once, before any test's own time starts.
beforeAll(() => void installedCli(), INSTALL_TIMEOUT_MS);

const fake = useFakeService();
const FIELDS = ['--artifact-id', '42', '--commit-sha', 'c0ffee', '--user', 'alice', '--branch', 'main'];
const env = () => ({ DEPLOY_TRACKER_URL: fake.service.url, DEPLOY_TRACKER_API_KEY: fake.service.apiKey });
const statuses = () => [...fake.service.deployments.values()].map((deployment) => deployment.statuses);

describe('the exit code is the command’s', () => {
  it.each([
    ['0', 0, ['STARTED', 'SUCCEEDED']],
    ['3', 3, ['STARTED', 'FAILED']],
    ['SIGTERM', 143, ['STARTED', 'FAILED']],
    ['SIGKILL', 137, ['STARTED', 'FAILED']],
  ])('a command that ends with %s exits %i and is recorded %o', async (how, code, recorded) => {
    const result = await runCli(['run', ...FIELDS, '--', ...fixtureCommand('exit.cjs', how)], { env: env() });

    expect(result.exitCode).toBe(code);
    expect(statuses()).toEqual([recorded]);
    expect(result.messages[0]).toBe('Recorded deployment 1: artifact 42 version c0ffee to Production (STARTED).');
    expect(result.messages.at(-1)).toMatch(new RegExp(`^Deployment 1 set to ${recorded[1]} after \\d+s\\.$`));
  });

  it('127 for a command that is not found, 126 for one that cannot be run; recorded FAILED', async () => {
    const missing = await runCli(['run', ...FIELDS, '--', './no-such-deploy.sh'], { env: env() });
    const notExecutable = await runCli(['run', ...FIELDS, '--', fixtureCommand('exit.cjs')[1] as string], {
      env: env(),
    });

    expect(missing.exitCode).toBe(127);
    expect(missing.messages).toContain("error: './no-such-deploy.sh' was not found.");
    expect(notExecutable.exitCode).toBe(126);
    expect(notExecutable.messages.join('\n')).toMatch(/error: '.*exit\.cjs' could not be run \(permission denied/);
    expect(statuses()).toEqual([
      ['STARTED', 'FAILED'],
      ['STARTED', 'FAILED'],
    ]);
  });
});

describe('finding the command', () => {
  it('by its bare name on PATH, also where PATH holds an entry too long for libuv (its own search never returns)', async () => {
    const tooLong = `/${'a'.repeat(5000)}`;
    const result = await runCli(['run', ...FIELDS, '--', 'node', ...fixtureCommand('exit.cjs', '7').slice(1)], {
      env: { ...env(), PATH: [tooLong, dirname(process.execPath), process.env.PATH ?? ''].join(delimiter) },
      killAfterMs: 15_000,
    });

    expect(result.exitCode).toBe(7);
    expect(statuses()).toEqual([['STARTED', 'FAILED']]);
  });
});

describe('the command’s stdio is its own', () => {
  it('leaves stdout exactly as the command wrote it; every message of the CLI is on stderr', async () => {
    const result = await runCli(['run', ...FIELDS, '--', ...fixtureCommand('bytes.cjs')], { env: env() });

    const all = Buffer.from(Array.from({ length: 256 }, (_, index) => index)).toString('latin1');
    expect(result.stdout).toBe(`${all}::error::not a command of the CLI\nno newline at the end`);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toMatch(/^report-deployment: Recorded deployment 1/);
  });

  it('passes stdin on', async () => {
    const result = await runCli(['run', ...FIELDS, '--', 'sh', '-c', 'read line; echo "got $line"'], {
      env: env(),
      stdin: 'hello\n',
    });

    expect(result.stdout).toBe('got hello\n');
  });
});

describe('signals sent to the CLI reach the command', () => {
  it('SIGTERM: passed on; the command stops as it chooses, the deployment is recorded FAILED', async () => {
    const result = await runCli(['run', ...FIELDS, '--', ...fixtureCommand('trap.cjs')], {
      env: env(),
      onSpawn: (child) =>
        void waitForText(child.stderr as NodeJS.ReadableStream, 'trap: ready').then(() => child.kill('SIGTERM')),
    });

    expect(result.stderr).toContain('trap: got SIGTERM\n');
    expect(result.exitCode).toBe(0); // what the command chose
    expect(statuses()).toEqual([['STARTED', 'FAILED']]);
  });

  it('SIGINT twice: both passed on, and the command dies of the second (130)', async () => {
    const result = await runCli(['run', ...FIELDS, '--', ...fixtureCommand('trap.cjs')], {
      env: env(),
      onSpawn: (child) => {
        const stderr = child.stderr as NodeJS.ReadableStream;
        void waitForText(stderr, 'trap: ready').then(() => {
          child.kill('SIGINT');
          return waitForText(stderr, 'trap: got SIGINT 1').then(() => child.kill('SIGINT'));
        });
      },
    });

    expect(result.stderr).toContain('trap: got SIGINT 1\n');
    expect(result.stderr).toContain('trap: got SIGINT 2\n');
    expect(result.exitCode).toBe(130);
    expect(statuses()).toEqual([['STARTED', 'FAILED']]);
  });

  it('SIGHUP: passed on', async () => {
    const result = await runCli(['run', ...FIELDS, '--', ...fixtureCommand('trap.cjs')], {
      env: env(),
      onSpawn: (child) => {
        const stderr = child.stderr as NodeJS.ReadableStream;
        void waitForText(stderr, 'trap: ready').then(() => {
          child.kill('SIGHUP');
          return waitForText(stderr, 'trap: got SIGHUP').then(() => child.kill('SIGTERM'));
        });
      },
    });

    expect(result.stderr).toContain('trap: got SIGHUP\n');
    expect(result.exitCode).toBe(0);
  });
});

describe('reporting never decides the command’s fate', () => {
  it('a service that never answers: the command starts after one attempt’s timeout, and keeps its exit code', async () => {
    fake.service.fail('POST', { hang: true });
    const spawned = Date.now();

    const result = await runCli(['run', ...FIELDS, '--timeout-seconds', '1', '--', ...fixtureCommand('bytes.cjs')], {
      env: env(),
      killAfterMs: 15_000,
    });

    const started = Number(/bytes: started (\d+)/.exec(result.stderr)?.[1]);
    expect(started - spawned).toBeLessThan(5_000); // one attempt (1 s) and a process start, never the 15 s bound
    expect(result.exitCode).toBe(0);
    expect(result.messages.join('\n')).toMatch(
      /warning: Could not record the deployment of artifact 42: no answer in time/,
    );
  });

  it('no DEPLOY_TRACKER_API_KEY: a warning, the command runs, its exit code stays; nothing is sent', async () => {
    const result = await runCli(['run', ...FIELDS, '--', ...fixtureCommand('exit.cjs', '5')], {
      env: { DEPLOY_TRACKER_URL: fake.service.url },
    });

    expect(result.exitCode).toBe(5);
    expect(result.messages[0]).toMatch(/^warning: DEPLOY_TRACKER_API_KEY is not set, so nothing is recorded\./);
    expect(fake.service.requests).toEqual([]);
  });

  it('a bad setting: an error, the command runs and keeps its exit code', async () => {
    const result = await runCli(['run', ...FIELDS, '--retries', 'many', '--', ...fixtureCommand('exit.cjs', '0')], {
      env: env(),
    });

    expect(result.exitCode).toBe(0);
    expect(result.messages).toEqual([
      "error: --retries must be a whole number from 0 to 10, got 'many'.",
      '       Nothing is recorded; the command runs.',
    ]);
    expect(fake.service.requests).toEqual([]);
  });

  it('--fail-on-error turns a success into 1 when not recorded, never a failure into a success', async () => {
    fake.service.fail('POST', { status: 500, body: { detail: 'down' } }, { status: 500, body: { detail: 'down' } });

    const success = await runCli(['run', ...FIELDS, '--fail-on-error', '--', ...fixtureCommand('exit.cjs', '0')], {
      env: env(),
    });
    const failure = await runCli(['run', ...FIELDS, '--fail-on-error', '--', ...fixtureCommand('exit.cjs', '4')], {
      env: env(),
    });

    expect(success.exitCode).toBe(1);
    expect(success.messages).toContain('error: Could not record the deployment of artifact 42: HTTP 500: down');
    expect(failure.exitCode).toBe(4);
  });

  it('only a usage error stops before the command runs (exit 2)', async () => {
    const unknownFlag = await runCli(['run', '--artefact-id', '42', '--', 'touch', 'ran'], { env: env() });
    const noCommand = await runCli(['run', ...FIELDS], { env: env() });

    expect(unknownFlag.exitCode).toBe(2);
    expect(unknownFlag.messages[0]).toBe(
      "error: unknown flag '--artefact-id' for run. See `report-deployment run --help`.",
    );
    expect(noCommand.exitCode).toBe(2);
    expect(noCommand.messages[0]).toMatch(/^error: no command to run: give it after `--`/);
    expect(fake.service.requests).toEqual([]);
  });
});
