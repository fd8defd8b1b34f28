// Where what a step did becomes what the runner sees: the handoff to the post step, the outputs, the
// log, the job summary, and the failure policy (fail-open unless fail-on-error). The words are the
// core's description (core/outcome.ts); here they are only written.
import * as core from '@actions/core';
import type { DeploymentStatus } from '../core/constants.js';
import type { ConfigError } from '../core/config-error.js';
import { idsJson, type DeploymentId } from '../core/ids.js';
import { deploymentsText, type Open, type Report } from '../core/outcome.js';
import { quote } from '../core/text.js';
import { saveHandoff, type Handoff, type ReadHandoff } from './handoff.js';
import type { ActionLog } from './log.js';
import { Outputs } from './names.js';
import { appendToRunnerFile, keyValueBlocks } from './runner-files.js';
import { recordedRow, writeSummary } from './summary.js';

/** What the main step did: handed on first (the post step needs it to finish what was created), then shown. */
export function reportStart(report: Report, failOnError: boolean, log: ActionLog): void {
  handOn(log, report.open ?? { note: '' }, report.ids, report.status);
  show(report, failOnError, log);
}

/**
 * The deployments the main step has created so far, handed to the post step at once: should the
 * step be killed before its report (a cancelled run's grace period ends), the post step still
 * finishes them. The runner keeps the last value written, so the report's own handoff wins.
 */
export function handOnCreated(ids: readonly DeploymentId[], startedAt: number, log: ActionLog): void {
  write(log, 'state', () => saveHandoff({ dryRun: false, ids: [...ids], startedAt }));
}

/** What the post step did. */
export function reportFinish(report: Report, failOnError: boolean, log: ActionLog): void {
  show(report, failOnError, log);
}

function show(report: Report, failOnError: boolean, log: ActionLog): void {
  for (const line of report.lines) {
    if (line.warning) log.warning(line.text);
    else log.info(line.text);
  }
  if (report.summary) {
    const rows = report.recorded.map(({ body, id }) => recordedRow(body, id));
    writeSummary({ ...report.summary, rows, failures: report.failures }, log);
  }
  applyFailurePolicy(report.failures, failOnError, log);
}

/** Bad configuration: the step fails, and the main step tells the post step there is nothing to finish. */
export function reportConfigError(error: ConfigError, stage: 'main' | 'post', log: ActionLog): void {
  log.fail(error.lines);
  if (stage === 'main') handOn(log, { note: 'Nothing to finish: the main step stopped on a configuration error.' });
  const heading = `Deployment not ${stage === 'main' ? 'recorded' : 'finished'}: configuration error`;
  writeSummary({ heading, failures: [error.lines] }, log);
}

/** The post step, when the main step left it nothing to finish (or state it cannot trust). */
export function reportNothingOpen(handoff: Exclude<ReadHandoff, Open>, log: ActionLog): void {
  if ('unreadable' in handoff) {
    return log.warning(
      `The main step's state could not be read (${handoff.unreadable}), so nothing is sent: the deployment stays as the main step left it.`,
    );
  }
  log.info('note' in handoff ? handoff.note : 'Nothing to finish: the main step recorded no deployment (see its log).');
}

/** The post step cannot tell how the job ended: it leaves the deployments as they are. */
export function reportUnknownJobStatus(jobStatus: string, open: Open, log: ActionLog): void {
  const left = open.dryRun
    ? 'the deployments of this dry run would be left as they are'
    : `${deploymentsText(open.ids)} ${open.ids.length === 1 ? 'is left as it is' : 'are left as they are'}`;
  // Cleaned before it is cut: a key put into `job-status` by mistake must not show its first characters.
  const message = `The job status is unknown (${quote(log.clean(jobStatus))}), so ${left}. The \`job-status\` input must keep its default, \`\${{ job.status }}\`.`;
  log.warning(message);
  writeSummary({ heading: 'Deployment left unfinished', lines: [message] }, log);
}

/**
 * Fail-open: a service that cannot be reached or refuses is a warning, so the tracker never blocks a
 * deployment, unless `fail-on-error` asks for the step to fail.
 */
export function applyFailurePolicy(
  failures: readonly (readonly string[])[],
  failOnError: boolean,
  log: ActionLog,
): void {
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

/** The handoff first, then the outputs. A runner file that cannot be written is a warning, never a crash. */
function handOn(log: ActionLog, handoff: Handoff, ids?: readonly DeploymentId[], status?: DeploymentStatus | ''): void {
  write(log, 'state', () => saveHandoff(handoff));
  if (ids && status !== undefined) write(log, 'outputs', () => setOutputs(ids, status));
}

/** What could not be written, by step (its log): each says so once, however often it is tried. */
const failed = new WeakMap<ActionLog, Set<string>>();

function write(log: ActionLog, what: string, action: () => void): void {
  try {
    action();
  } catch (error) {
    const said = failed.get(log) ?? new Set<string>();
    failed.set(log, said);
    if (said.has(what)) return;
    said.add(what);
    log.warning(`Could not write the step's ${what}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The three outputs, in one write of GITHUB_OUTPUT (or as commands, outside a runner that has the file). */
function setOutputs(ids: readonly DeploymentId[], status: DeploymentStatus | ''): void {
  const outputs = {
    [Outputs.DeploymentId]: ids[0]?.text ?? '',
    [Outputs.DeploymentIds]: idsJson(ids),
    [Outputs.Status]: status,
  };
  if (process.env.GITHUB_OUTPUT) return appendToRunnerFile('GITHUB_OUTPUT', keyValueBlocks(outputs));
  for (const [name, value] of Object.entries(outputs)) core.setOutput(name, value);
}
