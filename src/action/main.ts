// The main step: inputs -> settings -> plan -> the service calls -> one description -> what the
// runner sees.
import { githubDefaults, type GitHubContext } from '../ci/github.js';
import { ConfigError } from '../core/config-error.js';
import type { DeploymentId } from '../core/ids.js';
import type { Log } from '../core/log.js';
import { describeCancel, describeStart } from '../core/outcome.js';
import { execute } from '../core/execute.js';
import { plan as planFor, type Plan } from '../core/plan.js';
import type { Created } from '../core/service.js';
import { readSettingsAndRequest } from '../core/request.js';
import { inputSettings } from './inputs.js';
import { ACTION_WORDS } from './words.js';
import type { ActionLog } from './log.js';
import { handOnCreated, presetOutputs, reportConfigError, reportStart } from './report.js';
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
  // Each deployment to finish later is handed to the post step as soon as it is created.
  const created: DeploymentId[] = [];
  const onCreated = ({ id }: Created) => {
    created.push(id);
    handOnCreated(created, startedAt, log);
  };
  const handsOn = plan.kind === 'create' && plan.finishLater && !settings.dryRun;
  const results = await whileNotCancelled(plan, log, (signal) =>
    execute(plan, settings, log, handsOn ? { signal, onCreated } : { signal }),
  );
  const report = describeStart(plan, results, { dryRun: settings.dryRun, startedAt, words: ACTION_WORDS });
  reportStart(report, settings.failOnError, log);
}

/**
 * `work`, with a signal that a cancelled run aborts: the runner sends SIGINT, then SIGTERM, and
 * kills the step after a grace period. No further deployment is created after it; those under way
 * are waited for and reported, and each one created is already handed on.
 */
async function whileNotCancelled<T>(plan: Plan, log: Log, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const cancel = () => {
    if (controller.signal.aborted) return;
    log.info(describeCancel(plan, ACTION_WORDS));
    controller.abort();
  };
  process.on('SIGINT', cancel);
  process.on('SIGTERM', cancel);
  try {
    return await work(controller.signal);
  } finally {
    process.off('SIGINT', cancel);
    process.off('SIGTERM', cancel);
  }
}
