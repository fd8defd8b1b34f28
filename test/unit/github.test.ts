import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { deploymentEventStatus, githubDefaults, type GitHubContext } from '../../src/ci/github.ts';
import { secretsWithheld } from '../../src/ci/github-secrets.ts';
import { ACTION_WORDS } from '../../src/action/words.ts';

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

type Overrides = Partial<GitHubContext> & { extraEnv?: Record<string, string | undefined> };

/** Each default with where it came from, as the CLI's `context` shows it; left out where there is none. */
function sourcedDefaults(overrides: Overrides) {
  const { extraEnv, ...rest } = overrides;
  return githubDefaults({ eventName: 'push', payload: {}, checkRunId: '5', ...rest, env: { ...env, ...extraEnv } })
    .values;
}

/** Each default's value ('' for none); the tag is the version's default. */
function defaults(overrides: Overrides) {
  const values = sourcedDefaults(overrides);
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

  it.each([
    ['commitSha', 'is empty and GITHUB_SHA gives no default (not on a GitHub runner?). Set `commit-sha`.'],
    ['user', 'is empty and GITHUB_ACTOR gives no default (not on a GitHub runner?). Set `user`.'],
    ['branch', 'is empty and GITHUB_REF gives no default (not on a GitHub runner?). Set `branch`.'],
  ] as const)('in any other run, %s names the variable', (name, text) => {
    expect(missing('push')(name)).toBe(text);
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
    expect(deploymentEventStatus({ eventName, payload }, ACTION_WORDS)).toEqual(implied);
  });

  it('a deployment event has no state yet: nothing, and how to record it', () => {
    expect(deploymentEventStatus({ eventName: 'deployment', payload: {} }, ACTION_WORDS)).toEqual({
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
    ['a create by Dependabot', 'create', {}, 'dependabot[bot]', DEPENDABOT],
    ['a deployment by Dependabot', 'deployment', {}, 'dependabot[bot]', DEPENDABOT],
    [
      "a workflow_run Dependabot started, whose event names Dependabot's pull request",
      'workflow_run',
      pullRequest({ full_name: 'acme/shop' }, 'acme/shop', 'dependabot[bot]'),
      'dependabot[bot]',
      undefined,
    ],
    ['a pull request event whose payload has no pull request', 'pull_request', {}, 'bob', undefined],
    ['a pull request event whose pull request is null', 'pull_request', { pull_request: null }, 'bob', undefined],
    [
      'a pull request whose base repository has no name',
      'pull_request',
      pullRequest({ full_name: 'm/s' }, ''),
      'bob',
      undefined,
    ],
    ['a pull request whose head repository has no name', 'pull_request', pullRequest({}), 'bob', undefined],
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

describe('where each default comes from (the sources the CLI’s context shows)', () => {
  const job = 'https://github.com/acme/shop/actions/runs/77/job/5';
  const attempt = 'https://github.com/acme/shop/actions/runs/77/attempts/2';
  const from = (value: string, source: string) => ({ value, source });

  it('a push to a branch: every default, each named by its variable or the event', () => {
    const compare = 'https://github.com/acme/shop/compare/a...b';
    expect(sourcedDefaults({ payload: { compare }, extraEnv: { GITHUB_TRIGGERING_ACTOR: 'bob' } })).toEqual({
      commitSha: from('merge-sha', 'GITHUB_SHA'),
      version: from('', 'the tag (GITHUB_REF)'),
      user: from('bob', 'GITHUB_TRIGGERING_ACTOR'),
      branch: from('main', 'GITHUB_REF'),
      changelog: from(compare, 'the compare URL (event)'),
      description: from('Deploy #12 (attempt 2), job ship, on push', 'the workflow run'),
      link: from(job, "the job's page"),
    });
  });

  const tag = { GITHUB_REF: 'refs/tags/v1.0.0', GITHUB_REF_NAME: 'v1.0.0' };
  const pullRequest = { GITHUB_REF: 'refs/pull/3/merge', GITHUB_REF_NAME: '3/merge' };
  it.each<[string, Overrides, Record<string, unknown>]>([
    [
      'a tag push from a branch',
      { payload: { base_ref: 'refs/heads/release' }, extraEnv: tag },
      { version: from('v1.0.0', 'the tag (GITHUB_REF)'), branch: from('release', 'base_ref (event)') },
    ],
    ['a tag push from no known branch', { extraEnv: tag }, { branch: from('v1.0.0', 'GITHUB_REF_NAME') }],
    [
      'a tag push without GITHUB_REF_NAME',
      { extraEnv: { ...tag, GITHUB_REF_NAME: undefined } },
      { branch: from('v1.0.0', 'GITHUB_REF') },
    ],
    [
      'a pull request',
      {
        eventName: 'pull_request',
        payload: { pull_request: { head: { sha: 'head-sha', ref: 'feat' }, html_url: 'https://x.example/pull/3' } },
        extraEnv: pullRequest,
      },
      {
        commitSha: from('head-sha', "the pull request's head (event)"),
        branch: from('feat', "the pull request's head (event)"),
        changelog: from('https://x.example/pull/3', "the pull request's URL (event)"),
      },
    ],
    [
      'a pull request without an event',
      { eventName: 'pull_request', extraEnv: { ...pullRequest, GITHUB_HEAD_REF: 'feat-2' } },
      { branch: from('feat-2', 'GITHUB_HEAD_REF') },
    ],
    [
      'a pull request without an event or GITHUB_HEAD_REF',
      { eventName: 'pull_request', extraEnv: pullRequest },
      { branch: from('3/merge', 'GITHUB_REF_NAME') },
    ],
    [
      'a pull request with GITHUB_REF alone',
      { eventName: 'pull_request', extraEnv: { ...pullRequest, GITHUB_REF_NAME: undefined } },
      { branch: from('refs/pull/3/merge', 'GITHUB_REF') },
    ],
    [
      'a workflow_run',
      { eventName: 'workflow_run', payload: { workflow_run: { head_sha: 'run-sha', head_branch: 'dev' } } },
      {
        commitSha: from('run-sha', 'workflow_run.head_sha (event)'),
        branch: from('dev', 'workflow_run.head_branch (event)'),
        changelog: undefined,
      },
    ],
    [
      'a release',
      { eventName: 'release', payload: { release: { html_url: 'https://x.example/releases/v1' } } },
      { changelog: from('https://x.example/releases/v1', "the release's URL (event)") },
    ],
  ])('%s', (_, overrides, expected) => {
    expect(sourcedDefaults(overrides)).toMatchObject(expected);
  });

  it.each<[string, Overrides, string]>([
    ['a push', {}, 'push'],
    ['a workflow_dispatch', { eventName: 'workflow_dispatch' }, 'workflow_dispatch'],
    ['a schedule', { eventName: 'schedule' }, 'schedule'],
  ])('%s takes nothing from a pull request, a workflow run or a release its event may carry', (_, overrides, on) => {
    const payload = {
      pull_request: { head: { sha: 'head-sha', ref: 'feat' }, html_url: 'https://x.example/pull/3' },
      workflow_run: { head_sha: 'run-sha', head_branch: 'dev' },
      release: { html_url: 'https://x.example/releases/v1' },
    };
    const values = sourcedDefaults({ ...overrides, payload, extraEnv: { GITHUB_HEAD_REF: 'feat-2' } });
    expect(values).toMatchObject({ commitSha: from('merge-sha', 'GITHUB_SHA'), branch: from('main', 'GITHUB_REF') });
    expect(values.description?.value).toBe(`Deploy #12 (attempt 2), job ship, on ${on}`);
    if (on !== 'push') expect(values.changelog).toBeUndefined();
  });

  it.each<[string, Overrides, ReturnType<typeof from> | undefined]>([
    ['no check run id (a `run:` step)', { checkRunId: undefined }, from(attempt, "the run attempt's page")],
    ['an empty check run id (older GHES)', { checkRunId: '' }, from(attempt, "the run attempt's page")],
    ['a check run id with more after its digits', { checkRunId: '5x' }, from(attempt, "the run attempt's page")],
    ['a check run id with more before its digits', { checkRunId: 'x5' }, from(attempt, "the run attempt's page")],
    [
      'no run attempt',
      { checkRunId: undefined, extraEnv: { GITHUB_RUN_ATTEMPT: undefined } },
      from('https://github.com/acme/shop/actions/runs/77/attempts/1', "the run attempt's page"),
    ],
    ['no server URL: github.com', { extraEnv: { GITHUB_SERVER_URL: undefined } }, from(job, "the job's page")],
    [
      'a server URL with trailing slashes',
      { extraEnv: { GITHUB_SERVER_URL: 'https://ghe.acme.internal//' } },
      from('https://ghe.acme.internal/acme/shop/actions/runs/77/job/5', "the job's page"),
    ],
    ['no repository', { extraEnv: { GITHUB_REPOSITORY: undefined } }, undefined],
    ['no run id', { extraEnv: { GITHUB_RUN_ID: undefined } }, undefined],
  ])('the link with %s', (_, overrides, link) => {
    expect(sourcedDefaults(overrides).link).toEqual(link);
  });

  it("a deployment_status event: the deployment's and its status's, each named", () => {
    const payload = statusEvent(
      { creator: { login: 'vercel[bot]' }, payload: { version: '2.4.1' }, environment: 'Preview' },
      { environment: '', log_url: 'https://ci.example/8820' },
    );
    expect(sourcedDefaults({ eventName: 'deployment_status', payload })).toEqual({
      commitSha: from(SHA, 'deployment.sha (event)'),
      version: from('2.4.1', "the deployment's payload (event)"),
      environment: from('Preview', 'deployment.environment (event)'),
      user: from('vercel[bot]', 'deployment.creator (event)'),
      branch: from('main', 'deployment.ref (event)'),
      changelog: undefined,
      description: from(
        'success; GitHub deployment 6291877410 by vercel[bot]',
        'the deployment and its status (event)',
      ),
      link: from('https://ci.example/8820', "the deployment status's URL (event)"),
    });
  });

  it("a status's own environment and a tag", () => {
    const values = sourcedDefaults({ eventName: 'deployment_status', payload: statusEvent({ ref: 'refs/tags/v2' }) });
    expect(values).toMatchObject({
      environment: from('staging', 'deployment_status.environment (event)'),
      branch: from('v2', 'the tag (deployment.ref, event)'),
      version: from('v2', 'the tag (deployment.ref, event)'),
    });
  });

  const HEX_40 = 'abcdef0123456789abcdef0123456789abcdef01';
  const branch = (ref: string) => from(ref, 'deployment.ref (event)');
  const commit = (ref: string) => from(ref, 'deployment.ref (event: a commit, no branch)');
  it.each([
    [
      'a hex branch name GITHUB_REF names',
      SHA.slice(0, 8),
      SHA,
      `refs/heads/${SHA.slice(0, 8)}`,
      branch(SHA.slice(0, 8)),
    ],
    ['the commit', SHA.slice(0, 8), SHA, '', commit(SHA)],
    ['a short hex name, where the event has no sha', 'cafe123', '', '', branch('cafe123')],
    ['39 hex digits, where the event has no sha', HEX_40.slice(0, 39), '', '', branch(HEX_40.slice(0, 39))],
    ['40 hex digits, where the event has no sha', HEX_40, '', '', commit(HEX_40)],
    ['41 hex digits, where the event has no sha', `${HEX_40}a`, '', '', commit(`${HEX_40}a`)],
    ['40 hex digits after a letter', `x${HEX_40}`, '', '', branch(`x${HEX_40}`)],
    ['40 hex digits before a suffix', `${HEX_40}-fix`, '', '', branch(`${HEX_40}-fix`)],
    [
      'a long name that is no hex',
      `release/${HEX_40}`.replace(/a/g, 'z'),
      '',
      '',
      branch(`release/${HEX_40}`.replace(/a/g, 'z')),
    ],
  ])('deployment.ref is %s', (_, ref, sha, GITHUB_REF, expected) => {
    const payload = statusEvent({ ref, sha });
    expect(sourcedDefaults({ eventName: 'deployment_status', payload, extraEnv: { GITHUB_REF } }).branch).toEqual(
      expected,
    );
  });

  it('blank words of the deployment or its status count as none, in the description too', () => {
    const app = { performed_via_github_app: { name: ' ' } };
    const payload = statusEvent(
      { description: ' ', creator: { login: ' ' }, environment: 'Preview', ref: ' ', task: '\t', ...app },
      { environment: '  ', description: 'done', ...app },
    );
    expect(sourcedDefaults({ eventName: 'deployment_status', payload })).toMatchObject({
      environment: from('Preview', 'deployment.environment (event)'),
      user: from('alice', 'GITHUB_ACTOR'),
      branch: from('main', 'GITHUB_REF'),
      description: from('success: done; GitHub deployment 6291877410', 'the deployment and its status (event)'),
    });
    const blankState = statusEvent({}, { state: ' ', description: 'done' });
    expect(sourcedDefaults({ eventName: 'deployment_status', payload: blankState }).description?.value).toBe(
      'GitHub deployment 6291877410',
    );
  });

  it.each(['refs/tags/ ', 'refs/heads/ '])('a ref of a blank name (%j) names no branch', (ref) => {
    const values = sourcedDefaults({ eventName: 'deployment_status', payload: statusEvent({ ref }) });
    expect(values).toMatchObject({ branch: from('main', 'GITHUB_REF'), version: undefined });
  });
});
