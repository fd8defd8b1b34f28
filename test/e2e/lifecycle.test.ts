// The built dist/ as the runner runs it, one case per behaviour class; the tables of each class run
// in-process in test/steps/. Here: the main flow, and the job status each step sees.
import { describe, expect, it } from 'vitest';
import { useFakeService } from '../helpers/fixture.ts';
import { DEFAULT_CHECK_RUN_ID, DEFAULT_ENV, runJob } from '../helpers/run-action.ts';

const fake = useFakeService();
const SHA = DEFAULT_ENV.GITHUB_SHA as string;
const compare = 'https://github.com/acme/shop/compare/0123456789ab...a1b2c3d4e5f6';

describe('main flow: STARTED in main, finished in post', () => {
  it('records a push, finishes it SUCCEEDED, and says so in outputs, log and summary', async () => {
    const { main, post } = await runJob({
      inputs: fake.inputs(),
      event: { name: 'push', payload: { ref: 'refs/heads/main', compare } },
    });

    expect([main.exitCode, post.exitCode]).toEqual([0, 0]);
    expect(fake.received()).toEqual(['POST /deployment', 'PATCH /deployment/1']);
    expect(fake.service.requests[0]?.body).toEqual({
      artifactId: 42,
      version: SHA,
      environment: 'Production',
      commitSha: SHA,
      user: 'alice',
      branch: 'main',
      status: 'STARTED',
      changelog: compare,
      description: 'Deploy #57 (attempt 1), job deploy, on push',
      link: `https://github.com/acme/shop/actions/runs/9100/job/${DEFAULT_CHECK_RUN_ID}`,
      type: 'SIMPLE',
    });
    expect(fake.service.requests[0]?.headers['x-api-key']).toBe(fake.service.apiKey);
    expect(fake.service.deployments.get('1')?.statuses).toEqual(['STARTED', 'SUCCEEDED']);
    expect(main.outputs).toEqual({ 'deployment-id': '1', 'deployment-ids': '[1]', status: 'STARTED' });
    expect(JSON.parse(main.state.handoff ?? '')).toMatchObject({ kind: 'finish', ids: [1] });
    expect(main.logLines).toEqual([`Recorded deployment 1: artifact 42 version ${SHA} to Production (STARTED).`]);
    expect(main.summary).toMatch(/^<h3>Deployment recorded<\/h3>\n<table>.*<td>42<\/td><td>Production<\/td>/);
    expect(post.logLines).toEqual([expect.stringMatching(/^Deployment 1 set to SUCCEEDED after \d+s\.$/)]);
    expect(post.summary).toMatch(
      /^<h3>Deployment succeeded<\/h3>\n<p>Deployment 1 set to SUCCEEDED after \d+s\.<\/p>\n$/,
    );
    expect(main.commands.map((command) => command.command)).toEqual(['add-mask']);
  });

  it('after a failed step (if: always()): main starts it, post finishes it FAILED', async () => {
    const { main, post } = await runJob({ inputs: fake.inputs(), mainJobStatus: 'failure', jobStatus: 'failure' });

    expect(main.inputs['job-status']).toBe('failure');
    expect(fake.service.requests.map((request) => request.body)).toEqual([
      expect.objectContaining({ status: 'STARTED' }),
      { status: 'FAILED' },
    ]);
    expect(post.exitCode).toBe(0);
  });
});
