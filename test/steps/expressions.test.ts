// The `with:` of the README and the examples, expressions and all, evaluated as the runner evaluates
// them for each step (in-process, from src/; test/e2e/ runs the one-shot on dist/).
import { describe, expect, it } from 'vitest';
import { runJobInProcess } from '../helpers/in-process.ts';
import { useFakeService } from '../helpers/fixture.ts';

const fake = useFakeService();

/** The one-shot step of examples/one-shot.yml, pointed at the fake. */
const oneShot = (status: string) => ({
  'api-key': '${{ secrets.DEPLOY_TRACKER_API_KEY }}',
  'base-url': '${{ vars.TRACKER_URL }}',
  'artifact-name': 'shop-api',
  status,
});

describe('one-shot: status from job.status, after the deployment step', () => {
  it.each([
    ['${{ job.status }}', 'failure', 'FAILED'],
    ['${{job.status}}', 'failure', 'FAILED'],
    ['${{ job.status }}', 'success', 'SUCCEEDED'],
  ])('with: status: %s when the job status is %s in main records %s', async (status, jobStatus, sent) => {
    const { main, post } = await runJobInProcess({
      inputs: oneShot(status),
      // The deployment step before it failed (or not): job.status as the main step sees it.
      mainJobStatus: jobStatus,
      jobStatus,
      contexts: { secrets: { DEPLOY_TRACKER_API_KEY: fake.service.apiKey }, vars: { TRACKER_URL: fake.service.url } },
    });

    expect(main.inputs.status).toBe(jobStatus);
    expect(main.exitCode).toBe(0);
    expect(fake.service.requests[0]?.headers['x-api-key']).toBe(fake.service.apiKey);
    expect(fake.service.requests[0]?.body).toMatchObject({ artifactName: 'shop-api', status: sent, type: 'SIMPLE' });
    expect(fake.service.deployments.get('1')?.statuses).toEqual([sent]);
    expect(main.outputs).toEqual({ 'deployment-id': '1', 'deployment-ids': '[1]', status: sent });
    // The post step sends nothing: the deployment is already finished.
    expect(post.exitCode).toBe(0);
    expect(fake.received()).toEqual(['POST /deployment']);
  });
});

describe('the job status the main step sees', () => {
  it("is each step's own: a main step after a failed one (if: always()) starts it, post finishes it FAILED", async () => {
    const { main, post } = await runJobInProcess({
      inputs: fake.inputs(),
      mainJobStatus: 'failure',
      jobStatus: 'failure',
    });

    expect(main.inputs['job-status']).toBe('failure');
    expect(post.inputs['job-status']).toBe('failure');
    expect(fake.service.requests.map((request) => request.body)).toEqual([
      expect.objectContaining({ status: 'STARTED' }),
      { status: 'FAILED' },
    ]);
  });
});

describe('with: from other steps and the matrix', () => {
  it('takes status from steps.deploy.outcome and version from a step output', async () => {
    const { main } = await runJobInProcess({
      inputs: fake.inputs({
        status: '${{ steps.deploy.outcome }}',
        version: '${{ steps.build.outputs.version }}',
        environment: '${{ matrix.environment }}',
        description: 'Release ${{ steps.build.outputs.version }} to ${{ matrix.environment }}',
      }),
      contexts: {
        steps: { build: { outputs: { version: '2.4.0' } }, deploy: { outcome: 'failure', conclusion: 'success' } },
        matrix: { environment: 'Production-EU' },
      },
    });

    expect(main.exitCode).toBe(0);
    expect(fake.service.requests[0]?.body).toMatchObject({
      status: 'FAILED',
      version: '2.4.0',
      environment: 'Production-EU',
      description: 'Release 2.4.0 to Production-EU',
    });
  });

  it("puts the env: context in the step's environment too", async () => {
    const { main } = await runJobInProcess({
      inputs: fake.inputs({ environment: '${{ env.TARGET }}' }),
      contexts: { env: { TARGET: 'Staging', RUNNER_DEBUG: '1' } },
    });

    expect(fake.service.requests[0]?.body).toMatchObject({ environment: 'Staging' });
    // RUNNER_DEBUG from env: reached the process: @actions/core writes ::debug:: lines.
    expect(main.stdout).toMatch(/^::debug::/m);
  });
});
