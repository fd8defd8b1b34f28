// `run`'s command: started directly (no shell), with the CLI's stdin, stdout and stderr, in the CLI's
// process group (so that whatever a CI does to the group reaches it too: it is never left running
// on its own). SIGINT, SIGTERM and SIGHUP sent to the CLI are passed on to it, a second one too.
// In a terminal, the terminal itself sends Ctrl-C's SIGINT (and a hang-up's SIGHUP) to the whole
// group, the command included: passed on again, the command would see two (a second Ctrl-C makes
// many tools, Terraform among them, stop at once), so there those two are not passed on.
import { spawn, type StdioOptions } from 'node:child_process';
import { accessSync, closeSync, constants as fs, fstatSync, openSync, statSync } from 'node:fs';
import { constants } from 'node:os';
import { delimiter, join, resolve } from 'node:path';

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
  let child: ReturnType<typeof spawn>;
  const stdio = commandStdio(process.platform);
  try {
    child = spawn(resolveCommand(command, process.env.PATH ?? ''), args, { stdio: stdio.stdio });
  } catch (error) {
    // Node refuses some starts at once instead of with an 'error' event (a PATH entry too long for
    // libuv, a NUL in an argument): the command did not start, and its exit code says so.
    const ended = Promise.resolve<Ending>({
      kind: 'not-started',
      ...notStarted(command, error as NodeJS.ErrnoException),
    });
    return { ended, forward: () => undefined };
  } finally {
    stdio.close();
  }
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

/**
 * The command's stdio: the CLI's own. Where stderr is a pipe (on Linux), the command gets the pipe
 * through an open file of its own: libuv makes a child's stdio blocking, and on the open file the
 * CLI shares that would make each later write of the CLI's log wait on the reader, a stuck one for
 * ever (output.ts keeps the CLI's writes asynchronous and bounded instead).
 */
function commandStdio(platform: NodeJS.Platform): { stdio: StdioOptions; close(): void } {
  const inherit = { stdio: 'inherit' as const, close: () => undefined };
  if (platform !== 'linux') return inherit;
  try {
    if (!fstatSync(2).isFIFO()) return inherit;
    // Non-blocking to open (a pipe with no reader fails at once); libuv makes it blocking in the child.
    const fd = openSync('/proc/self/fd/2', fs.O_WRONLY | fs.O_NONBLOCK);
    return { stdio: ['inherit', 'inherit', fd], close: () => closeSync(fd) };
  } catch {
    // No /proc, or a pipe whose reader has gone: the command gets the CLI's stderr as it is.
    return inherit;
  }
}

function notStarted(command: string, error: NodeJS.ErrnoException): { exitCode: 126 | 127; reason: string } {
  if (error.code === 'ENOENT') return { exitCode: 127, reason: `'${command}' was not found` };
  const why = error.code === 'EACCES' ? 'permission denied, or not a program' : (error.code ?? error.message);
  return { exitCode: 126, reason: `'${command}' could not be run (${why})` };
}

/**
 * A bare command name found on PATH as a shell finds it: the first executable file of that name. Done
 * here rather than by libuv, whose search never returns for a PATH entry of 4096 bytes or more (the
 * command would never start, and the CLI would wait on it for ever). A name with a slash, or on
 * Windows (PATHEXT), is left to spawn. Not found: ENOENT (127); found but not executable: EACCES (126).
 */
export function resolveCommand(command: string, path: string): string {
  if (command.includes('/') || process.platform === 'win32') return command;
  let denied = false;
  for (const dir of path.split(delimiter)) {
    const candidate = dir ? join(dir, command) : resolve(command);
    // No file system takes a name that long: not where the command is.
    if (candidate.length >= 4096) continue;
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, fs.X_OK);
      return candidate;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EACCES') denied = true;
    }
  }
  throw Object.assign(new Error(`spawn ${command} ${denied ? 'EACCES' : 'ENOENT'}`), {
    code: denied ? 'EACCES' : 'ENOENT',
  });
}
