// How the CLI process ends (index.ts's endProcess), against a stand-in for `process`: by the stop
// signal its run ended by (so that a shell running it stops as it would for the command), else, or
// where that signal does not end it, with its exit code.
import { describe, expect, it } from 'vitest';
import { endProcess } from '../../src/cli/index.ts';
import { runCliInProcess } from '../helpers/cli-in-process.ts';
import { fixtureCommand } from '../helpers/run-cli.ts';

function fakeProcess(platform: NodeJS.Platform = 'linux') {
  const calls: string[] = [];
  return {
    calls,
    proc: {
      platform,
      pid: 4242,
      removeAllListeners: (signal: string) => {
        calls.push(`removeAllListeners ${signal}`);
        return process;
      },
      kill: (pid: number, signal: string) => {
        calls.push(`kill ${pid} ${signal}`);
        return true;
      },
      exit: (code: number) => {
        calls.push(`exit ${code}`);
        return undefined as never;
      },
    } as unknown as Parameters<typeof endProcess>[2],
  };
}

describe('endProcess', () => {
  it('a run ended by SIGINT: its listeners gone, the process signals itself, then exits (if the signal is ignored, as by PID 1)', () => {
    const { calls, proc } = fakeProcess();
    endProcess(130, 'SIGINT', proc);

    expect(calls).toEqual(['removeAllListeners SIGINT', 'kill 4242 SIGINT', 'exit 130']);
  });

  it('no signal: the exit code alone', () => {
    const { calls, proc } = fakeProcess();
    endProcess(3, undefined, proc);

    expect(calls).toEqual(['exit 3']);
  });

  it('on Windows, where a signal to itself would be a TerminateProcess: the exit code alone', () => {
    const { calls, proc } = fakeProcess('win32');
    endProcess(143, 'SIGTERM', proc);

    expect(calls).toEqual(['exit 143']);
  });
});

describe('main() ends the process as its command line came to', () => {
  const fields = ['--artifact-id', '42', '--user', 'a', '--commit-sha', 'c0ffee', '--branch', 'main', '--dry-run'];
  const env = {
    DEPLOY_TRACKER_URL: 'https://tracker.example.com/api',
    DEPLOY_TRACKER_API_KEY: 'rd-test-key-9d4b1f6e3c08',
  };

  it('a run whose command died of SIGTERM: by SIGTERM, 143', async () => {
    const result = await runCliInProcess(['run', ...fields, '--', ...fixtureCommand('exit.cjs', 'SIGTERM')], env);
    expect([result.exitCode, result.signal]).toEqual([143, 'SIGTERM']);
  });

  it('a run whose command exited 130 itself: with 130, by no signal', async () => {
    const result = await runCliInProcess(['run', ...fields, '--', ...fixtureCommand('exit.cjs', '130')], env);
    expect([result.exitCode, result.signal]).toEqual([130, undefined]);
  });

  it('--version and --help: exit 0, on stdout', async () => {
    const version = await runCliInProcess(['--version'], {});
    const help = await runCliInProcess(['run', '--help'], {});
    expect([version.exitCode, version.stdout, version.signal]).toEqual([0, '0.0.0-test\n', undefined]);
    expect([help.exitCode, help.stdout.startsWith('Usage: report-deployment run ')]).toEqual([0, true]);
  });
});

describe('main(): a bug of ours that reaches it', () => {
  // An environment that throws where the service's address is read: a bug as far as main() can tell.
  const throwing = new Proxy(
    {},
    {
      get(_target, name) {
        if (name === 'DEPLOY_TRACKER_URL') throw new Error('boom');
        return undefined;
      },
    },
  );

  it.each([
    [['context'], 0],
    [['record', '--status', 'success', '--artifact-id', '42'], 0],
    [['record', '--status', 'success', '--artifact-id', '42', '--fail-on-error'], 1],
  ])('%o: said as a bug, exit %i (1 only where a failure was asked to fail)', async (argv, code) => {
    const result = await runCliInProcess(argv, throwing);
    expect(result.exitCode).toBe(code);
    expect(result.stderr).toMatch(
      /^report-deployment: error: report-deployment stopped unexpectedly \(a bug of report-deployment: please report it\):\n/,
    );
  });
});
