// The main step: inputs -> settings -> plan -> the service calls -> one description -> what the
// runner sees.
import { githubDefaults, type GitHubContext } from '../ci/github.js';
import { ConfigError } from '../core/config-error.js';
import { describeStart } from '../core/outcome.js';
import { execute } from '../core/execute.js';
import { plan as planFor } from '../core/plan.js';
import { readSettingsAndRequest } from '../core/settings.js';
import { ACTION_WORDING, inputSettings } from './inputs.js';
import type { ActionLog } from './log.js';
import { presetOutputs, reportConfigError, reportStart } from './report.js';
import { readGitHubContext } from './run-context.js';

export async function run(log: ActionLog): Promise<void> {
  const startedAt = Date.now();
  // Read once, and only where needed: for a deployment's defaults, or for an empty key.
  let context: GitHubContext | undefined;
  const github = () => (context ??= readGitHubContext(log));
  let read;
  try {
    read = readSettingsAndRequest(inputSettings(github), process.env, () => githubDefaults(github()));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return reportConfigError(error, 'main', log);
  }
  presetOutputs();
  const { settings, request } = read;
  const plan = planFor(settings, request);
  const results = await execute(plan, settings, log);
  const report = describeStart(plan, results, { dryRun: settings.dryRun, startedAt, wording: ACTION_WORDING });
  reportStart(report, settings.failOnError, log);
}
