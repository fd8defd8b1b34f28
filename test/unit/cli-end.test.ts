// How the CLI process ends (index.ts's endProcess), against a stand-in for `process`: by the stop
// signal its run ended by (so that a shell running it stops as it would for the command), else, or
// where that signal does not end it, with its exit code.
import { describe, expect, it } from 'vitest';
import { endProcess } from '../../src/cli/index.ts';

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
