// What a GitHub Actions run says of the deployment: default values for its fields, from the
// GITHUB_* variables and the webhook event. Pure: it reads only what it is given, so every event
// type, and every broken event, can be tested as a table.
import { Settings } from '../core/constants.js';
import {
  FieldSettings,
  type FieldDefaults,
  type FieldName,
  type NeededField,
  type Sourced,
} from '../core/deployment.js';
import { field, isObject } from '../core/json.js';
import type { ImpliedStatus } from '../core/status.js';
import { isBlank } from '../core/text.js';
import type { Words } from '../core/words.js';

export interface GitHubContext {
  eventName: string;
  /** The webhook event (the JSON file at GITHUB_EVENT_PATH), as parsed: anything at all. */
  payload: unknown;
  env: Record<string, string | undefined>;
  /** `${{ job.check_run_id }}` as the runner evaluated it ('' on older GHES); none outside the action (a `run:` step). */
  checkRunId?: string;
}

/** What the defaults read from the event, each a string ('' where the event has none, or no string). */
interface EventFacts {
  compare: string;
  baseRef: string;
  pullRequestUrl: string;
  pullRequestHeadSha: string;
  pullRequestHeadRef: string;
  runHeadSha: string;
  runHeadBranch: string;
  releaseUrl: string;
}

const TAG_PREFIX = 'refs/tags/';
const BRANCH_PREFIX = 'refs/heads/';

/** Each field's default, with where it came from; left out (or '') where the run gives none. */
export function githubDefaults(ctx: GitHubContext): FieldDefaults {
  const facts = eventFacts(ctx.payload);
  const deployment = DEPLOYMENT_EVENTS.has(ctx.eventName) ? deploymentFacts(ctx.payload) : undefined;
  const values: Partial<Record<FieldName, Sourced>> = {
    commitSha: defaultCommitSha(ctx, facts),
    version: sourced(refTag(ctx.env.GITHUB_REF), 'the tag (GITHUB_REF)'),
    user: ctx.env.GITHUB_TRIGGERING_ACTOR
      ? sourced(ctx.env.GITHUB_TRIGGERING_ACTOR, 'GITHUB_TRIGGERING_ACTOR')
      : sourced(ctx.env.GITHUB_ACTOR ?? '', 'GITHUB_ACTOR'),
    branch: defaultBranch(ctx, facts),
    changelog: defaultChangelog(ctx, facts),
    description: sourced(defaultDescription(ctx), 'the workflow run'),
    link: defaultLink(ctx),
    // A deployment's events: what GitHub says of that deployment, where it says it.
    ...(deployment ? deploymentDefaults(ctx, deployment) : {}),
  };
  return { values, missing: DEPLOYMENT_EVENTS.has(ctx.eventName) ? missingFromDeployment : missing };
}

/** Where a required field would have come from, in the error when the run gives none. */
const MISSING_FROM: Record<NeededField, string> = {
  commitSha: 'GITHUB_SHA',
  user: 'GITHUB_ACTOR',
  branch: 'GITHUB_REF',
};

function missing(name: NeededField): string {
  return `is empty and ${MISSING_FROM[name]} gives no default (not on a GitHub runner?). Set \`${FieldSettings[name]}\`.`;
}

/** The same, in a run a deployment's event started: the event is where it would have come from first. */
const MISSING_FROM_DEPLOYMENT: Record<NeededField, string> = {
  commitSha: 'deployment.sha',
  user: 'deployment.creator',
  branch: 'deployment.ref',
};

function missingFromDeployment(name: NeededField): string {
  return `is empty, and neither the event's ${MISSING_FROM_DEPLOYMENT[name]} nor ${MISSING_FROM[name]} gives a default. Set \`${FieldSettings[name]}\`.`;
}

function sourced(value: string, source: string): Sourced {
  return { value, source };
}

/** Only strings count: an event with wrongly typed fields never puts a number or an object in a field. */
function eventFacts(payload: unknown): EventFacts {
  const pullRequest = field(payload, 'pull_request');
  const workflowRun = field(payload, 'workflow_run');
  const head = field(pullRequest, 'head');
  return {
    compare: text(field(payload, 'compare')),
    baseRef: text(field(payload, 'base_ref')),
    pullRequestUrl: text(field(pullRequest, 'html_url')),
    pullRequestHeadSha: text(field(head, 'sha')),
    pullRequestHeadRef: text(field(head, 'ref')),
    runHeadSha: text(field(workflowRun, 'head_sha')),
    runHeadBranch: text(field(workflowRun, 'head_branch')),
    releaseUrl: text(field(field(payload, 'release'), 'html_url')),
  };
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function isPullRequestEvent(eventName: string): boolean {
  return eventName.startsWith('pull_request');
}

/** The commit being deployed: the PR's head, not the merge commit GITHUB_SHA points at. */
function defaultCommitSha({ eventName, env }: GitHubContext, facts: EventFacts): Sourced {
  if (isPullRequestEvent(eventName) && facts.pullRequestHeadSha) {
    return sourced(facts.pullRequestHeadSha, "the pull request's head (event)");
  }
  if (eventName === 'workflow_run' && facts.runHeadSha)
    return sourced(facts.runHeadSha, 'workflow_run.head_sha (event)');
  return sourced(env.GITHUB_SHA ?? '', 'GITHUB_SHA');
}

function refTag(ref: string | undefined): string {
  return ref?.startsWith(TAG_PREFIX) ? ref.slice(TAG_PREFIX.length) : '';
}

function defaultBranch({ eventName, env }: GitHubContext, facts: EventFacts): Sourced {
  if (isPullRequestEvent(eventName)) {
    if (facts.pullRequestHeadRef) return sourced(facts.pullRequestHeadRef, "the pull request's head (event)");
    if (env.GITHUB_HEAD_REF) return sourced(env.GITHUB_HEAD_REF, 'GITHUB_HEAD_REF');
  }
  if (eventName === 'workflow_run' && facts.runHeadBranch) {
    return sourced(facts.runHeadBranch, 'workflow_run.head_branch (event)');
  }
  const ref = env.GITHUB_REF ?? '';
  if (ref.startsWith(BRANCH_PREFIX)) return sourced(ref.slice(BRANCH_PREFIX.length), 'GITHUB_REF');
  // A tag push names the branch it was pushed from in base_ref, when GitHub knows it.
  if (ref.startsWith(TAG_PREFIX) && facts.baseRef) {
    return sourced(facts.baseRef.replace(BRANCH_PREFIX, ''), 'base_ref (event)');
  }
  if (env.GITHUB_REF_NAME) return sourced(env.GITHUB_REF_NAME, 'GITHUB_REF_NAME');
  return sourced(refTag(ref) || ref, 'GITHUB_REF');
}

function defaultChangelog({ eventName }: GitHubContext, facts: EventFacts): Sourced | undefined {
  if (eventName === 'push') return sourced(facts.compare, 'the compare URL (event)');
  if (isPullRequestEvent(eventName)) return sourced(facts.pullRequestUrl, "the pull request's URL (event)");
  if (eventName === 'release') return sourced(facts.releaseUrl, "the release's URL (event)");
  return undefined;
}

/** e.g. "Deploy #42 (attempt 2), job deploy, on push". */
function defaultDescription({ eventName, env }: GitHubContext): string {
  const run = env.GITHUB_RUN_NUMBER ? ` #${env.GITHUB_RUN_NUMBER}` : '';
  const attempt = env.GITHUB_RUN_ATTEMPT ? ` (attempt ${env.GITHUB_RUN_ATTEMPT})` : '';
  const parts = [`${env.GITHUB_WORKFLOW || 'workflow'}${run}${attempt}`];
  if (env.GITHUB_JOB) parts.push(`job ${env.GITHUB_JOB}`);
  if (eventName) parts.push(`on ${eventName}`);
  return parts.join(', ');
}

/** The job's page; without a check run id (older GHES, a `run:` step), the run attempt's page. */
function defaultLink({ env, checkRunId }: GitHubContext): Sourced | undefined {
  const { GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: runId } = env;
  if (!repo || !runId) return undefined;
  const server = (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '');
  const run = `${server}/${repo}/actions/runs/${runId}`;
  if (checkRunId?.match(/^\d+$/)) return sourced(`${run}/job/${checkRunId}`, "the job's page");
  return sourced(`${run}/attempts/${env.GITHUB_RUN_ATTEMPT || '1'}`, "the run attempt's page");
}

/** The events that carry a GitHub deployment: its creation, and each change of its state. */
const DEPLOYMENT_EVENTS = new Set(['deployment', 'deployment_status']);

export function isDeploymentEvent(eventName: string): boolean {
  return DEPLOYMENT_EVENTS.has(eventName);
}

/**
 * What an empty `status` means in a run a deployment's event started: the state the deployment_status
 * event carries (whatever it holds: the core accepts only an end, or a state that records nothing),
 * or, for a `deployment` event, nothing yet. undefined for any other event.
 */
export function deploymentEventStatus(
  { eventName, payload }: Pick<GitHubContext, 'eventName' | 'payload'>,
  naming: Pick<Words, 'assignment'>,
): ImpliedStatus | undefined {
  if (eventName === 'deployment_status') {
    return {
      word: text(field(field(payload, 'deployment_status'), 'state')),
      from: "the event's `deployment_status.state`",
    };
  }
  if (eventName === 'deployment') {
    return {
      nothing: `Nothing recorded: a \`deployment\` event comes when a deployment is created, before it has a state. Run this workflow on \`deployment_status\` to record each deployment once it has succeeded or failed, or set ${naming.assignment(Settings.Status)} to record it here.`,
    };
  }
  return undefined;
}

/** What a deployment's event says of it; '' for what it does not say (or says in no string, or blank). */
interface DeploymentFacts {
  sha: string;
  ref: string;
  environment: string;
  description: string;
  task: string;
  /** `deployment.id`, as text. */
  id: string;
  creator: string;
  /** The GitHub App that created the deployment or its status, by name. */
  app: string;
  /** A string `version` in the deployment's payload (an object, or a JSON string of one). */
  payloadVersion: string;
  /** The status's, in a deployment_status event; all '' in a deployment event. */
  state: string;
  statusEnvironment: string;
  statusDescription: string;
  /** The status's URLs, in the order a link is taken from them. */
  statusUrls: string[];
}

/** Also the receiver's (`serve`): the same event, from a webhook rather than a run. */
export function deploymentFacts(payload: unknown): DeploymentFacts | undefined {
  const deployment = field(payload, 'deployment');
  if (!isObject(deployment)) return undefined;
  const status = field(payload, 'deployment_status');
  const appName = (of: unknown) => word(field(field(of, 'performed_via_github_app'), 'name'));
  return {
    sha: word(deployment.sha),
    ref: word(deployment.ref),
    environment: word(deployment.environment),
    description: word(deployment.description),
    task: word(deployment.task),
    id: Number.isSafeInteger(deployment.id) ? String(deployment.id) : '',
    creator: word(field(deployment.creator, 'login')),
    app: appName(status) || appName(deployment),
    payloadVersion: payloadVersion(deployment.payload),
    state: word(field(status, 'state')),
    statusEnvironment: word(field(status, 'environment')),
    statusDescription: word(field(status, 'description')),
    statusUrls: ['log_url', 'target_url', 'environment_url'].map((name) => word(field(status, name))),
  };
}

/** A string with something in it; '' for a blank one, or for no string. */
function word(value: unknown): string {
  const said = text(value);
  return isBlank(said) ? '' : said;
}

/** `version` of the deployment's payload, which GitHub passes on as the deployer gave it: an object or a JSON string. */
function payloadVersion(payload: unknown): string {
  let value = payload;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return '';
    }
  }
  return word(field(value, 'version'));
}

/** What deployment.ref names: a branch, a tag, or a commit (Vercel's and Argo CD's deployments name the SHA). */
type DeployedRef = { branch: string } | { tag: string } | { commit: string };

/** What `ref` names; '' names the empty branch, which sets nothing. */
function deployedRef(ref: string, sha: string, githubRef: string | undefined): DeployedRef {
  // The REST API takes a full ref too.
  if (ref.startsWith(TAG_PREFIX)) return { tag: ref.slice(TAG_PREFIX.length) };
  if (ref.startsWith(BRANCH_PREFIX)) return { branch: ref.slice(BRANCH_PREFIX.length) };
  // The run's GITHUB_REF is the ref in full where it is a branch or a tag ('' for a commit).
  if (githubRef === `${TAG_PREFIX}${ref}`) return { tag: ref };
  if (githubRef === `${BRANCH_PREFIX}${ref}`) return { branch: ref };
  const hex = /^[0-9a-f]{7,64}$/i.test(ref);
  const isCommit = sha ? hex && sha.toLowerCase().startsWith(ref.toLowerCase()) : hex && ref.length >= 40;
  return isCommit ? { commit: ref } : { branch: ref };
}

/**
 * The defaults a deployment's event gives, each only where it gives one (the others stay as for any
 * event): the deployment's commit, ref, environment, creator and payload; the status's link; a
 * description from both.
 */
function deploymentDefaults({ env }: GitHubContext, facts: DeploymentFacts): Partial<Record<FieldName, Sourced>> {
  const values: Partial<Record<FieldName, Sourced>> = {};
  const set = (name: FieldName, value: string, source: string) => {
    if (!isBlank(value)) values[name] = sourced(value, source);
  };
  set('commitSha', facts.sha, 'deployment.sha (event)');
  const ref = deployedRef(facts.ref, facts.sha, env.GITHUB_REF);
  if ('branch' in ref) set('branch', ref.branch, 'deployment.ref (event)');
  if ('tag' in ref) set('branch', ref.tag, 'the tag (deployment.ref, event)');
  // A commit names no branch, and GitHub gives none (GITHUB_REF is empty): the commit stands for it
  // rather than a branch it may not be on (a preview of a feature branch is no deployment of main).
  if ('commit' in ref) set('branch', facts.sha || ref.commit, 'deployment.ref (event: a commit, no branch)');
  // The version: what the deployer put in the payload, else the tag, else (the core's rule) the commit.
  values.version = undefined;
  if ('tag' in ref) set('version', ref.tag, 'the tag (deployment.ref, event)');
  set('version', facts.payloadVersion, "the deployment's payload (event)");
  // A status may move the deployment to another environment: its own is the newer.
  set('environment', facts.environment, 'deployment.environment (event)');
  set('environment', facts.statusEnvironment, 'deployment_status.environment (event)');
  set('user', facts.creator, 'deployment.creator (event)');
  const link = facts.statusUrls.find((url) => url !== '');
  if (link) set('link', link, "the deployment status's URL (event)");
  set('description', deploymentDescription(facts), 'the deployment and its status (event)');
  return values;
}

/**
 * e.g. "Deploy storefront 2.4.1 to staging; error: Helm upgrade failed; GitHub deployment 6292204560
 * by acme-deployer[bot] via Acme Deployer": the deployment's own words, its state and the status's
 * words, and where it comes from.
 */
function deploymentDescription(facts: DeploymentFacts): string {
  const state = facts.state && facts.statusDescription ? `${facts.state}: ${facts.statusDescription}` : facts.state;
  const origin = ['GitHub deployment'];
  if (facts.id) origin.push(facts.id);
  if (facts.task && facts.task !== 'deploy') origin.push(`(${facts.task})`);
  if (facts.creator) origin.push(`by ${facts.creator}`);
  if (facts.app) origin.push(`via ${facts.app}`);
  return [facts.description, state, origin.join(' ')].filter((part) => part !== '').join('; ');
}
