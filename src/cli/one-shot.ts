// start, record and finish: one plan, carried out, shown; the ids on stdout.
import { ConfigError } from '../core/config-error.js';
import { execute, type PlanResults } from '../core/execute.js';
import { describeStart } from '../core/outcome.js';
import { plan as planFor } from '../core/plan.js';
import type { ParsedArgs } from './args.js';
import { holdsForeignCommand, type CliLog } from './log.js';
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
  const results = keepPrintable(await execute(plan, settings, log));
  const report = describeStart(plan, results, { dryRun: settings.dryRun, startedAt: Date.now(), wording: CLI_WORDING });
  const failed = showReport(report, settings.failOnError, log);
  if (args.command !== 'finish') printIds(report, args.json);
  const notRecorded = failed || (plan.kind === 'nothing' && plan.reason === 'no-key');
  return settings.failOnError && notRecorded ? ExitCodes.notRecorded : ExitCodes.ok;
}

/**
 * The results with every id that Azure Pipelines or TeamCity would read as a logging command, alone
 * on a line of stdout, turned into a failure, as the id checks of src/core turn one the GitHub runner
 * would read: printed escaped it would be another id, printed as is it would run. Only here: no other
 * command prints ids on stdout, and the log shows them escaped.
 */
function keepPrintable(results: PlanResults): PlanResults {
  if (!results.created) return results;
  return {
    ...results,
    created: results.created.map((result) =>
      'id' in result && holdsForeignCommand(result.id.text)
        ? {
            body: result.body,
            failure: [
              'the deployment id the service returned would be read as a logging command by Azure Pipelines or TeamCity, so it is not kept (the service may have recorded a deployment this command cannot finish)',
            ],
          }
        : result,
    ),
  };
}
