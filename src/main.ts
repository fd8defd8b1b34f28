// The main step: settings -> plan -> the service calls -> outcome -> report.
import { ConfigError } from './config-error.js';
import { dryRunMain } from './dry-run.js';
import { readGitHubContext } from './event.js';
import type { Log } from './log.js';
import { needsContext, planMain, type MainPlan } from './plan.js';
import { presetOutputs, reportMain, type MainOutcome } from './report.js';
import { createAll, setStatusAll, withTracker } from './service.js';
import { readSettings, type Settings } from './settings.js';
import { readInput } from './step.js';

export async function run(log: Log): Promise<void> {
  const startedAt = Date.now();
  let settings: Settings;
  let plan: MainPlan;
  try {
    settings = readSettings(readInput, process.env);
    const context = needsContext(settings) ? await readGitHubContext(process.env, settings.checkRunId, log) : undefined;
    plan = planMain(settings, context);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return reportMain({ kind: 'config-error', error }, false, log);
  }
  presetOutputs();
  reportMain(await execute(plan, settings, startedAt, log), settings.failOnError, log);
}

async function execute(plan: MainPlan, settings: Settings, startedAt: number, log: Log): Promise<MainOutcome> {
  const { connection } = settings;
  if (plan.kind === 'nothing') return plan;
  if (settings.dryRun) return dryRunMain(plan, connection);
  switch (plan.kind) {
    case 'finish-in-post':
      return { ...plan, startedAt };
    case 'create': {
      const results = await withTracker(connection, log, (tracker) => createAll(tracker, plan.bodies));
      return { kind: 'created', status: plan.status, finishInPost: plan.finishInPost, results, startedAt };
    }
    case 'update': {
      const results = await withTracker(connection, log, (tracker) => setStatusAll(tracker, plan.ids, plan.status));
      return { kind: 'updated', status: plan.status, results };
    }
  }
}
