// `report-deployment run -- <command>`, as npm pack ships it: the command's exit code, its stdout
// untouched, signals passed on, and reporting that never decides the command's fate.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFakeService } from '../helpers/fixture.ts';
import { commandReady, running, until } from '../helpers/processes.ts';
import { fixtureCommand, INSTALL_TIMEOUT_MS, installedCli, runCli, waitForText } from '../helpers/run-cli.ts';

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

describe('a program for another machine', () => {
  it('an ELF executable for another CPU exits 126 with "Exec format error", as shells say (not /bin/sh reading it); recorded FAILED', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'report-deployment-foreign-'));
    try {
      const foreign = join(dir, 'deploy-arm');
      writeFileSync(foreign, elfHeader(process.arch === 'x64' ? 183 : 62), { mode: 0o755 });
      // A script without `#!` still runs, through /bin/sh, as a shell runs it.
      const script = join(dir, 'plain-script');
      writeFileSync(script, 'exit 5\n', { mode: 0o755 });

      const byPath = await runCli(['run', ...FIELDS, '--', foreign, 'eu'], { env: env() });
      const byName = await runCli(['run', ...FIELDS, '--', 'deploy-arm'], {
        env: { ...env(), PATH: `${dir}${delimiter}${process.env.PATH ?? ''}` },
      });
      const plain = await runCli(['run', ...FIELDS, '--', script], { env: env() });

      expect(byPath.exitCode).toBe(126);
      expect(byPath.messages).toContain(
        `error: '${foreign}' cannot be executed here: it is a program for another kind of machine or system (Exec format error).`,
      );
      expect(byPath.stderr).not.toMatch(/Syntax error|not found/);
      expect(byName.exitCode).toBe(126);
      expect(byName.messages.join('\n')).toContain("'deploy-arm' cannot be executed here");
      expect(plain.exitCode).toBe(5);
      expect(statuses()).toEqual([
        ['STARTED', 'FAILED'],
        ['STARTED', 'FAILED'],
        ['STARTED', 'FAILED'],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The 64 bytes of a little-endian 64-bit ELF executable's header for CPU `machine` (183 arm64, 62 x86-64): enough for the kernel to refuse it. */
function elfHeader(machine: number): Buffer {
  const header = Buffer.alloc(64);
  header.write('\x7fELF', 0, 'latin1');
  header.set([2, 1, 1], 4); // 64-bit, little-endian, ELF version 1
  header.writeUInt16LE(2, 16); // an executable
  header.writeUInt16LE(machine, 18);
  header.writeUInt32LE(1, 20);
  header.writeBigUInt64LE(0x400000n, 24); // entry point
  header.writeUInt16LE(64, 52); // header size
  header.writeUInt16LE(56, 54); // program header entry size
  return header;
}

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
  it('SIGTERM: passed on; recorded FAILED at once, then SUCCEEDED as the command chose to end 0', async () => {
    const result = await runCli(['run', ...FIELDS, '--', ...fixtureCommand('trap.cjs')], {
      env: env(),
      onSpawn: (child) =>
        void waitForText(child.stderr as NodeJS.ReadableStream, 'trap: ready').then(() => child.kill('SIGTERM')),
    });

    expect(result.stderr).toContain('trap: got SIGTERM\n');
    expect(result.exitCode).toBe(0); // what the command chose
    expect(statuses()).toEqual([['STARTED', 'FAILED', 'SUCCEEDED']]);
    expect(result.messages).toContain(
      'The command ended with exit code 0 after SIGTERM, so the deployment is set to SUCCEEDED after all.',
    );
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
    // As its command did: a shell running it stops too.
    expect(result.signal).toBe('SIGINT');
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
    expect(statuses()).toEqual([['STARTED', 'FAILED', 'SUCCEEDED']]);
  });
});

describe('after a stop signal, the last word recorded is how the command ended', () => {
  it.each([
    [0, ['STARTED', 'FAILED', 'SUCCEEDED'], 'so the deployment is set to SUCCEEDED after all'],
    [3, ['STARTED', 'FAILED'], 'so the deployment is FAILED'],
  ])('Ctrl-C, then the command exits %i: recorded %o, and the exit code is its own', async (code, recorded, said) => {
    const result = await runCli(['run', ...FIELDS, '--', ...fixtureCommand('count.cjs', String(code))], {
      env: env(),
      onSpawn: (child) => {
        const stderr = child.stderr as NodeJS.ReadableStream;
        void commandReady(child).then(async (pid) => {
          const decided = waitForText(stderr, 'SIGINT received:');
          const failed = waitForText(stderr, 'set to FAILED');
          child.kill('SIGINT');
          await Promise.all([decided, failed]);
          process.kill(pid, 'SIGUSR2');
        });
      },
    });

    expect(result.exitCode).toBe(code);
    expect(statuses()).toEqual([recorded]);
    expect(result.messages).toContain(`The command ended with exit code ${code} after SIGINT, ${said}.`);
  });
});

describe('a stop signal ends every wait on the service', () => {
  it.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)(
    '%s before the command starts (a create that never answers, --timeout-seconds 60): exits 128+N at once, never runs it',
    async (signal) => {
      fake.service.fail('POST', { hang: true });
      let sent = 0;

      const result = await runCli(['run', ...FIELDS, '--timeout-seconds', '60', '--', ...fixtureCommand('bytes.cjs')], {
        env: { ...env(), DEPLOY_TRACKER_DEBUG: '1' },
        killAfterMs: 20_000,
        onSpawn: (child) =>
          void waitForText(child.stderr as NodeJS.ReadableStream, 'debug: POST ').then(() => {
            sent = Date.now();
            child.kill(signal);
          }),
      });

      expect(result.exitCode).toBe(128 + constants.signals[signal]);
      expect(Date.now() - sent).toBeLessThan(10_000); // at once, not after the 60 s attempt
      expect(result.stderr).not.toContain('bytes: started');
      expect(result.messages).toContain(`warning: ${signal} received before the command started, so it is not run.`);
      expect(result.messages).toContain(
        `warning: The request recording its start had no answer 3 s after ${signal}: if the service received it, the deployment shows STARTED.`,
      );
    },
  );

  it.each(['SIGINT', 'SIGTERM'] as const)(
    '%s while the create is on its way, the service answering it a moment later: set FAILED, never left STARTED',
    async (signal) => {
      let answer: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (answer = resolve));
      await fake.restart({ gate: (request) => (request.method === 'POST' ? held : undefined) });

      const result = await runCli(['run', ...FIELDS, '--', ...fixtureCommand('bytes.cjs')], {
        env: { ...env(), DEPLOY_TRACKER_DEBUG: '1' },
        onSpawn: (child) => {
          const stderr = child.stderr as NodeJS.ReadableStream;
          void waitForText(stderr, 'debug: POST ').then(() => child.kill(signal));
          // The answer comes once the CLI has taken the signal.
          void waitForText(stderr, 'so it is not run.').then(answer);
        },
      });

      expect(result.exitCode).toBe(128 + constants.signals[signal]);
      expect(result.stderr).not.toContain('bytes: started');
      expect(statuses()).toEqual([['STARTED', 'FAILED']]);
      expect(result.messages.some((line) => line.includes('no answer'))).toBe(false);
    },
  );

  it('a signal while git is asked for the commit (a git that hangs): exits 130 at once, git stopped, the command never run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'report-deployment-git-'));
    writeFileSync(join(dir, 'git'), `#!/bin/sh\necho $$ > '${join(dir, 'pid')}'\nexec sleep 30\n`, { mode: 0o755 });
    let pid = 0;
    let sent = 0;
    try {
      const result = await runCli(
        [
          'run',
          '--artifact-id',
          '42',
          '--user',
          'alice',
          '--timeout-seconds',
          '60',
          '--',
          ...fixtureCommand('bytes.cjs'),
        ],
        {
          env: { ...env(), PATH: `${dir}${delimiter}${process.env.PATH ?? ''}` },
          killAfterMs: 20_000,
          onSpawn: (child) =>
            void until(() => existsSync(join(dir, 'pid'))).then(() => {
              pid = Number(readFileSync(join(dir, 'pid'), 'utf8'));
              sent = Date.now();
              child.kill('SIGINT');
            }),
        },
      );

      expect(result.exitCode).toBe(130);
      expect(result.signal).toBe('SIGINT');
      expect(result.stderr).not.toContain('bytes: started');
      await until(() => !running(pid));
      expect(Date.now() - sent).toBeLessThan(5_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('after the command has ended, a signal cuts the final update’s retries: no request is tried again', async () => {
    // Every update is answered 503 with a wait of 1 s before the next try: the signal comes during the wait.
    fake.service.fail('PATCH', ...Array.from({ length: 4 }, () => ({ status: 503, headers: { 'retry-after': '1' } })));

    const result = await runCli(['run', ...FIELDS, '--retries', '3', '--', ...fixtureCommand('exit.cjs', '0')], {
      env: env(),
      killAfterMs: 20_000,
      onSpawn: (child) =>
        void waitForText(child.stderr as NodeJS.ReadableStream, 'retrying in').then(() => child.kill('SIGTERM')),
    });

    expect(fake.received().filter((request) => request.startsWith('PATCH'))).toHaveLength(1);
    expect(result.exitCode).toBe(0); // the command's
    expect(result.messages).toContain(
      'SIGTERM received: no request is tried again, and the service is waited for 3 s at most.',
    );
    expect(result.messages.join('\n')).toMatch(/warning: Could not set deployment 1 to SUCCEEDED: HTTP 503/);
  });

  it('after the command has ended, a signal during an update that never answers (--timeout-seconds 60): the CLI ends within 3 s', async () => {
    fake.service.fail('PATCH', { hang: true });
    let sent = 0;

    const result = await runCli(
      ['run', ...FIELDS, '--timeout-seconds', '60', '--fail-on-error', '--', ...fixtureCommand('exit.cjs', '0')],
      {
        env: { ...env(), DEPLOY_TRACKER_DEBUG: '1' },
        killAfterMs: 20_000,
        onSpawn: (child) =>
          void waitForText(child.stderr as NodeJS.ReadableStream, 'debug: PATCH ').then(() => {
            sent = Date.now();
            child.kill('SIGTERM');
          }),
      },
    );

    expect(Date.now() - sent).toBeLessThan(8_000);
    expect(result.exitCode).toBe(1); // --fail-on-error: the success could not be recorded
    expect(result.messages).toContain(
      'warning: Stopped waiting for the service 3 s after being told to stop: the deployment may not show how the command ended.',
    );
  });
  it('a signal while the command runs, then updates that never answer: the CLI ends within 3 s of the command', async () => {
    fake.service.fail('PATCH', { hang: true }, { hang: true });
    let ended = 0;

    const result = await runCli(
      ['run', ...FIELDS, '--timeout-seconds', '60', '--', ...fixtureCommand('count.cjs', '0')],
      {
        env: env(),
        killAfterMs: 20_000,
        onSpawn: (child) =>
          void commandReady(child).then(async (pid) => {
            const decided = waitForText(child.stderr as NodeJS.ReadableStream, 'SIGINT received:');
            child.kill('SIGINT');
            await decided;
            ended = Date.now();
            process.kill(pid, 'SIGUSR2');
          }),
      },
    );

    expect(Date.now() - ended).toBeLessThan(8_000);
    expect(result.exitCode).toBe(0);
    expect(result.messages).toContain(
      'warning: Stopped waiting for the service 3 s after being told to stop: the deployment may not show how the command ended.',
    );
  });
});

describe('every failure to record is said', () => {
  it('proxy credentials undici cannot decode (it threw deep in the HTTP stack): a bad setting naming the variable; the command runs', async () => {
    const result = await runCli(['run', ...FIELDS, '--', ...fixtureCommand('exit.cjs', '5')], {
      // No request leaves: the proxy is refused before any connection.
      env: {
        DEPLOY_TRACKER_URL: 'https://tracker.invalid/api',
        DEPLOY_TRACKER_API_KEY: fake.service.apiKey,
        HTTPS_PROXY: 'http://us%ZZer:pw@proxy.invalid:3128',
      },
    });

    expect(result.exitCode).toBe(5);
    expect(result.messages).toEqual([
      "error: Environment variable HTTPS_PROXY has a user name or password that is not percent-encoded: 'http://***@proxy.invalid:3128'. Write each `%` in them as `%25` (and `@`, `:`, `/` as `%40`, `%3A`, `%2F`).",
      '       Nothing is recorded; the command runs.',
    ]);
  });

  it('the same credentials for start: exit 2 before any request', async () => {
    const result = await runCli(['start', ...FIELDS], {
      env: {
        DEPLOY_TRACKER_URL: 'https://tracker.invalid/api',
        DEPLOY_TRACKER_API_KEY: fake.service.apiKey,
        HTTPS_PROXY: 'http://us%ZZer:pw@proxy.invalid:3128',
      },
    });

    expect(result.exitCode).toBe(2);
    expect(result.messages).toEqual([
      "error: Environment variable HTTPS_PROXY has a user name or password that is not percent-encoded: 'http://***@proxy.invalid:3128'. Write each `%` in them as `%25` (and `@`, `:`, `/` as `%40`, `%3A`, `%2F`).",
    ]);
    expect(result.stdout).toBe('');
  });

  it('run --deployment-id "" (after a start that recorded nothing): the warning finish gives; the command runs', async () => {
    const result = await runCli(['run', '--deployment-id', '', '--', ...fixtureCommand('exit.cjs', '4')], {
      env: env(),
    });

    expect(result.exitCode).toBe(4);
    expect(result.messages).toEqual([
      'warning: --deployment-id is an empty list: the job that started the deployment recorded none (see its log), so there is nothing to update.',
    ]);
    expect(fake.service.requests).toEqual([]);
  });
});

describe('the command’s environment', () => {
  it('holds DEPLOY_TRACKER_API_KEY, as the CI gives it to every step (a deploy script may call the CLI itself)', async () => {
    const check = `process.exit(process.env.DEPLOY_TRACKER_API_KEY === ${JSON.stringify(fake.service.apiKey)} ? 0 : 9)`;
    const result = await runCli(['run', ...FIELDS, '--', process.execPath, '-e', check], { env: env() });

    expect(result.exitCode).toBe(0);
  });
});
