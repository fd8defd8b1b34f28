// The GitHub context turned into default values for the deployment's fields. Pure: it reads only
// what it is given, so every event type, and every broken event, can be tested as a table.

export interface GitHubContext {
  eventName: string;
  /** The webhook event (the JSON file at GITHUB_EVENT_PATH), as parsed: anything at all. */
  payload: unknown;
  env: Record<string, string | undefined>;
  /** `${{ job.check_run_id }}` as the runner evaluated it; '' on GHES versions without it. */
  checkRunId: string;
}

export interface ContextDefaults {
  commitSha: string;
  /** The tag name on a tag ref; otherwise '' (then the version is the commit SHA). */
  tag: string;
  user: string;
  branch: string;
  changelog: string;
  description: string;
  link: string;
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

export function contextDefaults(ctx: GitHubContext): ContextDefaults {
  const facts = eventFacts(ctx.payload);
  return {
    commitSha: defaultCommitSha(ctx, facts),
    tag: refTag(ctx.env.GITHUB_REF ?? ''),
    user: ctx.env.GITHUB_TRIGGERING_ACTOR || ctx.env.GITHUB_ACTOR || '',
    branch: defaultBranch(ctx, facts),
    changelog: defaultChangelog(ctx, facts),
    description: defaultDescription(ctx),
    link: defaultLink(ctx),
  };
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

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)[name]
    : undefined;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function isPullRequestEvent(eventName: string): boolean {
  return eventName.startsWith('pull_request');
}

/** The commit being deployed: the PR's head, not the merge commit GITHUB_SHA points at. */
function defaultCommitSha({ eventName, env }: GitHubContext, facts: EventFacts): string {
  if (isPullRequestEvent(eventName) && facts.pullRequestHeadSha) return facts.pullRequestHeadSha;
  if (eventName === 'workflow_run' && facts.runHeadSha) return facts.runHeadSha;
  return env.GITHUB_SHA ?? '';
}

function refTag(ref: string): string {
  return ref.startsWith(TAG_PREFIX) ? ref.slice(TAG_PREFIX.length) : '';
}

function defaultBranch({ eventName, env }: GitHubContext, facts: EventFacts): string {
  if (isPullRequestEvent(eventName)) {
    const head = facts.pullRequestHeadRef || env.GITHUB_HEAD_REF;
    if (head) return head;
  }
  if (eventName === 'workflow_run' && facts.runHeadBranch) return facts.runHeadBranch;
  const ref = env.GITHUB_REF ?? '';
  if (ref.startsWith(BRANCH_PREFIX)) return ref.slice(BRANCH_PREFIX.length);
  // A tag push names the branch it was pushed from in base_ref, when GitHub knows it.
  if (ref.startsWith(TAG_PREFIX) && facts.baseRef) return facts.baseRef.replace(BRANCH_PREFIX, '');
  return env.GITHUB_REF_NAME || refTag(ref) || ref;
}

function defaultChangelog({ eventName }: GitHubContext, facts: EventFacts): string {
  if (eventName === 'push') return facts.compare;
  if (isPullRequestEvent(eventName)) return facts.pullRequestUrl;
  if (eventName === 'release') return facts.releaseUrl;
  return '';
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

/** The job's page; without a check run id (older GHES), the run attempt's page. */
function defaultLink({ env, checkRunId }: GitHubContext): string {
  const { GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: runId } = env;
  if (!repo || !runId) return '';
  const server = (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '');
  const run = `${server}/${repo}/actions/runs/${runId}`;
  if (/^\d+$/.test(checkRunId)) return `${run}/job/${checkRunId}`;
  return `${run}/attempts/${env.GITHUB_RUN_ATTEMPT || '1'}`;
}
