// The CLI's bundle: what `report-deployment` does with its command line. The launcher (bin.cjs)
// checks the Node version first, then calls main().
import { bugLines } from '../core/text.js';
import { parseCommandLine, UsageError, type ParsedArgs } from './args.js';
import { showContext } from './context.js';
import { helpText } from './help.js';
import { openCliLog, type CliLog } from './log.js';
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

export async function main(version: string, argv = process.argv.slice(2), env: Env = process.env): Promise<void> {
  const log = openCliLog(env[ENV_KEY] ?? '', env);
  let invocation;
  try {
    invocation = parseCommandLine(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    log.error(error.line);
    process.exitCode = ExitCodes.usage;
    return;
  }
  if ('help' in invocation) return void process.stdout.write(helpText(invocation.help));
  if ('version' in invocation) return void process.stdout.write(`${version}\n`);
  try {
    process.exitCode = await COMMANDS[invocation.command](invocation, env, log);
  } catch (error) {
    // A bug of ours: said as one. Fail-open for what only reports; but a `run` that got here may not
    // have run its command, and must not look as if it had.
    log.error(bugLines('report-deployment stopped unexpectedly', error));
    const failed = invocation.command === 'run' || invocation.settings['fail-on-error'] === 'true';
    process.exitCode = failed ? ExitCodes.notRecorded : ExitCodes.ok;
  }
}
