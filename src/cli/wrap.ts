// `run`'s command: started directly (no shell, but cmd.exe for a batch file on Windows: windows.ts),
// with the CLI's stdin, stdout and stderr, in the CLI's process group and tree, so that whatever a CI
// does to the job (a SIGKILL to the group or to each process) reaches it too: it is never left
// running on its own. A stop signal the CLI receives reaches the command once: passed on where it
// was sent to the CLI alone, not where the command got it from its sender too (witness.ts tells). A
// command that has left the CLI's process group (process-group.ts) gets none of the group's, so
// there only one sent to each process of the tree is not passed on.
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { closeSync, constants as fs, fstatSync, openSync, statSync } from 'node:fs';
import { constants } from 'node:os';
import { checkRunsHere, ExecFormatError } from './exec-format.js';
import { resolveCommand } from './find-command.js';
import type { StopSignal } from './signals.js';
import { leftOurGroup } from './process-group.js';
import { findOnWindows, UnsafeForCmd, windowsStart } from './windows.js';
import { startWitness, witnessProgram, type Witness } from './witness.js';

/** How the command ended. */
type Ending =
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

/**
 * What became of a stop signal the CLI received: passed on to the command (one in a process group of
 * its own: `own-group`); not, because it reached the command too (sent to the process group or to
 * each process), because it was passed on already (sent to the CLI and to its group alike, the
 * command outside the group), because the terminal or Windows' console sends it to the command too,
 * or because the command has ended.
 */
export type Relay = 'passed-on' | 'own-group' | 'reached' | 'passed-on-already' | 'terminal' | 'console' | 'ended';

interface Wrapped {
  /** Settles once the command has ended, however. */
  ended: Promise<Ending>;
  /** Gives the command a stop signal the CLI received, unless it has it already. */
  relay(signal: StopSignal): Promise<Relay>;
}

interface StartOptions {
  /** The CLI runs in a terminal: where no witness can run, its Ctrl-C and hang-up are taken to reach the command. */
  interactive: boolean;
  platform?: NodeJS.Platform;
  env?: Record<string, string | undefined>;
  /** The witness of signals sent to the group; by default one is started beside the command. */
  witness?: Witness;
  /** The CLI's stderr, 2: the command's too (commandStdio). */
  stderr?: number;
}

/** Starts `command` with `args`. */
export function startCommand(command: string, args: readonly string[], options: StartOptions): Wrapped {
  const { platform = process.platform, env = process.env } = options;
  // The witness first: a signal the command sends its group as it starts (`kill 0`) must find it
  // there, or it would be passed on as one the command never got. (One sent in the instant between
  // the two starts reaches the witness alone and is not passed on: the CI's next signal is.)
  // The tree's witness only where the command's group can be seen, and so its leaving the CLI's.
  const witness =
    options.witness ?? startWitness(witnessProgram(env.PATH ?? '', platform), { tree: platform === 'linux' });
  let child: ChildProcess;
  const stdio = commandStdio(platform, options.stderr);
  try {
    child = spawnCommand(command, args, platform, env, stdio.stdio);
  } catch (error) {
    // Node refuses some starts at once instead of with an 'error' event (a PATH entry too long for
    // libuv, a NUL in an argument): the command did not start, and its exit code says so.
    witness.stop();
    const ended = Promise.resolve<Ending>({ kind: 'not-started', ...notStarted(command, error as Error) });
    return { ended, relay: () => Promise.resolve('ended') };
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
  void ended.then(() => witness.stop());
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    ended,
    async relay(signal) {
      // Windows has no process groups: a console's Ctrl-C and Ctrl-Break go to every process
      // attached to it, the command included, and Node's kill() there is a TerminateProcess.
      if (platform === 'win32') return 'console';
      // Its group as the signal came: the group's signals do not reach a command that has left it.
      if (await leftOurGroup(child.pid, platform)) {
        const reach = await witness.reachedOutside(signal);
        if (reach !== 'not-reached') return reach;
        if (!running()) return 'ended';
        child.kill(signal);
        return 'own-group';
      }
      const reached = await witness.alsoReached(signal);
      if (reached) return 'reached';
      if (!running()) return 'ended';
      // No witness: the guess of old, that a terminal sends its Ctrl-C and hang-up to the group.
      if (reached === undefined && options.interactive && signal !== 'SIGTERM') return 'terminal';
      child.kill(signal);
      return 'passed-on';
    },
  };
}

/** Where a command is looked for when PATH is unset (`env -i`): libuv's and glibc's default. */
const DEFAULT_PATH = '/usr/bin:/bin';

function spawnCommand(
  command: string,
  args: readonly string[],
  platform: NodeJS.Platform,
  env: Record<string, string | undefined>,
  stdio: StdioOptions,
): ChildProcess {
  if (platform !== 'win32') {
    const file = resolveCommand(command, env.PATH ?? DEFAULT_PATH);
    checkRunsHere(file);
    return spawn(file, args, { stdio });
  }
  const start = windowsStart(findOnWindows(command, env, isFile), args, env);
  return spawn(start.file, start.args, { stdio, windowsVerbatimArguments: start.verbatim });
}

/**
 * The command's stdio: the CLI's own. Where stderr is a pipe (on Linux), the command gets the pipe
 * through an open file of its own: libuv makes a child's stdio blocking, and on the open file the
 * CLI shares that would make each later write of the CLI's log wait on the reader, a stuck one for
 * ever (output.ts keeps the CLI's writes asynchronous and bounded instead).
 */
export function commandStdio(platform: NodeJS.Platform, stderr = 2): { stdio: StdioOptions; close(): void } {
  const inherit: { stdio: StdioOptions; close(): void } = {
    stdio: ['inherit', 'inherit', stderr],
    close: () => undefined,
  };
  if (platform !== 'linux') return inherit;
  try {
    if (!fstatSync(stderr).isFIFO()) return inherit;
    // Non-blocking to open (a pipe with no reader fails at once); libuv makes it blocking in the child.
    const fd = openSync(`/proc/self/fd/${stderr}`, fs.O_WRONLY | fs.O_NONBLOCK);
    return { stdio: ['inherit', 'inherit', fd], close: () => closeSync(fd) };
  } catch {
    // No /proc, or a pipe whose reader has gone: the command gets the CLI's stderr as it is.
    return inherit;
  }
}

function notStarted(command: string, error: NodeJS.ErrnoException): { exitCode: 126 | 127; reason: string } {
  if (error.code === 'ENOENT') return { exitCode: 127, reason: `'${command}' was not found` };
  if (error instanceof UnsafeForCmd) return { exitCode: 126, reason: `'${command}' was not run: ${error.message}` };
  if (error instanceof ExecFormatError) {
    return {
      exitCode: 126,
      reason: `'${command}' cannot be executed here: it is a program for another kind of machine or system (Exec format error)`,
    };
  }
  const why = error.code === 'EACCES' ? 'permission denied, or not a program' : (error.code ?? error.message);
  return { exitCode: 126, reason: `'${command}' could not be run (${why})` };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
