// start, record and finish: one plan, carried out, shown; the ids on stdout.
import { ConfigError } from '../core/config-error.js';
import { execute, type PlanResults } from '../core/execute.js';
import { describeStart } from '../core/outcome.js';
import { plan as planFor } from '../core/plan.js';
import type { ParsedArgs } from './args.js';
import { holdsForeignCommand, type CliLog } from './log.js';
import { ExitCodes, printIds, showReport } from './report.js';
import { readCommand } from './settings.js';
import { CLI_WORDS } from './source.js';

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
  const report = describeStart(plan, results, { dryRun: settings.dryRun, startedAt: Date.now(), words: CLI_WORDS });
  // With --fail-on-error, no key is a failure (exit 1), said as one.
  const noKey = plan.kind === 'nothing' && plan.reason === 'no-key';
  const shown = noKey ? { ...report, lines: [], failures: [report.lines.map((line) => line.text)] } : report;
  const failed = showReport(shown, settings.failOnError, log);
  if (args.command !== 'finish') printIds(report, args.json);
  return settings.failOnError && failed ? ExitCodes.notRecorded : ExitCodes.ok;
}

/** Why `id` cannot be printed alone on a line of stdout for a later command to take back; undefined where it can. */
function unprintable(id: string): string | undefined {
  // Printed escaped it would be another id, printed as is it would run.
  if (holdsForeignCommand(id)) return 'would be read as a logging command by Azure Pipelines or TeamCity';
  // `finish --deployment-id "$ID"` takes any other id, whatever it looks like; `--` ends the flags.
  if (id === '--') return "is '--', which `finish --deployment-id` would read as the end of its flags";
  return undefined;
}

/**
 * The results with every id that cannot be printed alone on a line of stdout and come back as it
 * was turned into a failure, as the id checks of src/core turn one the GitHub runner would read. Only
 * here: no other command prints ids on stdout, and the log shows them escaped.
 */
function keepPrintable(results: PlanResults): PlanResults {
  if (!results.created) return results;
  return {
    ...results,
    created: results.created.map((result) => {
      const why = 'id' in result ? unprintable(result.id.text) : undefined;
      return why
        ? {
            body: result.body,
            failure: [
              `the deployment id the service returned ${why}, so it is not kept (the service may have recorded a deployment this command cannot finish)`,
            ],
          }
        : result;
    }),
  };
}
