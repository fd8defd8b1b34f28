import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { deploymentEventStatus, githubDefaults, secretsWithheld, type GitHubContext } from '../../src/ci/github.ts';
import { inputNaming } from '../../src/action/inputs.ts';

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
    environment: value('environment'),
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

const SHA = '6e34a94445b483cd1ddfee6d918d6ef5ffc5bd74';

/** A deployment_status event: `deployment` and `status` over a minimal deployment of SHA to staging. */
function statusEvent(deployment: Record<string, unknown> = {}, status: Record<string, unknown> = {}) {
  return {
    deployment: { id: 6291877410, sha: SHA, ref: 'main', environment: 'staging', task: 'deploy', ...deployment },
    deployment_status: { state: 'success', environment: 'staging', ...status },
  };
}

const onStatus = (payload: unknown, extraEnv: Record<string, string> = {}) =>
  defaults({ eventName: 'deployment_status', payload, extraEnv: { GITHUB_SHA: SHA, ...extraEnv } });

describe("githubDefaults on a deployment's events", () => {
  it.each([
    ['a branch', { ref: 'feature/login' }, { GITHUB_REF: 'refs/heads/feature/login' }, 'feature/login', ''],
    ['a branch GITHUB_REF does not name', { ref: 'feature/login' }, { GITHUB_REF: '' }, 'feature/login', ''],
    ['a tag (GITHUB_REF says so)', { ref: 'v1.4.0' }, { GITHUB_REF: 'refs/tags/v1.4.0' }, 'v1.4.0', 'v1.4.0'],
    ['a full tag ref', { ref: 'refs/tags/v2.0.0' }, { GITHUB_REF: '' }, 'v2.0.0', 'v2.0.0'],
    ['a full branch ref', { ref: 'refs/heads/release/3.0' }, { GITHUB_REF: '' }, 'release/3.0', ''],
    ['the commit SHA (Vercel): the commit stands for the branch', { ref: SHA }, { GITHUB_REF: '' }, SHA, ''],
    ['an upper-case SHA', { ref: SHA.toUpperCase() }, { GITHUB_REF: '' }, SHA, ''],
    ['a short SHA of the commit', { ref: SHA.slice(0, 7) }, { GITHUB_REF: '' }, SHA, ''],
    ['a SHA, where the event has no sha', { ref: SHA, sha: 7 }, { GITHUB_REF: '' }, SHA, ''],
    [
      'a hex branch name GITHUB_REF names',
      { ref: SHA.slice(0, 8) },
      { GITHUB_REF: `refs/heads/${SHA.slice(0, 8)}` },
      SHA.slice(0, 8),
      '',
    ],
    ['hex that is not the commit', { ref: 'cafe1234' }, { GITHUB_REF: '' }, 'cafe1234', ''],
    ['no ref: GITHUB_REF as for any event', { ref: '' }, { GITHUB_REF: 'refs/heads/ops' }, 'ops', ''],
  ])('deployment.ref is %s', (_, deployment, extraEnv, branch, version) => {
    const result = onStatus(statusEvent(deployment), { GITHUB_REF_NAME: '', ...extraEnv });
    expect({ branch: result.branch, version: result.tag }).toEqual({ branch, version });
  });

  it('the commit is deployment.sha, not GITHUB_SHA; without a string sha, GITHUB_SHA', () => {
    expect(defaults({ eventName: 'deployment_status', payload: statusEvent() }).commitSha).toBe(SHA);
    expect(defaults({ eventName: 'deployment_status', payload: statusEvent({ sha: null }) }).commitSha).toBe(
      'merge-sha',
    );
  });

  it.each([
    ['an object', { version: '2.4.1' }, { GITHUB_REF: 'refs/heads/main' }, '2.4.1'],
    ['a JSON string', '{"version":"3.0.0","branch":"release/3.0"}', {}, '3.0.0'],
    ['over the tag', { version: '1.4.0' }, { GITHUB_REF: 'refs/tags/main' }, '1.4.0'],
    ['without a version', {}, {}, ''],
    ['a version that is no string', { version: 3 }, {}, ''],
    ['a blank version', { version: '  ' }, {}, ''],
    ['a JSON string that is no JSON', '{version: 3.0.0}', {}, ''],
    ['a JSON string of a string', '"3.0.0"', {}, ''],
    ['a JSON string of an array', '[{"version":"1"}]', {}, ''],
    ['null', null, {}, ''],
    ['an array', [{ version: '1' }], {}, ''],
  ])('the version from a payload that is %s', (_, payload, extraEnv, version) => {
    expect(onStatus(statusEvent({ payload }), extraEnv).tag).toBe(version);
  });

  it.each([
    ['the status names one', { environment: 'Preview' }, { environment: 'Production' }, 'Production'],
    ['the status names none', { environment: 'Preview' }, { environment: '' }, 'Preview'],
    ['the status names it in no string', { environment: 'Preview' }, { environment: ['x'] }, 'Preview'],
    ['neither names one: the service default, later', { environment: null }, { environment: undefined }, ''],
  ])("the environment: %s (the status's is the newer)", (_, deployment, status, environment) => {
    expect(onStatus(statusEvent(deployment, status)).environment).toBe(environment);
  });

  const log = 'https://ci.acme-web.example/deploys/8820';
  const target = 'https://ci.acme-web.example/deploys/8820/target';
  const site = 'https://staging.acme-web.example';
  const job = 'https://github.com/acme/shop/actions/runs/77/job/5';
  it.each([
    ['log_url first', { log_url: log, target_url: target, environment_url: site }, log],
    ['target_url without log_url', { target_url: target, environment_url: site }, target],
    ['environment_url alone', { environment_url: site }, site],
    ['empty strings are absent', { log_url: '', target_url: '', environment_url: site }, site],
    ['null is absent', { log_url: null, target_url: null, environment_url: site }, site],
    ['blank is absent', { log_url: ' ', target_url: target }, target],
    ['no string is absent', { log_url: 42, target_url: { href: log }, environment_url: site }, site],
    ['none: the job that recorded it', { log_url: '', target_url: '' }, job],
  ])('the link: %s', (_, status, link) => {
    expect(onStatus(statusEvent({}, status)).link).toBe(link);
  });

  it('the user is who created the deployment; without a creator, who started the run', () => {
    const extraEnv = { GITHUB_TRIGGERING_ACTOR: 'bob' };
    expect(onStatus(statusEvent({ creator: { login: 'vercel[bot]' } }), extraEnv).user).toBe('vercel[bot]');
    expect(onStatus(statusEvent({ creator: null }), extraEnv).user).toBe('bob');
  });

  it.each([
    [
      'every part',
      { description: 'Deploy storefront 2.4.1 to staging', creator: { login: 'acme-deployer[bot]' } },
      {
        state: 'error',
        description: 'Helm upgrade failed',
        performed_via_github_app: { name: 'Acme Deployer' },
      },
      'Deploy storefront 2.4.1 to staging; error: Helm upgrade failed; GitHub deployment 6291877410 by acme-deployer[bot] via Acme Deployer',
    ],
    [
      "Vercel's: no deployment description, no app",
      { description: null, creator: { login: 'vercel[bot]' } },
      { description: 'Deployment has completed', performed_via_github_app: null },
      'success: Deployment has completed; GitHub deployment 6291877410 by vercel[bot]',
    ],
    [
      'a task of its own, the app on the deployment',
      { task: 'deploy:migrations', performed_via_github_app: { name: 'Argo CD' } },
      { description: '' },
      'success; GitHub deployment 6291877410 (deploy:migrations) via Argo CD',
    ],
    [
      'wrong types everywhere',
      { id: '6291877410', description: 5, creator: 'x', task: ['deploy'] },
      { state: 1, description: {} },
      'GitHub deployment',
    ],
  ])('the description: %s', (_, deployment, status, description) => {
    expect(onStatus(statusEvent(deployment, status)).description).toBe(description);
  });

  it('a deployment event reads the deployment alike, and the run for a link', () => {
    const payload = {
      deployment: statusEvent({ description: 'Deploy 2.6.0', payload: { version: '2.6.0' } }).deployment,
    };
    expect(defaults({ eventName: 'deployment', payload, extraEnv: { GITHUB_REF: 'refs/heads/main' } })).toEqual({
      commitSha: SHA,
      tag: '2.6.0',
      environment: 'staging',
      user: 'alice',
      branch: 'main',
      changelog: '',
      description: 'Deploy 2.6.0; GitHub deployment 6291877410',
      link: job,
    });
  });

  it.each([
    ['a push that carries a deployment key', 'push', statusEvent()],
    [
      'a deployment_status event without a deployment',
      'deployment_status',
      { deployment_status: { state: 'success' } },
    ],
    ['a deployment that is no object', 'deployment_status', { deployment: 'main' }],
  ])('%s: the defaults of any event', (_, eventName, payload) => {
    expect(defaults({ eventName, payload })).toEqual({
      commitSha: 'merge-sha',
      tag: '',
      environment: '',
      user: 'alice',
      branch: 'main',
      changelog: '',
      description: `Deploy #12 (attempt 2), job ship, on ${eventName}`,
      link: job,
    });
  });

  it.each([
    [
      'vercel-success',
      { GITHUB_REF: '' },
      { branch: '73ff055b9bdf6acd07e10478ce6ef3dc8423a932', tag: '', environment: 'Preview' },
    ],
    [
      'tag-ref-success',
      { GITHUB_REF: 'refs/tags/v1.4.0' },
      { branch: 'v1.4.0', tag: 'v1.4.0', environment: 'production' },
    ],
    [
      'payload-string',
      { GITHUB_REF: 'refs/heads/release/3.0' },
      { branch: 'release/3.0', tag: '3.0.0', environment: 'production' },
    ],
  ])('the fixture %s', (name, extraEnv, expected) => {
    const payload = JSON.parse(readFileSync(`test/fixtures/deployment-status/${name}.json`, 'utf8')) as unknown;
    expect(defaults({ eventName: 'deployment_status', payload, extraEnv })).toMatchObject(expected);
  });
});

describe('a required field without a default', () => {
  const missing = (eventName: string) => (name: 'commitSha' | 'user' | 'branch') =>
    githubDefaults({ eventName, payload: {}, env: {}, checkRunId: '' }).missing(name);

  it.each([
    ['commitSha', "is empty, and neither the event's deployment.sha nor GITHUB_SHA gives a default. Set `commit-sha`."],
    ['user', "is empty, and neither the event's deployment.creator nor GITHUB_ACTOR gives a default. Set `user`."],
    ['branch', "is empty, and neither the event's deployment.ref nor GITHUB_REF gives a default. Set `branch`."],
  ] as const)("in a deployment's run, %s names the event first", (name, text) => {
    expect(missing('deployment_status')(name)).toBe(text);
    expect(missing('deployment')(name)).toBe(text);
  });

  it('in any other run, the variable', () => {
    expect(missing('push')('branch')).toBe(
      'is empty and GITHUB_REF gives no default (not on a GitHub runner?). Set `branch`.',
    );
  });
});

describe('deploymentEventStatus', () => {
  it.each([
    [
      'deployment_status',
      { deployment_status: { state: 'success' } },
      { word: 'success', from: "the event's `deployment_status.state`" },
    ],
    [
      'deployment_status',
      { deployment_status: { state: 'waiting' } },
      { word: 'waiting', from: "the event's `deployment_status.state`" },
    ],
    [
      'deployment_status',
      { deployment_status: { state: 7 } },
      { word: '', from: "the event's `deployment_status.state`" },
    ],
    ['deployment_status', {}, { word: '', from: "the event's `deployment_status.state`" }],
    ['push', { deployment_status: { state: 'success' } }, undefined],
    ['workflow_dispatch', {}, undefined],
  ])('on %s with %o: %o', (eventName, payload, implied) => {
    expect(deploymentEventStatus({ eventName, payload }, inputNaming)).toEqual(implied);
  });

  it('a deployment event has no state yet: nothing, and how to record it', () => {
    expect(deploymentEventStatus({ eventName: 'deployment', payload: {} }, inputNaming)).toEqual({
      nothing:
        'Nothing recorded: a `deployment` event comes when a deployment is created, before it has a state. Run this workflow on `deployment_status` to record each deployment once it has succeeded or failed, or set `status` to record it here.',
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
