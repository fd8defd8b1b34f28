// start, record and finish: one plan, carried out, shown; the ids on stdout.
import { ConfigError } from '../core/config-error.js';
import { execute } from '../core/execute.js';
import { describeStart } from '../core/outcome.js';
import { plan as planFor } from '../core/plan.js';
import type { ParsedArgs } from './args.js';
import type { CliLog } from './log.js';
import { ExitCodes, printIds, showReport } from './report.js';
import { readCommand } from './settings.js';
import { CLI_WORDING } from './source.js';

export async function oneShot(args: ParsedArgs, env: Record<string, string | undefined>, log: CliLog): Promise<number> {
  let read;
  try {
    read = await readCommand(args, env, log);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    log.error(error.lines);
    return ExitCodes.usage;
  }
  const { settings, request } = read;
  const plan = planFor(settings, request);
  const results = await execute(plan, settings, log);
  const report = describeStart(plan, results, { dryRun: settings.dryRun, startedAt: Date.now(), wording: CLI_WORDING });
  const failed = showReport(report, settings.failOnError, log);
  if (args.command !== 'finish') printIds(report, args.json);
  const notRecorded = failed || (plan.kind === 'nothing' && plan.reason === 'no-key');
  return settings.failOnError && notRecorded ? ExitCodes.notRecorded : ExitCodes.ok;
}
