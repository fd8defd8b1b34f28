// The main flow, step by step (in-process, from src/), against the fake service: defaults for every
// event, the job status, ids and addresses, and what the post step does when main recorded nothing.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CHECK_RUN_ID, DEFAULT_ENV } from '../helpers/run-action.ts';
import { runJobInProcess, runStepInProcess } from '../helpers/in-process.ts';
import { useFakeService } from '../helpers/fixture.ts';

const fake = useFakeService();
const { inputs } = fake;

const SHA = DEFAULT_ENV.GITHUB_SHA as string;
const JOB_LINK = `https://github.com/acme/shop/actions/runs/9100/job/${DEFAULT_CHECK_RUN_ID}`;

const pushEvent = {
  name: 'push',
  payload: { ref: 'refs/heads/main', compare: 'https://github.com/acme/shop/compare/0123456789ab...a1b2c3d4e5f6' },
};

describe('main flow: STARTED in main, finished in post', () => {
  it('records a push to a branch and finishes it SUCCEEDED when the job succeeds', async () => {
    const { main, post } = await runJobInProcess({ inputs: inputs(), event: pushEvent, jobStatus: 'success' });

    expect(main.exitCode).toBe(0);
    expect(post.exitCode).toBe(0);
    expect(fake.service.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /deployment',
      'PATCH /deployment/1',
    ]);
    expect(fake.service.requests[0]?.body).toEqual({
      artifactId: 42,
      version: SHA,
      environment: 'Production',
      commitSha: SHA,
      user: 'alice',
      branch: 'main',
      status: 'STARTED',
      changelog: pushEvent.payload.compare,
      description: 'Deploy #57 (attempt 1), job deploy, on push',
      link: JOB_LINK,
      type: 'SIMPLE',
    });
    expect(fake.service.requests[0]?.headers['x-api-key']).toBe(fake.service.apiKey);
    expect(fake.service.requests[0]?.headers['content-type']).toBe('application/json');
    expect(fake.service.requests[1]?.body).toEqual({ status: 'SUCCEEDED' });
    expect(fake.service.deployments.get('1')?.statuses).toEqual(['STARTED', 'SUCCEEDED']);
    expect(main.outputs).toEqual({ 'deployment-id': '1', 'deployment-ids': '[1]', status: 'STARTED' });
    expect(JSON.parse(main.state.handoff ?? '')).toMatchObject({ kind: 'finish', ids: [1] });
    expect(post.logLines.some((line) => /^Deployment 1 set to SUCCEEDED after \d+s\.$/.test(line))).toBe(true);
  });

  it.each([
    ['failure', 'FAILED'],
    ['cancelled', 'FAILED'],
  ])('finishes the deployment FAILED when the job status is %s', async (jobStatus, expected) => {
    const { post } = await runJobInProcess({ inputs: inputs(), event: pushEvent, jobStatus });

    expect(post.exitCode).toBe(0);
    expect(fake.service.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /deployment',
      'PATCH /deployment/1',
    ]);
    expect(fake.service.requests[1]?.body).toEqual({ status: expected });
  });

  it('leaves the deployment as it is when the job status was not evaluated', async () => {
    const { post } = await runJobInProcess({ inputs: inputs(), event: pushEvent, jobStatus: '${{ job.status }}' });

    expect(post.exitCode).toBe(0);
    expect(fake.service.requests.map((r) => r.method)).toEqual(['POST']);
    expect(post.warnings).toEqual([
      "The job status is unknown ('${{ job.status }}'), so deployment 1 is left as it is. The `job-status` input must keep its default, `${{ job.status }}`.",
    ]);
  });
});

describe('defaults from the GitHub context', () => {
  it('on a tag push: the tag is the version and base_ref the branch', async () => {
    const event = {
      name: 'push',
      payload: {
        ref: 'refs/tags/v2.4.0',
        base_ref: 'refs/heads/release',
        compare: 'https://github.com/acme/shop/compare/v2.3.0...v2.4.0',
      },
    };
    const env = { GITHUB_REF: 'refs/tags/v2.4.0', GITHUB_REF_NAME: 'v2.4.0', GITHUB_REF_TYPE: 'tag' };

    await runJobInProcess({ inputs: inputs(), event, env });

    expect(fake.service.requests[0]?.body).toMatchObject({
      version: 'v2.4.0',
      branch: 'release',
      commitSha: SHA,
      changelog: event.payload.compare,
    });
  });

  it('on a tag push without base_ref: the branch is the tag name', async () => {
    const env = { GITHUB_REF: 'refs/tags/v2.4.0', GITHUB_REF_NAME: 'v2.4.0', GITHUB_REF_TYPE: 'tag' };

    await runJobInProcess({
      inputs: inputs(),
      event: { name: 'push', payload: { ref: 'refs/tags/v2.4.0', base_ref: null } },
      env,
    });

    expect(fake.service.requests[0]?.body).toMatchObject({ version: 'v2.4.0', branch: 'v2.4.0' });
  });

  it('on pull_request: the head commit and head branch, not the merge commit', async () => {
    const headSha = 'fedcba9876543210fedcba9876543210fedcba98';
    const event = {
      name: 'pull_request',
      payload: {
        pull_request: {
          number: 7,
          html_url: 'https://github.com/acme/shop/pull/7',
          head: { sha: headSha, ref: 'feature/login' },
        },
      },
    };
    const env = {
      GITHUB_REF: 'refs/pull/7/merge',
      GITHUB_REF_NAME: '7/merge',
      GITHUB_HEAD_REF: 'feature/login',
      GITHUB_SHA: '1111111111111111111111111111111111111111',
    };

    await runJobInProcess({ inputs: inputs(), event, env });

    expect(fake.service.requests[0]?.body).toMatchObject({
      commitSha: headSha,
      version: headSha,
      branch: 'feature/login',
      changelog: 'https://github.com/acme/shop/pull/7',
      description: 'Deploy #57 (attempt 1), job deploy, on pull_request',
    });
  });

  it('on workflow_run: the triggering run head commit and branch', async () => {
    const event = {
      name: 'workflow_run',
      payload: { workflow_run: { head_sha: '2222222222222222222222222222222222222222', head_branch: 'develop' } },
    };

    await runJobInProcess({ inputs: inputs(), event });

    const body = fake.service.requests[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({ commitSha: '2222222222222222222222222222222222222222', branch: 'develop' });
    expect(body).not.toHaveProperty('changelog');
  });

  it('on GHES without a job id: the server URL and the run attempt link', async () => {
    const env = {
      GITHUB_SERVER_URL: 'https://github.acme.internal',
      GITHUB_RUN_ATTEMPT: '3',
      GITHUB_TRIGGERING_ACTOR: 'bob',
    };

    await runJobInProcess({ inputs: inputs(), event: pushEvent, env, checkRunId: '' });

    expect(fake.service.requests[0]?.body).toMatchObject({
      link: 'https://github.acme.internal/acme/shop/actions/runs/9100/attempts/3',
      user: 'bob',
      description: 'Deploy #57 (attempt 3), job deploy, on push',
    });
  });

  it('explicit inputs win over every default', async () => {
    const given = {
      'artifact-id': 'web-frontend',
      version: '1.2.3',
      environment: 'Staging',
      'commit-sha': 'abcdef0',
      user: 'deploy-bot',
      branch: 'hotfix',
      changelog: 'Fixed the login page',
      description: 'Manual deploy',
      link: 'https://ci.example.com/job/1',
      type: 'simple',
    };

    await runJobInProcess({ inputs: inputs(given), event: pushEvent });

    expect(fake.service.requests[0]?.body).toEqual({
      artifactId: 'web-frontend',
      version: '1.2.3',
      environment: 'Staging',
      commitSha: 'abcdef0',
      user: 'deploy-bot',
      branch: 'hotfix',
      status: 'STARTED',
      changelog: 'Fixed the login page',
      description: 'Manual deploy',
      link: 'https://ci.example.com/job/1',
      type: 'SIMPLE',
    });
  });

  it('sends an artifact name as artifactName', async () => {
    await runJobInProcess({
      inputs: { 'api-key': fake.service.apiKey, 'base-url': fake.service.url, 'artifact-name': 'shop-api' },
      event: pushEvent,
    });

    const body = fake.service.requests[0]?.body as Record<string, unknown>;
    expect(body.artifactName).toBe('shop-api');
    expect(body).not.toHaveProperty('artifactId');
  });
});

describe('ids and addresses', () => {
  it('round-trips UUID ids to the PATCH path', async () => {
    await fake.restart({ ids: 'uuid' });

    const { main } = await runJobInProcess({ inputs: inputs(), event: pushEvent });

    const id = main.outputs['deployment-id'] as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(main.outputs['deployment-ids']).toBe(JSON.stringify([id]));
    expect(fake.service.requests[1]?.path).toBe(`/deployment/${id}`);
    expect(fake.service.deployments.get(id)?.statuses).toEqual(['STARTED', 'SUCCEEDED']);
  });

  it.each(['', '/'])('keeps a base URL path prefix (trailing "%s")', async (trailing) => {
    await fake.restart({ prefix: '/api/v1' });

    await runJobInProcess({ inputs: inputs({ 'base-url': `${fake.service.url}${trailing}` }), event: pushEvent });

    expect(fake.service.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /api/v1/deployment',
      'PATCH /api/v1/deployment/1',
    ]);
  });
});

describe('when the main step records nothing', () => {
  it('post sends nothing after the service refused the create', async () => {
    fake.service.fail('POST', { status: 500, body: { detail: 'database unavailable' } });

    const { main, post } = await runJobInProcess({ inputs: inputs(), event: pushEvent });

    expect(main.exitCode).toBe(0);
    expect(main.warnings[0]).toMatch(/^Could not record the deployment of artifact 42: HTTP 500: database unavailable/);
    expect(post.exitCode).toBe(0);
    expect(fake.service.requests.map((r) => r.method)).toEqual(['POST']);
    expect(post.logLines).toContain('Nothing to finish: the main step could not record a deployment.');
  });

  it('fails naming the inputs when no artifact is given, and sends nothing', async () => {
    const { main, post } = await runJobInProcess({
      inputs: { 'api-key': fake.service.apiKey, 'base-url': fake.service.url },
      event: pushEvent,
    });

    expect(main.exitCode).toBe(1);
    expect(main.errors).toHaveLength(1);
    expect(main.errors[0]).toMatch(/^Input 'artifact-id' or 'artifact-name' must be set/);
    expect(post.exitCode).toBe(0);
    expect(post.logLines).toContain('Nothing to finish: the main step stopped on a configuration error.');
    expect(fake.service.requests).toEqual([]);
  });

  it('post says why when the main step saved no state at all', async () => {
    const post = await runStepInProcess('post', { inputs: inputs() }, {});

    expect(post.exitCode).toBe(0);
    expect(post.logLines).toContain('Nothing to finish: the main step recorded no deployment (see its log).');
    expect(fake.service.requests).toEqual([]);
  });
});
