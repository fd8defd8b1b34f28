// The built dist/ as the runner runs it: one-shot, start and finish across jobs, dry run.
import { describe, expect, it } from 'vitest';
import { useFakeService } from '../helpers/fixture.ts';
import { runJob } from '../helpers/run-action.ts';

const fake = useFakeService();

describe('modes', () => {
  it('one-shot: with: status: ${{job.status}} after a failed step records FAILED, and post sends nothing', async () => {
    const { main, post } = await runJob({
      inputs: {
        'api-key': '${{ secrets.DEPLOY_TRACKER_API_KEY }}',
        'base-url': fake.service.url,
        'artifact-name': 'shop-api',
        status: '${{job.status}}',
      },
      mainJobStatus: 'failure',
      jobStatus: 'failure',
      contexts: { secrets: { DEPLOY_TRACKER_API_KEY: fake.service.apiKey } },
    });

    expect(fake.service.requests[0]?.body).toMatchObject({ artifactName: 'shop-api', status: 'FAILED' });
    expect(main.outputs).toEqual({ 'deployment-id': '1', 'deployment-ids': '[1]', status: 'FAILED' });
    expect(post.logLines).toEqual([
      'Nothing to finish: the main step was given status FAILED, so the job status is not reported.',
    ]);
    expect(fake.received()).toEqual(['POST /deployment']);
  });

  it('starts in one job and finishes in another from its job status, the ids passed as JSON', async () => {
    const start = await runJob({ inputs: fake.inputs({ 'artifact-id': '7, 8', status: 'STARTED' }) });
    const finish = await runJob({
      inputs: {
        'api-key': fake.service.apiKey,
        'base-url': fake.service.url,
        'deployment-id': '${{ needs.start.outputs.deployment-ids }}',
      },
      contexts: { needs: { start: { outputs: start.main.outputs, result: 'success' } } },
      jobStatus: 'failure',
    });

    // In the artifacts' order, whichever create reached the fake first (it numbers them as they come).
    const [first, second] = [7, 8].map(
      (artifactId) => [...fake.service.deployments.values()].find((d) => d.body.artifactId === artifactId)?.id,
    );
    expect(start.main.outputs['deployment-ids']).toBe(`[${first},${second}]`);
    expect(finish.main.logLines).toEqual([
      `Deployments ${first}, ${second} will be set from the job status when the job ends.`,
    ]);
    expect(fake.received().slice(2).sort()).toEqual(['PATCH /deployment/1', 'PATCH /deployment/2']);
    expect(fake.service.deployments.get('2')?.statuses).toEqual(['STARTED', 'FAILED']);
  });

  it('dry run: prints the create in main and the finish in post, and sends nothing', async () => {
    const { main, post } = await runJob({ inputs: fake.inputs({ 'dry-run': 'true' }), jobStatus: 'failure' });

    expect(fake.service.requests).toEqual([]);
    expect(main.logLines.slice(0, 7)).toEqual([
      'Dry run: would send',
      `POST ${fake.service.url}/deployment`,
      'content-type: application/json',
      'accept: application/json',
      'accept-encoding: identity',
      'x-api-key: ***',
      '{',
    ]);
    expect(main.outputs).toEqual({ 'deployment-id': '', 'deployment-ids': '[]', status: 'STARTED' });
    expect(post.logLines).toContain(`PATCH ${fake.service.url}/deployment/{id}`);
    expect(post.logLines).toContain('  "status": "FAILED"');
    expect(post.logLines.at(-1)).toBe('Dry run: nothing was sent.');
  });
});
