import { describe, expect, it } from 'vitest';
import { githubDefaults, secretsWithheld, type GitHubContext } from '../../src/ci/github.ts';

const env = {
  GITHUB_SHA: 'merge-sha',
  GITHUB_REF: 'refs/heads/main',
  GITHUB_REF_NAME: 'main',
  GITHUB_ACTOR: 'alice',
  GITHUB_SERVER_URL: 'https://github.com',
  GITHUB_REPOSITORY: 'acme/shop',
  GITHUB_RUN_ID: '77',
  GITHUB_RUN_NUMBER: '12',
  GITHUB_RUN_ATTEMPT: '2',
  GITHUB_WORKFLOW: 'Deploy',
  GITHUB_JOB: 'ship',
};

/** Each default's value ('' for none); the tag is the version's default. */
function defaults(overrides: Partial<GitHubContext> & { extraEnv?: Record<string, string> }) {
  const { extraEnv, ...rest } = overrides;
  const { values } = githubDefaults({
    eventName: 'push',
    payload: {},
    checkRunId: '5',
    ...rest,
    env: { ...env, ...extraEnv },
  });
  const value = (name: keyof typeof values) => values[name]?.value ?? '';
  return {
    commitSha: value('commitSha'),
    tag: value('version'),
    user: value('user'),
    branch: value('branch'),
    changelog: value('changelog'),
    description: value('description'),
    link: value('link'),
  };
}

describe('githubDefaults', () => {
  it.each([
    ['push to a branch', { eventName: 'push' }, 'merge-sha', 'main', ''],
    [
      'push of a tag with base_ref',
      {
        payload: { base_ref: 'refs/heads/release' },
        extraEnv: { GITHUB_REF: 'refs/tags/v1.0.0', GITHUB_REF_NAME: 'v1.0.0' },
      },
      'merge-sha',
      'release',
      'v1.0.0',
    ],
    [
      'push of a tag without base_ref',
      { payload: { base_ref: null }, extraEnv: { GITHUB_REF: 'refs/tags/v1.0.0', GITHUB_REF_NAME: 'v1.0.0' } },
      'merge-sha',
      'v1.0.0',
      'v1.0.0',
    ],
    [
      'pull_request_target',
      { eventName: 'pull_request_target', payload: { pull_request: { head: { sha: 'head-sha', ref: 'feat' } } } },
      'head-sha',
      'feat',
      '',
    ],
    [
      'pull_request without a payload head falls back to GITHUB_HEAD_REF',
      { eventName: 'pull_request', extraEnv: { GITHUB_HEAD_REF: 'feat-2', GITHUB_REF: 'refs/pull/3/merge' } },
      'merge-sha',
      'feat-2',
      '',
    ],
    [
      'workflow_run',
      { eventName: 'workflow_run', payload: { workflow_run: { head_sha: 'run-sha', head_branch: 'dev' } } },
      'run-sha',
      'dev',
      '',
    ],
    [
      'workflow_dispatch on a branch',
      { eventName: 'workflow_dispatch', extraEnv: { GITHUB_REF: 'refs/heads/ops' } },
      'merge-sha',
      'ops',
      '',
    ],
  ])('%s', (_, ctx, commitSha, branch, tag) => {
    const result = defaults(ctx);
    expect({ commitSha: result.commitSha, branch: result.branch, tag: result.tag }).toEqual({ commitSha, branch, tag });
  });

  it.each([
    ['push', { compare: 'https://github.com/acme/shop/compare/a...b' }, 'https://github.com/acme/shop/compare/a...b'],
    [
      'pull_request',
      { pull_request: { html_url: 'https://github.com/acme/shop/pull/3' } },
      'https://github.com/acme/shop/pull/3',
    ],
    [
      'release',
      { release: { html_url: 'https://github.com/acme/shop/releases/tag/v1' } },
      'https://github.com/acme/shop/releases/tag/v1',
    ],
    ['schedule', {}, ''],
  ])('changelog on %s', (eventName, payload, changelog) => {
    expect(defaults({ eventName, payload }).changelog).toBe(changelog);
  });

  it('prefers the triggering actor (a re-run by someone else)', () => {
    expect(defaults({ extraEnv: { GITHUB_TRIGGERING_ACTOR: 'bob' } }).user).toBe('bob');
    expect(defaults({}).user).toBe('alice');
  });

  it('describes the run in one line', () => {
    expect(defaults({ eventName: 'workflow_dispatch' }).description).toBe(
      'Deploy #12 (attempt 2), job ship, on workflow_dispatch',
    );
  });

  it.each([
    ['5', 'https://github.com/acme/shop/actions/runs/77/job/5'],
    ['', 'https://github.com/acme/shop/actions/runs/77/attempts/2'],
    ['${{ job.check_run_id }}', 'https://github.com/acme/shop/actions/runs/77/attempts/2'],
  ])('links to the job with check run id "%s"', (checkRunId, link) => {
    expect(defaults({ checkRunId }).link).toBe(link);
  });

  it('uses the GHES server URL', () => {
    expect(defaults({ extraEnv: { GITHUB_SERVER_URL: 'https://ghe.acme.internal/' } }).link).toBe(
      'https://ghe.acme.internal/acme/shop/actions/runs/77/job/5',
    );
  });

  it.each([
    ['null', null],
    ['an array', [1, 2]],
    ['a string', 'push'],
    ['wrongly typed fields', { compare: 42, pull_request: { head: { sha: ['x'], ref: {} }, html_url: 7 } }],
  ])('falls back to the GITHUB_* variables for an event that is %s', (_, payload) => {
    expect(defaults({ eventName: 'pull_request', payload, extraEnv: { GITHUB_HEAD_REF: 'feat' } })).toMatchObject({
      commitSha: 'merge-sha',
      branch: 'feat',
      changelog: '',
    });
  });
});

describe('secretsWithheld: where GitHub gives a run none of the repository secrets', () => {
  const pullRequest = (head: unknown, base = 'acme/shop', user = 'bob') => ({
    pull_request: { head: { repo: head }, base: { repo: { full_name: base } }, user: { login: user } },
  });
  const FORK = 'GitHub gives a workflow run for a pull request from a fork no secrets';
  const DEPENDABOT = "GitHub gives a workflow run that Dependabot started Dependabot's secrets only";

  it.each([
    ['pull_request from a fork', 'pull_request', pullRequest({ full_name: 'mallory/shop' }), 'bob', FORK],
    [
      'a review of a pull request from a fork',
      'pull_request_review',
      pullRequest({ full_name: 'mallory/shop' }),
      'bob',
      FORK,
    ],
    [
      'pull_request_review_comment from a fork',
      'pull_request_review_comment',
      pullRequest({ full_name: 'm/s' }),
      'bob',
      FORK,
    ],
    ['pull_request from a fork since deleted (head.repo null)', 'pull_request', pullRequest(null), 'bob', FORK],
    [
      'pull_request from a branch of the repository',
      'pull_request',
      pullRequest({ full_name: 'acme/shop' }),
      'bob',
      undefined,
    ],
    [
      "a fork's own pull request, in the fork",
      'pull_request',
      pullRequest({ full_name: 'm/s', fork: true }, 'm/s'),
      'bob',
      undefined,
    ],
    [
      'pull_request_target from a fork (runs in the base, with its secrets)',
      'pull_request_target',
      pullRequest({ full_name: 'm/s' }),
      'bob',
      undefined,
    ],
    ['a push', 'push', {}, 'bob', undefined],
    ['a push by Dependabot', 'push', {}, 'dependabot[bot]', DEPENDABOT],
    [
      'a pull request by Dependabot (a branch of the repository)',
      'pull_request',
      pullRequest({ full_name: 'acme/shop' }, 'acme/shop', 'dependabot[bot]'),
      'dependabot[bot]',
      DEPENDABOT,
    ],
    ['a deployment_status by Dependabot', 'deployment_status', {}, 'dependabot[bot]', DEPENDABOT],
    [
      'pull_request_target for a pull request Dependabot opened',
      'pull_request_target',
      pullRequest({ full_name: 'acme/shop' }, 'acme/shop', 'dependabot[bot]'),
      'dependabot[bot]',
      'GitHub gives a pull_request_target run for a pull request that Dependabot opened no secrets',
    ],
    [
      'pull_request_target by Dependabot for a pull request someone else opened',
      'pull_request_target',
      pullRequest({ full_name: 'acme/shop' }),
      'dependabot[bot]',
      undefined,
    ],
    [
      'workflow_run after a run Dependabot started (it has the secrets)',
      'workflow_run',
      {},
      'dependabot[bot]',
      undefined,
    ],
    ['a pull request event whose payload has no pull request', 'pull_request', {}, 'bob', undefined],
    [
      'a pull request whose repositories are no objects',
      'pull_request',
      { pull_request: { head: { repo: 7 }, base: { repo: [] } } },
      'bob',
      undefined,
    ],
  ])('%s', (_, eventName, payload, actor, why) => {
    expect(secretsWithheld({ eventName, payload, env: { GITHUB_ACTOR: actor } })).toBe(why);
  });
});
