// What a GitHub Actions run says of the deployment: default values for its fields, from the
// GITHUB_* variables and the webhook event. Pure: it reads only what it is given, so every event
// type, and every broken event, can be tested as a table.
import { FieldSettings, type FieldDefaults, type FieldName, type Sourced } from '../core/deployment.js';
import { field } from '../core/json.js';

export interface GitHubContext {
  eventName: string;
  /** The webhook event (the JSON file at GITHUB_EVENT_PATH), as parsed: anything at all. */
  payload: unknown;
  env: Record<string, string | undefined>;
  /** `${{ job.check_run_id }}` as the runner evaluated it; '' where there is none (GHES, a `run:` step). */
  checkRunId: string;
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

/** Each field's default, with where it came from; '' (left out) where the run gives none. */
export function githubDefaults(ctx: GitHubContext): FieldDefaults {
  const facts = eventFacts(ctx.payload);
  const values: Partial<Record<FieldName, Sourced>> = {
    commitSha: defaultCommitSha(ctx, facts),
    version: sourced(refTag(ctx.env.GITHUB_REF ?? ''), 'the tag (GITHUB_REF)'),
    user: ctx.env.GITHUB_TRIGGERING_ACTOR
      ? sourced(ctx.env.GITHUB_TRIGGERING_ACTOR, 'GITHUB_TRIGGERING_ACTOR')
      : sourced(ctx.env.GITHUB_ACTOR ?? '', 'GITHUB_ACTOR'),
    branch: defaultBranch(ctx, facts),
    changelog: defaultChangelog(ctx, facts),
    description: sourced(defaultDescription(ctx), 'the workflow run'),
    link: defaultLink(ctx),
  };
  return { values, missing };
}

/** Where a required field would have come from, in the error when the run gives none. */
const MISSING_FROM: Partial<Record<FieldName, string>> = {
  commitSha: 'GITHUB_SHA',
  user: 'GITHUB_ACTOR',
  branch: 'GITHUB_REF',
};

function missing(name: FieldName): string {
  const variable = MISSING_FROM[name] ?? 'the run';
  return `is empty and ${variable} gives no default (not on a GitHub runner?). Set \`${FieldSettings[name]}\`.`;
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

function refTag(ref: string): string {
  return ref.startsWith(TAG_PREFIX) ? ref.slice(TAG_PREFIX.length) : '';
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

function defaultChangelog({ eventName }: GitHubContext, facts: EventFacts): Sourced {
  if (eventName === 'push') return sourced(facts.compare, 'the compare URL (event)');
  if (isPullRequestEvent(eventName)) return sourced(facts.pullRequestUrl, "the pull request's URL (event)");
  if (eventName === 'release') return sourced(facts.releaseUrl, "the release's URL (event)");
  return sourced('', '');
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
function defaultLink({ env, checkRunId }: GitHubContext): Sourced {
  const { GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: runId } = env;
  if (!repo || !runId) return sourced('', '');
  const server = (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '');
  const run = `${server}/${repo}/actions/runs/${runId}`;
  if (/^\d+$/.test(checkRunId)) return sourced(`${run}/job/${checkRunId}`, "the job's page");
  return sourced(`${run}/attempts/${env.GITHUB_RUN_ATTEMPT || '1'}`, "the run attempt's page");
}

const PULL_REQUEST_EVENTS = new Set(['pull_request', 'pull_request_review', 'pull_request_review_comment']);

/** The events whose runs Dependabot starts get Dependabot's secrets only, not the repository's. */
const DEPENDABOT_EVENTS = new Set([...PULL_REQUEST_EVENTS, 'push', 'create', 'deployment', 'deployment_status']);

const DEPENDABOT = 'dependabot[bot]';

/**
 * Why GitHub gives this run none of the repository's secrets, where it does not (GitHub's docs:
 * "Using secrets in GitHub Actions", "Troubleshooting Dependabot on GitHub Actions"); undefined
 * where the secrets are given.
 * - A pull request from a fork (pull_request and its review events): its head repository is
 *   another than its base, or was deleted (`head.repo` null). A fork's own pull requests, between
 *   two of its branches, run in the fork with its secrets: `fork` alone says nothing.
 *   `pull_request_target` runs in the base repository, with its secrets.
 * - A run Dependabot started (github.actor, also when someone else re-runs it) on a pull request,
 *   review, push, create or deployment event: Dependabot's secrets only; on pull_request_target,
 *   none for a pull request Dependabot opened.
 */
export function secretsWithheld({
  eventName,
  payload,
  env,
}: Pick<GitHubContext, 'eventName' | 'payload' | 'env'>): string | undefined {
  const pullRequest = field(payload, 'pull_request');
  if (env.GITHUB_ACTOR === DEPENDABOT) {
    if (DEPENDABOT_EVENTS.has(eventName)) {
      return "GitHub gives a workflow run that Dependabot started Dependabot's secrets only";
    }
    if (eventName === 'pull_request_target' && text(field(field(pullRequest, 'user'), 'login')) === DEPENDABOT) {
      return 'GitHub gives a pull_request_target run for a pull request that Dependabot opened no secrets';
    }
  }
  if (!PULL_REQUEST_EVENTS.has(eventName)) return undefined;
  const head = field(field(pullRequest, 'head'), 'repo');
  const base = field(field(pullRequest, 'base'), 'repo');
  const headName = text(field(head, 'full_name'));
  const baseName = text(field(base, 'full_name'));
  const fromFork =
    (pullRequest !== undefined && head === null) || (headName !== '' && baseName !== '' && headName !== baseName);
  return fromFork ? 'GitHub gives a workflow run for a pull request from a fork no secrets' : undefined;
}
