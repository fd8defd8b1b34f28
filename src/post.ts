// The post step: the main step's state + the job status -> SUCCEEDED or FAILED.
import * as core from '@actions/core';
import { Inputs, State, type DeploymentStatus } from './constants.js';
import { printDryRunFinish } from './dry-run.js';
import { ConfigError, readConnection, type Connection } from './inputs.js';
import type { Log } from './log.js';
import { updateAll, type DeploymentId } from './service.js';
import { capitalize, deploymentsText, readInput, reportServiceFailure, startStep, withTracker } from './step.js';
import { formatDuration, writeSummary } from './summary.js';

const JOB_STATUS_TO_DEPLOYMENT: Record<string, DeploymentStatus> = {
  success: 'SUCCEEDED',
  failure: 'FAILED',
  cancelled: 'FAILED',
};

/** `job.status` as the runner evaluated it for this step; undefined when it did not (or could not). */
export function deploymentStatusFromJob(jobStatus: string): DeploymentStatus | undefined {
  return JOB_STATUS_TO_DEPLOYMENT[jobStatus.trim().toLowerCase()];
}

export async function run(): Promise<void> {
  const log = startStep();
  const pending = readPendingIds();
  const dryRunPending = Number(core.getState(State.DryRunPending) || 0);
  if (pending.length === 0 && dryRunPending === 0) {
    log.info(core.getState(State.PostNote) || 'Nothing to finish: the main step recorded no deployment (see its log).');
    return;
  }

  const jobStatus = readInput(Inputs.JobStatus);
  const status = deploymentStatusFromJob(jobStatus);
  const ids = pending.length ? pending : placeholders(dryRunPending);
  if (!status) {
    const message = `The job status is unknown ('${jobStatus}'), so ${deploymentsText(ids)} ${ids.length === 1 ? 'is' : 'are'} left as ${ids.length === 1 ? 'it is' : 'they are'}. The \`${Inputs.JobStatus}\` input must keep its default, \`\${{ job.status }}\`.`;
    log.warning(message);
    await writeSummary({ heading: 'Deployment left unfinished', lines: [message] }, log);
    return;
  }

  let connection: Connection;
  try {
    connection = readConnection(readInput);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    core.setFailed(log.redact(error.message));
    return;
  }
  if (connection.dryRun) {
    printDryRunFinish(ids, status, connection, log);
    return;
  }
  await finish(pending, status, connection, log);
}

async function finish(ids: DeploymentId[], status: DeploymentStatus, connection: Connection, log: Log): Promise<void> {
  const { updated: finished, failures } = await withTracker(connection, log, (tracker) =>
    updateAll(tracker, ids, status),
  );
  const lines: string[] = [];
  if (finished.length) {
    const duration = jobDuration();
    const line = `${capitalize(deploymentsText(finished))} set to ${status}${duration ? ` after ${duration}` : ''}.`;
    log.info(line);
    lines.push(line);
  }
  const heading = failures.length ? 'Deployment status not fully reported' : `Deployment ${status.toLowerCase()}`;
  await writeSummary({ heading, lines, failures }, log);
  for (const failure of failures) reportServiceFailure(failure, connection.failOnError, log);
}

function readPendingIds(): DeploymentId[] {
  const raw = core.getState(State.PendingIds);
  if (!raw) return [];
  const ids: unknown = JSON.parse(raw);
  return Array.isArray(ids)
    ? ids.filter((id): id is DeploymentId => typeof id === 'string' || typeof id === 'number')
    : [];
}

/** Stand-ins for the ids a dry-run main step would have received. */
function placeholders(count: number): string[] {
  return Array.from({ length: count }, (_, index) => `<id of deployment ${index + 1}>`);
}

/** Time since the main step ran, e.g. "3m 12s"; '' when the main step saved no start time. */
function jobDuration(): string {
  const startedAt = Number(core.getState(State.StartedAt));
  return startedAt > 0 ? formatDuration(Date.now() - startedAt) : '';
}
