// The main step: inputs -> create or update -> state, outputs, job summary.
import * as core from '@actions/core';
import { Inputs, Outputs, State, type DeploymentStatus } from './constants.js';
import type { GitHubContext } from './context.js';
import { ConfigError, readConnection, type Connection } from './inputs.js';
import type { Log } from './log.js';
import { planMain, type CreateBody, type Plan } from './plan.js';
import { errorText, updateAll, type DeploymentId, type Tracker } from './service.js';
import { capitalize, deploymentsText, readInput, reportServiceFailure, startStep, withTracker } from './step.js';
import { writeSummary, type RecordedRow } from './summary.js';
import { printDryRun } from './dry-run.js';

export async function run(): Promise<void> {
  const log = startStep();
  core.saveState(State.StartedAt, String(Date.now()));

  let connection: Connection;
  let plan: Plan;
  try {
    connection = readConnection(readInput);
    plan = await planMain(readInput, loadGitHubContext);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    core.setFailed(log.redact(error.message));
    core.saveState(State.PostNote, 'Nothing to finish: the main step stopped on a configuration error.');
    await writeSummary({ heading: 'Deployment not recorded: configuration error', failures: [error.message] }, log);
    return;
  }

  if (connection.dryRun) {
    dryRun(plan, connection, log);
    return;
  }
  if (plan.kind === 'finish-in-post') {
    leaveForPost(plan.ids, log);
    return;
  }
  await withTracker(connection, log, (tracker) =>
    plan.kind === 'create'
      ? createDeployments(plan, tracker, connection, log)
      : updateDeployments(plan, tracker, connection, log),
  );
}

/** @actions/github (and the octokit it bundles) is loaded only when deployments are created. */
async function loadGitHubContext(): Promise<GitHubContext> {
  const { context } = await import('@actions/github');
  return {
    eventName: context.eventName ?? '',
    payload: context.payload,
    env: process.env,
    checkRunId: readInput(Inputs.JobCheckRunId),
  };
}

async function createDeployments(
  plan: Extract<Plan, { kind: 'create' }>,
  tracker: Tracker,
  connection: Connection,
  log: Log,
): Promise<void> {
  const results = await Promise.allSettled(plan.bodies.map((body) => tracker.create(body)));
  const created: DeploymentId[] = [];
  const rows: RecordedRow[] = [];
  const failures: string[] = [];
  results.forEach((result, index) => {
    const body = plan.bodies[index] as CreateBody;
    if (result.status === 'fulfilled') {
      created.push(result.value);
      rows.push(recordedRow(body, String(result.value)));
      log.info(`Recorded deployment ${result.value}: ${describeBody(body)} (${plan.status}).`);
    } else {
      failures.push(`Could not record the deployment of ${artifactLabel(body)}: ${errorText(result.reason)}`);
    }
  });

  setOutputs(created, created.length ? plan.status : '');
  if (plan.finishInPost && created.length) {
    core.saveState(State.PendingIds, JSON.stringify(created));
  } else {
    core.saveState(State.PostNote, postNoteAfterCreate(plan, created.length));
  }
  await writeSummary({ heading: summaryHeading(created.length, plan.bodies.length), rows, failures }, log);
  for (const failure of failures) reportServiceFailure(failure, connection.failOnError, log);
}

function postNoteAfterCreate(plan: Extract<Plan, { kind: 'create' }>, createdCount: number): string {
  if (createdCount === 0) return 'Nothing to finish: the main step could not record a deployment.';
  return `Nothing to finish: the main step was given status ${plan.status}, so the job's status is not reported.`;
}

async function updateDeployments(
  plan: Extract<Plan, { kind: 'update' }>,
  tracker: Tracker,
  connection: Connection,
  log: Log,
): Promise<void> {
  const { updated, failures } = await updateAll(tracker, plan.ids, plan.status);
  const done = updated.length ? `${capitalize(deploymentsText(updated))} set to ${plan.status}.` : '';
  if (done) log.info(done);
  setOutputs(updated, updated.length ? plan.status : '');
  core.saveState(
    State.PostNote,
    `Nothing to finish: the main step already set the deployment status to ${plan.status}.`,
  );
  const lines = done ? [done] : [];
  await writeSummary({ heading: summaryHeading(updated.length, plan.ids.length, 'updated'), lines, failures }, log);
  for (const failure of failures) reportServiceFailure(failure, connection.failOnError, log);
}

function leaveForPost(ids: string[], log: Log): void {
  setOutputs(ids, '');
  core.saveState(State.PendingIds, JSON.stringify(ids));
  log.info(`${capitalize(deploymentsText(ids))} will be set from the job status when the job ends.`);
}

function dryRun(plan: Plan, connection: Connection, log: Log): void {
  const status = plan.kind === 'finish-in-post' ? '' : plan.status;
  printDryRun(plan, connection, log);
  setOutputs([], status);
  if (plan.kind === 'finish-in-post') core.saveState(State.PendingIds, JSON.stringify(plan.ids));
  else if (plan.kind === 'create' && plan.finishInPost) core.saveState(State.DryRunPending, String(plan.bodies.length));
  else core.saveState(State.PostNote, `Nothing to finish: status ${status} was given (dry run).`);
}

function setOutputs(ids: DeploymentId[], status: DeploymentStatus | ''): void {
  core.setOutput(Outputs.DeploymentId, ids.length ? String(ids[0]) : '');
  core.setOutput(Outputs.DeploymentIds, JSON.stringify(ids));
  core.setOutput(Outputs.Status, status);
}

function summaryHeading(done: number, asked: number, verb = 'recorded'): string {
  if (done === asked) return done === 1 ? `Deployment ${verb}` : `${done} deployments ${verb}`;
  return `${done} of ${asked} deployments ${verb}`;
}

function recordedRow(body: CreateBody, id: string): RecordedRow {
  return {
    artifact: 'artifactId' in body ? String(body.artifactId) : body.artifactName,
    environment: body.environment,
    version: body.version,
    commitSha: body.commitSha,
    branch: body.branch,
    status: body.status,
    id,
    link: body.link ?? '',
  };
}

function artifactLabel(body: CreateBody): string {
  return 'artifactId' in body ? `artifact ${body.artifactId}` : `artifact '${body.artifactName}'`;
}

function describeBody(body: CreateBody): string {
  return `${artifactLabel(body)} version ${body.version} to ${body.environment}`;
}
