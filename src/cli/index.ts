// The CLI's bundle: what `report-deployment` does with its command line. The launcher (bin.cjs)
// checks the Node version first, then calls main(), which ends the process once its output is
// written (or given up on: output.ts): nothing a request or a reader still holds keeps it running.
import { bugLines } from '../core/text.js';
import { parseCommandLine, UsageError, type ParsedArgs } from './args.js';
import { showContext } from './context.js';
import { helpText } from './help.js';
import { openCliLog, type CliLog } from './log.js';
import { DRAIN_MS, drained, writeStdout } from './output.js';
import { oneShot } from './one-shot.js';
import { ExitCodes } from './report.js';
import { runWrapped } from './run.js';
import { ENV_KEY } from './source.js';

type Env = Record<string, string | undefined>;

const COMMANDS: Record<ParsedArgs['command'], (args: ParsedArgs, env: Env, log: CliLog) => Promise<number>> = {
  run: runWrapped,
  start: oneShot,
  finish: oneShot,
  record: oneShot,
  context: showContext,
};

export async function main(
  version: string,
  argv = process.argv.slice(2),
  env: Env = process.env,
  exit: (code: number) => void = (code) => process.exit(code),
): Promise<void> {
  process.exitCode = await commandLine(version, argv, env);
  await drained([process.stdout, process.stderr], DRAIN_MS);
  exit(process.exitCode);
}

async function commandLine(version: string, argv: string[], env: Env): Promise<number> {
  const log = openCliLog(env[ENV_KEY] ?? '', env);
  let invocation;
  try {
    invocation = parseCommandLine(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    log.error(error.line);
    return ExitCodes.usage;
  }
  if ('help' in invocation) {
    writeStdout(helpText(invocation.help));
    return ExitCodes.ok;
  }
  if ('version' in invocation) {
    writeStdout(`${version}\n`);
    return ExitCodes.ok;
  }
  try {
    return await COMMANDS[invocation.command](invocation, env, log);
  } catch (error) {
    // A bug of ours: said as one. Fail-open for what only reports; but a `run` that got here may not
    // have run its command, and must not look as if it had.
    log.error(bugLines('report-deployment stopped unexpectedly', error));
    const failed = invocation.command === 'run' || invocation.settings['fail-on-error'] === 'true';
    return failed ? ExitCodes.notRecorded : ExitCodes.ok;
  }
}
