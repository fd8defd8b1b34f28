// `run`'s command: started directly (no shell), with the CLI's stdin, stdout and stderr, in the CLI's
// process group (so that whatever a CI does to the group reaches it too: it is never left running
// on its own). SIGINT, SIGTERM and SIGHUP sent to the CLI are passed on to it, a second one too.
// In a terminal, the terminal itself sends Ctrl-C's SIGINT (and a hang-up's SIGHUP) to the whole
// group, the command included: passed on again, the command would see two (a second Ctrl-C makes
// many tools, Terraform among them, stop at once), so there those two are not passed on.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

export const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
export type ForwardedSignal = (typeof FORWARDED_SIGNALS)[number];

/** How the command ended. */
export type Ending =
  | { kind: 'exited'; code: number }
  | { kind: 'signalled'; signal: NodeJS.Signals }
  /** It could not be started: not found (127), or found but not executable (126). */
  | { kind: 'not-started'; exitCode: 126 | 127; reason: string };

/** The exit code a shell would give for `ending`: its code, 128+N for signal N, 127 or 126. */
export function exitCodeOf(ending: Ending): number {
  switch (ending.kind) {
    case 'exited':
      return ending.code;
    case 'signalled':
      return 128 + (constants.signals[ending.signal] ?? 0);
    case 'not-started':
      return ending.exitCode;
  }
}

export interface Wrapped {
  /** Settles once the command has ended, however. */
  ended: Promise<Ending>;
  /** Passes a signal the CLI received on to the command, unless the terminal already sent it. */
  forward(signal: ForwardedSignal): void;
}

/** Starts `command` with `args`. `interactive`: the CLI runs in a terminal. */
export function startCommand(command: string, args: readonly string[], interactive: boolean): Wrapped {
  const child = spawn(command, args, { stdio: 'inherit' });
  const ended = new Promise<Ending>((resolve) => {
    child.once('error', (error: NodeJS.ErrnoException) => {
      resolve({ kind: 'not-started', ...notStarted(command, error) });
    });
    child.once('exit', (code, signal) => {
      resolve(signal ? { kind: 'signalled', signal } : { kind: 'exited', code: code ?? 0 });
    });
  });
  return {
    ended,
    forward(signal) {
      if (interactive && signal !== 'SIGTERM') return;
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
  };
}

function notStarted(command: string, error: NodeJS.ErrnoException): { exitCode: 126 | 127; reason: string } {
  if (error.code === 'ENOENT') return { exitCode: 127, reason: `'${command}' was not found` };
  const why = error.code === 'EACCES' ? 'permission denied, or not a program' : (error.code ?? error.message);
  return { exitCode: 126, reason: `'${command}' could not be run (${why})` };
}
