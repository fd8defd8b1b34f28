// The GitHub context turned into default values for the deployment's fields. Pure: it reads only
// what it is given, so every event type can be tested as a table.

export interface GitHubContext {
  eventName: string;
  /** The webhook event (the JSON file at GITHUB_EVENT_PATH). */
  payload: EventPayload;
  env: Record<string, string | undefined>;
  /** `${{ job.check_run_id }}` as the runner evaluated it; '' on GHES versions without it. */
  checkRunId: string;
}

export interface EventPayload {
  [key: string]: unknown;
  compare?: string;
  base_ref?: string | null;
  pull_request?: { html_url?: string; head?: { sha?: string; ref?: string } };
  workflow_run?: { head_sha?: string; head_branch?: string | null };
  release?: { html_url?: string };
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

const TAG_PREFIX = 'refs/tags/';
const BRANCH_PREFIX = 'refs/heads/';

function isPullRequestEvent(eventName: string): boolean {
  return eventName.startsWith('pull_request');
}

export function contextDefaults(ctx: GitHubContext): ContextDefaults {
  return {
    commitSha: defaultCommitSha(ctx),
    tag: refTag(ctx.env.GITHUB_REF ?? ''),
    user: ctx.env.GITHUB_TRIGGERING_ACTOR || ctx.env.GITHUB_ACTOR || '',
    branch: defaultBranch(ctx),
    changelog: defaultChangelog(ctx),
    description: defaultDescription(ctx),
    link: defaultLink(ctx),
  };
}

/** The commit being deployed: the PR's head, not the merge commit GITHUB_SHA points at. */
function defaultCommitSha({ eventName, payload, env }: GitHubContext): string {
  if (isPullRequestEvent(eventName) && payload.pull_request?.head?.sha) return payload.pull_request.head.sha;
  if (eventName === 'workflow_run' && payload.workflow_run?.head_sha) return payload.workflow_run.head_sha;
  return env.GITHUB_SHA ?? '';
}

function refTag(ref: string): string {
  return ref.startsWith(TAG_PREFIX) ? ref.slice(TAG_PREFIX.length) : '';
}

function defaultBranch({ eventName, payload, env }: GitHubContext): string {
  if (isPullRequestEvent(eventName)) {
    const head = payload.pull_request?.head?.ref || env.GITHUB_HEAD_REF;
    if (head) return head;
  }
  if (eventName === 'workflow_run' && payload.workflow_run?.head_branch) return payload.workflow_run.head_branch;
  const ref = env.GITHUB_REF ?? '';
  if (ref.startsWith(BRANCH_PREFIX)) return ref.slice(BRANCH_PREFIX.length);
  // A tag push names the branch it was pushed from in base_ref, when GitHub knows it.
  const baseRef = payload.base_ref ?? '';
  if (ref.startsWith(TAG_PREFIX) && baseRef) return baseRef.replace(BRANCH_PREFIX, '');
  return env.GITHUB_REF_NAME || refTag(ref) || ref;
}

function defaultChangelog({ eventName, payload }: GitHubContext): string {
  if (eventName === 'push') return payload.compare ?? '';
  if (isPullRequestEvent(eventName)) return payload.pull_request?.html_url ?? '';
  if (eventName === 'release') return payload.release?.html_url ?? '';
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
  const run = runUrl(env);
  if (/^\d+$/.test(checkRunId)) return `${run}/job/${checkRunId}`;
  return `${run}/attempts/${env.GITHUB_RUN_ATTEMPT || '1'}`;
}

export function runUrl(env: Record<string, string | undefined>): string {
  const server = (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '');
  return `${server}/${env.GITHUB_REPOSITORY ?? ''}/actions/runs/${env.GITHUB_RUN_ID ?? ''}`;
}
