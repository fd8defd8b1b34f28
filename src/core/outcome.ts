// One description of what happened, whichever face shows it: the lines to log, the failures (which
// the face turns into warnings, or errors with fail-on-error), the summary's heading and rows, the
// ids and status recorded, and what is left open to finish later (or why nothing is). Every case
// is worded here, once; the faces only show it.
import type { DeploymentStatus } from './constants.js';
import { Settings } from './constants.js';
import { artifactLabel, type CreateBody } from './deployment.js';
import type { DeploymentId } from './ids.js';
import type { Plan } from './plan.js';
import type { PlanResults } from './execute.js';
import type { UpdateResult } from './service.js';
import type { CreateResult } from './service.js';
import { capitalize } from './text.js';
import type { Words } from './words.js';

/** Deployments left open, to be set from how the job or command ends. */
export type Open =
  /** `startedAt`: when they were started (epoch ms), for "after 3m 12s". */
  | { dryRun: false; ids: DeploymentId[]; startedAt: number }
  /** A dry run: `ids` given to finish, or `count` deployments a real run would have created. */
  | { dryRun: true; ids?: DeploymentId[]; count: number };

interface Line {
  text: string;
  warning?: boolean;
}

export interface Report {
  /** What to log, in order. */
  lines: Line[];
  /** Requests that did not succeed, each its lines: warnings, or errors with fail-on-error. */
  failures: string[][];
  /** A summary's heading and paragraphs; undefined where none is written. */
  summary?: { heading: string; lines: string[] };
  /** What was recorded, a row each. */
  recorded: { body: CreateBody; id: DeploymentId }[];
  /** The deployments recorded or updated (none in a dry run), and the status sent ('' for none). */
  ids: DeploymentId[];
  status: DeploymentStatus | '';
  /** What starting left to finish later; or, where it left nothing, the line that says why. */
  open?: Open | { note: string };
}

const NOTHING_SENT = 'Dry run: nothing was sent.';

/** A dry run's last line at the start, and what goes on all the same. */
function nothingSent(words: Words): string {
  return words.dryRunGoesOn ? `Dry run: nothing was sent; ${words.dryRunGoesOn}.` : NOTHING_SENT;
}

/** A deployment never asked for: the run was cancelled before its turn. */
const NOT_SENT = 'not sent: the run was cancelled before its turn';

/**
 * What starting says the moment the run is cancelled (the runner's SIGINT; a command's Ctrl-C):
 * what it does with the deployments sent and those not yet.
 */
export function describeCancel(plan: Plan, words: Words): string {
  const head = 'The run is being cancelled:';
  switch (plan.kind) {
    case 'create': {
      const later = plan.finishLater ? `, and ${words.finisher} sets each one created from ${words.finishFrom}` : '';
      return `${head} no further deployment is created; those already sent are waited for${later}.`;
    }
    case 'update':
      // An update creates nothing, and one not sent would leave a deployment unfinished.
      return `${head} every deployment is still set to ${plan.status}, so that none is left unfinished.`;
    default:
      return `${head} ${words.starter} sends nothing, and ends as it would.`;
  }
}

/** What starting (the main step, `start`, `record`, `run`'s start) did with `plan`. */
export function describeStart(
  plan: Plan,
  results: PlanResults,
  options: { dryRun: boolean; startedAt: number; words: Words },
): Report {
  const { dryRun, startedAt, words } = options;
  const note = (text: string) => ({ note: `Nothing to finish: ${text}` });
  switch (plan.kind) {
    case 'nothing':
      return describeNothing(plan, words);
    case 'finish-later': {
      const { ids } = plan;
      if (dryRun) {
        const line = `Dry run: ${words.finisher} would set ${deploymentsText(ids)} from ${words.finishFrom}.`;
        return report({ lines: info(line, nothingSent(words)), open: { dryRun, ids, count: ids.length } });
      }
      const line = `${capitalize(deploymentsText(ids))} will be set from ${words.finishFrom} ${words.finishWhen}.`;
      return report({ lines: info(line), ids, open: { dryRun, ids, startedAt } });
    }
    case 'update': {
      const { status } = plan;
      const { done, failures } = splitUpdates(results.updated ?? [], status);
      if (dryRun) {
        return report({
          lines: info(nothingSent(words)),
          status,
          open: note(`${words.starter} already set the deployment status to ${status}.`),
        });
      }
      const line = done.length ? `${capitalize(deploymentsText(done))} set to ${status}.` : '';
      return report({
        lines: info(line),
        failures,
        summary: { heading: countHeading(done.length, plan.ids.length, 'updated'), lines: line ? [line] : [] },
        ids: done,
        status: done.length ? status : '',
        open: note(
          done.length
            ? `${words.starter} already set the deployment status to ${status}.`
            : `${words.starter} could not update the deployment.`,
        ),
      });
    }
    case 'create':
      return describeCreated(plan, results.created ?? [], options);
  }
}

function describeCreated(
  plan: Extract<Plan, { kind: 'create' }>,
  results: CreateResult[],
  { dryRun, startedAt, words }: { dryRun: boolean; startedAt: number; words: Words },
): Report {
  const { status, finishLater } = plan;
  const given = `${words.starter} was given status ${status}, so ${words.finishFrom} is not reported.`;
  if (dryRun) {
    const later = `Dry run: ${words.finisher} would set these deployments from ${words.finishFrom}.`;
    return report({
      lines: info(finishLater ? later : '', nothingSent(words)),
      status,
      open: finishLater ? { dryRun, count: plan.bodies.length } : { note: `Nothing to finish: ${given}` },
    });
  }
  const recorded: Report['recorded'] = [];
  const lines: Line[] = [];
  const failures: string[][] = [];
  for (const result of results) {
    if ('id' in result) {
      recorded.push(result);
      lines.push({ text: `Recorded deployment ${result.id.text}: ${describeBody(result.body)} (${status}).` });
    } else {
      const failure = 'notSent' in result ? [NOT_SENT] : result.failure;
      failures.push(prefixed(`Could not record the deployment of ${artifactLabel(result.body)}`, failure));
    }
  }
  const ids = recorded.map((row) => row.id);
  const open: Report['open'] =
    ids.length === 0
      ? { note: `Nothing to finish: ${words.starter} could not record a deployment.` }
      : finishLater
        ? { dryRun, ids, startedAt }
        : { note: `Nothing to finish: ${given}` };
  return report({
    lines,
    failures,
    summary: { heading: countHeading(ids.length, results.length, 'recorded'), lines: [] },
    recorded,
    ids,
    status: ids.length ? status : '',
    open,
  });
}

/** Nothing to record, and why: the log line (a warning where something may be amiss), the summary, the note. */
function describeNothing(plan: Extract<Plan, { kind: 'nothing' }>, words: Words): Report {
  const said = (text: string, warning: boolean, heading: string, note: string): Report =>
    report({
      lines: [{ text, warning }],
      summary: { heading, lines: [text] },
      open: { note: `Nothing to finish: ${note}` },
    });
  switch (plan.reason) {
    case 'skipped':
      return said(
        `Nothing recorded: status is '${plan.word}', so nothing was deployed.`,
        false,
        'Deployment not recorded: skipped',
        `status was '${plan.word}', so nothing was recorded.`,
      );
    case 'not-final':
      return said(
        `Nothing recorded: the deployment is '${plan.word}', not a final state. ${words.notFinalYet}`,
        false,
        'Deployment not recorded: not finished yet',
        `the deployment was '${plan.word}', so nothing was recorded.`,
      );
    case 'not-yet':
      // The face's own line: the run's event gave no status yet, and this is likely not where the deployment ends.
      return said(
        plan.why,
        true,
        'Deployment not recorded: no state yet',
        'the deployment had no state yet, so nothing was recorded.',
      );
    case 'no-ids': {
      const subject = words.setting(Settings.DeploymentId);
      return said(
        `${subject} is an empty list: the job that started the deployment recorded none (see its log), so there is nothing to update.`,
        true,
        'No deployment to update',
        `${subject} was an empty list.`,
      );
    }
    case 'no-key':
      return said(
        plan.warning,
        true,
        'Deployment not recorded: no API key',
        'without an API key nothing was recorded.',
      );
  }
}

/** What finishing the open deployments (the post step, `finish`, `run`'s end) did. */
export function describeFinish(
  status: DeploymentStatus,
  results: UpdateResult[],
  options: { dryRun: boolean; startedAt: number; placeholders?: number; words: Words },
): Report {
  const { dryRun, startedAt, placeholders } = options;
  if (dryRun) {
    const each = placeholders === 1 ? 'the deployment' : `each of the ${placeholders} deployments`;
    const stands = `({id} stands for the id of ${each} ${options.words.starter} would have created.)`;
    return report({ lines: info(placeholders ? stands : '', NOTHING_SENT) });
  }
  const { done, failures } = splitUpdates(results, status);
  const after = startedAt > 0 ? ` after ${formatDuration(Date.now() - startedAt)}` : '';
  const line = done.length ? `${capitalize(deploymentsText(done))} set to ${status}${after}.` : '';
  const heading = failures.length ? 'Deployment status not fully reported' : `Deployment ${status.toLowerCase()}`;
  return report({
    lines: info(line),
    failures,
    summary: { heading, lines: line ? [line] : [] },
    ids: done,
    status: done.length ? status : '',
  });
}

/** Every report says something: its lines are always given. */
function report(parts: Partial<Report> & Pick<Report, 'lines'>): Report {
  return { failures: [], recorded: [], ids: [], status: '', ...parts };
}

/** Info lines, the empty ones left out. */
function info(...texts: string[]): Line[] {
  return texts.filter((text) => text !== '').map((text) => ({ text }));
}

function splitUpdates(results: UpdateResult[], status: DeploymentStatus) {
  const done = results.filter((result) => !result.failure).map((result) => result.id);
  const failures = results.flatMap((result) =>
    result.failure ? [prefixed(`Could not set deployment ${result.id.text} to ${status}`, result.failure)] : [],
  );
  return { done, failures };
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

function describeBody(body: CreateBody): string {
  return `${artifactLabel(body)} version ${body.version} to ${body.environment}`;
}

/** "deployment 7" or "deployments 7, 8", for log lines. */
export function deploymentsText(ids: readonly DeploymentId[]): string {
  return `${ids.length === 1 ? 'deployment' : 'deployments'} ${ids.map((id) => id.text).join(', ')}`;
}

/** "3m 12s" */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h) return `${h}h ${m}m ${s}s`;
  return m ? `${m}m ${s}s` : `${s}s`;
}
