// The one place where what a step did becomes what the runner sees: outputs, the handoff to the post
// step, log lines, the job summary, and the failure policy (fail-open unless fail-on-error).
import * as core from '@actions/core';
import { Outputs, type DeploymentStatus } from './constants.js';
import type { ConfigError } from './config-error.js';
import { deploymentsText, idsJson, type DeploymentId } from './ids.js';
import { saveHandoff, type Handoff, type ReadHandoff } from './handoff.js';
import type { Log } from './log.js';
import { quote } from './text.js';
import type { CreateBody, CreateResult, UpdateResult } from './service.js';
import { formatDuration, writeSummary, type RecordedRow } from './summary.js';

export type MainOutcome =
  | { kind: 'config-error'; error: ConfigError }
  | { kind: 'nothing'; reason: 'skipped' | 'no-ids' }
  /** A dry run: `lines` show what would be sent; the handoff says what the post step would do. */
  | { kind: 'dry-run'; lines: string[]; status: DeploymentStatus | ''; handoff: Handoff }
  | { kind: 'created'; status: DeploymentStatus; finishInPost: boolean; results: CreateResult[]; startedAt: number }
  | { kind: 'updated'; status: DeploymentStatus; results: UpdateResult[] }
  | { kind: 'finish-in-post'; ids: DeploymentId[]; startedAt: number };

export type PostOutcome =
  | { kind: 'nothing'; handoff: Exclude<ReadHandoff, { kind: 'finish' | 'finish-dry-run' }> }
  | { kind: 'config-error'; error: ConfigError }
  | { kind: 'unknown-job-status'; jobStatus: string; handoff: Extract<Handoff, { kind: 'finish' | 'finish-dry-run' }> }
  | { kind: 'dry-run'; lines: string[] }
  | { kind: 'finished'; status: DeploymentStatus; results: UpdateResult[]; startedAt: number };

export function reportMain(outcome: MainOutcome, failOnError: boolean, log: Log): void {
  switch (outcome.kind) {
    case 'config-error':
      log.fail(outcome.error.lines);
      handOn(log, { kind: 'nothing', reason: 'config-error' });
      return writeSummary(
        { heading: 'Deployment not recorded: configuration error', failures: [outcome.error.lines] },
        log,
      );
    case 'nothing':
      handOn(log, { kind: 'nothing', reason: outcome.reason }, [], '');
      return outcome.reason === 'skipped' ? reportSkipped(log) : reportNoIds(log);
    case 'dry-run':
      log.info([...outcome.lines, 'Dry run: nothing was sent.']);
      return handOn(log, outcome.handoff, [], outcome.status);
    case 'created':
      return reportCreated(outcome, failOnError, log);
    case 'updated':
      return reportUpdated(outcome, failOnError, log);
    case 'finish-in-post':
      handOn(log, { kind: 'finish', ids: outcome.ids, startedAt: outcome.startedAt }, outcome.ids, '');
      return log.info(`${capitalize(deploymentsText(outcome.ids))} will be set from the job status when the job ends.`);
  }
}

export function reportPost(outcome: PostOutcome, failOnError: boolean, log: Log): void {
  switch (outcome.kind) {
    case 'nothing':
      if (outcome.handoff.kind === 'unreadable') {
        return log.warning(
          `The main step's state could not be read (${outcome.handoff.problem}), so nothing is sent: the deployment stays as the main step left it.`,
        );
      }
      return log.info(nothingToFinish(outcome.handoff));
    case 'config-error':
      log.fail(outcome.error.lines);
      return writeSummary(
        { heading: 'Deployment not finished: configuration error', failures: [outcome.error.lines] },
        log,
      );
    case 'unknown-job-status': {
      const message = `The job status is unknown (${quote(outcome.jobStatus)}), so ${leftAsItIs(outcome.handoff)}. The \`job-status\` input must keep its default, \`\${{ job.status }}\`.`;
      log.warning(message);
      return writeSummary({ heading: 'Deployment left unfinished', lines: [message] }, log);
    }
    case 'dry-run':
      return log.info([...outcome.lines, 'Dry run: nothing was sent.']);
    case 'finished':
      return reportFinished(outcome, failOnError, log);
  }
}

function reportSkipped(log: Log): void {
  const line = "Nothing recorded: status is 'skipped', so nothing was deployed.";
  log.info(line);
  writeSummary({ heading: 'Deployment not recorded: skipped', lines: [line] }, log);
}

function reportNoIds(log: Log): void {
  const line =
    "Input 'deployment-id' is an empty list: the job that started the deployment recorded none (see its log), so there is nothing to update.";
  log.warning(line);
  writeSummary({ heading: 'No deployment to update', lines: [line] }, log);
}

function reportCreated(outcome: Extract<MainOutcome, { kind: 'created' }>, failOnError: boolean, log: Log): void {
  const { status, results } = outcome;
  const created: DeploymentId[] = [];
  const rows: RecordedRow[] = [];
  const failures: (readonly string[])[] = [];
  for (const result of results) {
    if ('id' in result) {
      created.push(result.id);
      rows.push(recordedRow(result.body, result.id));
      log.info(`Recorded deployment ${result.id.text}: ${describeBody(result.body)} (${status}).`);
    } else {
      failures.push(prefixed(`Could not record the deployment of ${artifactLabel(result.body)}`, result.failure));
    }
  }
  handOn(
    log,
    created.length === 0
      ? { kind: 'nothing', reason: 'not-recorded' }
      : outcome.finishInPost
        ? { kind: 'finish', ids: created, startedAt: outcome.startedAt }
        : { kind: 'nothing', reason: 'status-given', status },
    created,
    created.length ? status : '',
  );
  writeSummary({ heading: countHeading(created.length, results.length, 'recorded'), rows, failures }, log);
  applyFailurePolicy(failures, failOnError, log);
}

function reportUpdated(outcome: Extract<MainOutcome, { kind: 'updated' }>, failOnError: boolean, log: Log): void {
  const { status, results } = outcome;
  const { done, failures } = splitUpdates(results, status);
  const line = done.length ? `${capitalize(deploymentsText(done))} set to ${status}.` : '';
  if (line) log.info(line);
  const handoff: Handoff = done.length
    ? { kind: 'nothing', reason: 'updated', status }
    : { kind: 'nothing', reason: 'not-updated' };
  handOn(log, handoff, done, done.length ? status : '');
  writeSummary(
    { heading: countHeading(done.length, results.length, 'updated'), lines: line ? [line] : [], failures },
    log,
  );
  applyFailurePolicy(failures, failOnError, log);
}

function reportFinished(outcome: Extract<PostOutcome, { kind: 'finished' }>, failOnError: boolean, log: Log): void {
  const { status, results, startedAt } = outcome;
  const { done, failures } = splitUpdates(results, status);
  const lines: string[] = [];
  if (done.length) {
    const after = startedAt > 0 ? ` after ${formatDuration(Date.now() - startedAt)}` : '';
    lines.push(`${capitalize(deploymentsText(done))} set to ${status}${after}.`);
    log.info(lines);
  }
  const heading = failures.length ? 'Deployment status not fully reported' : `Deployment ${status.toLowerCase()}`;
  writeSummary({ heading, lines, failures }, log);
  applyFailurePolicy(failures, failOnError, log);
}

function splitUpdates(results: UpdateResult[], status: DeploymentStatus) {
  const done = results.filter((result) => !result.failure).map((result) => result.id);
  const failures = results.flatMap((result) =>
    result.failure ? [prefixed(`Could not set deployment ${result.id.text} to ${status}`, result.failure)] : [],
  );
  return { done, failures };
}

/** "deployment 1 is left as it is", "deployments 1, 2 are left as they are". */
function leftAsItIs(handoff: Extract<Handoff, { kind: 'finish' | 'finish-dry-run' }>): string {
  if (handoff.kind === 'finish-dry-run') return 'the deployments of this dry run would be left as they are';
  const one = handoff.ids.length === 1;
  return `${deploymentsText(handoff.ids)} ${one ? 'is left as it is' : 'are left as they are'}`;
}

/** The post step's line when the main step left it nothing to finish. */
function nothingToFinish(handoff: Exclude<ReadHandoff, { kind: 'finish' | 'finish-dry-run' | 'unreadable' }>): string {
  if (handoff.kind === 'none') return 'Nothing to finish: the main step recorded no deployment (see its log).';
  switch (handoff.reason) {
    case 'config-error':
      return 'Nothing to finish: the main step stopped on a configuration error.';
    case 'not-recorded':
      return 'Nothing to finish: the main step could not record a deployment.';
    case 'status-given':
      return `Nothing to finish: the main step was given status ${handoff.status ?? ''}, so the job's status is not reported.`;
    case 'updated':
      return `Nothing to finish: the main step already set the deployment status to ${handoff.status ?? ''}.`;
    case 'not-updated':
      return 'Nothing to finish: the main step could not update the deployment.';
    case 'skipped':
      return "Nothing to finish: status was 'skipped', so nothing was recorded.";
    case 'no-ids':
      return "Nothing to finish: 'deployment-id' was an empty list.";
  }
}

/**
 * Fail-open: a service that cannot be reached or refuses is a warning, so the tracker never blocks a
 * deployment, unless `fail-on-error` asks for the step to fail.
 */
export function applyFailurePolicy(failures: readonly (readonly string[])[], failOnError: boolean, log: Log): void {
  for (const failure of failures) {
    if (failOnError) log.fail(failure);
    else log.warning([...failure, 'The step goes on (fail-on-error is false).']);
  }
}

/**
 * Before the service is called: outputs that say "nothing recorded" (`deployment-ids` is `[]`), so
 * that a later job is handed `[]` even if this step stops unexpectedly. The report overwrites them.
 */
export function presetOutputs(): void {
  try {
    setOutputs([], '');
  } catch {
    // The report writes them again, and says so if it cannot.
  }
}

/**
 * The handoff first (the post step needs it to finish what was created), then the outputs. A runner
 * file that cannot be written is a warning, never a crash.
 */
function handOn(log: Log, handoff: Handoff, ids?: readonly DeploymentId[], status?: DeploymentStatus | ''): void {
  write(log, 'state', () => saveHandoff(handoff));
  if (ids && status !== undefined) write(log, 'outputs', () => setOutputs(ids, status));
}

function write(log: Log, what: string, action: () => void): void {
  try {
    action();
  } catch (error) {
    log.warning(`Could not write the step's ${what}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function setOutputs(ids: readonly DeploymentId[], status: DeploymentStatus | ''): void {
  core.setOutput(Outputs.DeploymentId, ids[0]?.text ?? '');
  core.setOutput(Outputs.DeploymentIds, idsJson(ids));
  core.setOutput(Outputs.Status, status);
}

/** "what: first line", then the failure's further lines. */
function prefixed(what: string, failure: readonly string[]): string[] {
  const [first = '', ...rest] = failure;
  return [`${what}: ${first}`, ...rest];
}

function countHeading(done: number, asked: number, verb: string): string {
  if (done === asked) return done === 1 ? `Deployment ${verb}` : `${done} deployments ${verb}`;
  return `${done} of ${asked} deployments ${verb}`;
}

function recordedRow(body: CreateBody, id: DeploymentId): RecordedRow {
  return {
    artifact: 'artifactId' in body ? String(body.artifactId) : body.artifactName,
    environment: body.environment,
    version: body.version,
    commitSha: body.commitSha,
    branch: body.branch,
    status: body.status,
    id: id.text,
    link: body.link ?? '',
  };
}

function artifactLabel(body: CreateBody): string {
  return 'artifactId' in body ? `artifact ${body.artifactId}` : `artifact '${body.artifactName}'`;
}

function describeBody(body: CreateBody): string {
  return `${artifactLabel(body)} version ${body.version} to ${body.environment}`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
