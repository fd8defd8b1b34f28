// Whether GitHub gives a workflow run the repository's secrets: where it does not (a fork's pull
// request, a run Dependabot started), an empty API key records nothing instead of failing the job.
import { field } from '../core/json.js';
import type { GitHubContext } from './github.js';

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
  // head.repo is null only in a pull request whose head repository was deleted.
  const fromFork = head === null || (headName !== '' && baseName !== '' && headName !== baseName);
  return fromFork ? 'GitHub gives a workflow run for a pull request from a fork no secrets' : undefined;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
