// The CLI's bundle: what `report-deployment` does with its command line. The launcher (bin.cjs)
// checks the Node version first, then calls main(), which ends the process once its output is
// written (or given up on: output.ts): nothing a request or a reader still holds keeps it running.
// A run whose command died of a stop signal ends by that signal, as the command did (endProcess).
import { bugLines } from '../core/text.js';
import { parseCommandLine, UsageError, type ParsedArgs } from './args.js';
import { showContext } from './context.js';
import { helpText, receiverHelp } from './help.js';
import { openCliLog, type CliLog } from './log.js';
import { DRAIN_MS, drained, outputWritten, writeStdout } from './output.js';
import { oneShot } from './one-shot.js';
import { isReceiverCommand, receiverInvocation } from './receiver-args.js';
import { ExitCodes } from './report.js';
import { runWrapped } from './run.js';
import type { StopSignal } from './signals.js';
import { ENV_KEY } from './source.js';

type Env = Record<string, string | undefined>;

/** How the CLI ends: its exit code, and the stop signal it ends by where its run did. */
interface Ended {
  code: number;
  signal?: StopSignal;
}

type Command = (args: ParsedArgs, env: Env, log: CliLog, endedBy: (signal: StopSignal) => void) => Promise<number>;

const COMMANDS: Record<ParsedArgs['command'], Command> = {
  run: (args, env, log, endedBy) => runWrapped(args, env, log, { endedBy }),
  start: oneShot,
  finish: oneShot,
  record: oneShot,
  context: (args, env, log) => showContext(args, env, log),
};

export async function main(
  version: string,
  argv = process.argv.slice(2),
  env: Env = process.env,
  exit: (code: number, signal?: StopSignal) => void = (code, signal) => endProcess(code, signal),
): Promise<void> {
  const { code, signal } = await commandLine(version, argv, env);
  process.exitCode = code;
  // The output (stdout) is waited for as long as its reader takes; the log (stderr) at most DRAIN_MS.
  await Promise.all([outputWritten(process.stdout), drained([process.stderr], DRAIN_MS)]);
  exit(code, signal);
}

/**
 * Ends the process: by `signal` where the run ended by it, else with `code`. A shell tells the two
 * apart where `$?` does not (128+N either way): bash stops a script whose child died of the SIGINT it
 * got too (a Ctrl-C), and goes on after one that exited 130, as if it had handled it. So Ctrl-C on
 * `for r in eu us; do report-deployment run -- ./deploy.sh "$r"; done` stops the loop, as it would
 * without the CLI. Where the signal does not end it (a container's PID 1, which ignores signals it
 * has no handler for; Windows), the exit code says the same.
 */
export function endProcess(
  code: number,
  signal?: StopSignal,
  proc: Pick<NodeJS.Process, 'platform' | 'pid' | 'removeAllListeners' | 'kill' | 'exit'> = process,
): void {
  if (signal && proc.platform !== 'win32') {
    // run's own listeners are gone: the default action, or Node's own (it restores the terminal first).
    proc.removeAllListeners(signal);
    proc.kill(proc.pid, signal);
  }
  proc.exit(code);
}

/** For a command whose product is its output (help, the version): 0 once its reader has it all, else 1, said. */
async function outputCode(log: CliLog): Promise<number> {
  if (await outputWritten(process.stdout)) return ExitCodes.ok;
  log.error('the output could not be written on stdout (closed, full, or its reader has gone).');
  return ExitCodes.notRecorded;
}

async function commandLine(version: string, argv: string[], env: Env): Promise<Ended> {
  const log = openCliLog(env[ENV_KEY] ?? '', env);
  let invocation;
  try {
    invocation =
      isReceiverCommand(argv[0]) || (argv[0] === 'help' && isReceiverCommand(argv[1]))
        ? receiverInvocation(argv)
        : parseCommandLine(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    log.error(error.line);
    return { code: ExitCodes.usage };
  }
  if ('help' in invocation) {
    const topic = invocation.help;
    writeStdout(isReceiverCommand(topic) ? receiverHelp(topic) : helpText(topic));
    return { code: await outputCode(log) };
  }
  if ('version' in invocation) {
    writeStdout(`${version}\n`);
    return { code: await outputCode(log) };
  }
  if ('receiver' in invocation) {
    // The receiver's modules are loaded only for its commands.
    const { receiverCommand } = await import('./receiver-commands.js');
    return { code: await receiverCommand(invocation.receiver, env, log) };
  }
  let signal: StopSignal | undefined;
  try {
    const code = await COMMANDS[invocation.command](invocation, env, log, (by) => (signal = by));
    return signal ? { code, signal } : { code };
  } catch (error) {
    // A bug of ours: said as one. Fail-open for what only reports; but a `run` that got here may not
    // have run its command, and must not look as if it had.
    log.error(bugLines('report-deployment stopped unexpectedly', error));
    const failed = invocation.command === 'run' || invocation.settings['fail-on-error'] === 'true';
    return { code: failed ? ExitCodes.notRecorded : ExitCodes.ok };
  }
}
