// Every way teams deploy (in-process, from src/): one-shot, start/finish across jobs, several
// artifacts, dry run, summary.
import { describe, expect, it } from 'vitest';
import { runJobInProcess } from '../helpers/in-process.ts';
import { useFakeService } from '../helpers/fixture.ts';

/** The job's duration is real time; tests compare everything around it. */
const anyDuration = (text: string) => text.replace(/ after \d+s\./g, ' after Ns.');

const fake = useFakeService();
const { inputs } = fake;

describe('status: create in one request', () => {
  it.each([
    ['SUCCEEDED', 'SUCCEEDED'],
    ['succeeded', 'SUCCEEDED'],
    ['success', 'SUCCEEDED'],
    ['FAILED', 'FAILED'],
    ['failure', 'FAILED'],
    ['Cancelled', 'FAILED'],
  ])('status %s records a finished %s deployment and post sends nothing', async (given, sent) => {
    const { main, post } = await runJobInProcess({ inputs: inputs({ status: given }), jobStatus: 'failure' });

    expect(main.exitCode).toBe(0);
    expect(fake.received()).toEqual(['POST /deployment']);
    expect(fake.service.requests[0]?.body).toMatchObject({ artifactId: 42, status: sent });
    expect(main.outputs).toEqual({ 'deployment-id': '1', 'deployment-ids': '[1]', status: sent });
    expect(post.exitCode).toBe(0);
    expect(post.logLines).toEqual([
      `Nothing to finish: the main step was given status ${sent}, so the job status is not reported.`,
    ]);
  });

  it.each(['STARTED', 'started'])('status %s creates a deployment and leaves it open', async (given) => {
    const { main, post } = await runJobInProcess({ inputs: inputs({ status: given }) });

    expect(fake.received()).toEqual(['POST /deployment']);
    expect(fake.service.requests[0]?.body).toMatchObject({ status: 'STARTED' });
    expect(main.outputs.status).toBe('STARTED');
    expect(fake.service.deployments.get('1')?.statuses).toEqual(['STARTED']);
    expect(post.logLines).toEqual([
      'Nothing to finish: the main step was given status STARTED, so the job status is not reported.',
    ]);
  });
});

describe('deployment-id: update instead of create', () => {
  it('starts in one job and finishes in another, the id passed as an output', async () => {
    const start = await runJobInProcess({ inputs: inputs({ status: 'STARTED' }) });
    const id = start.main.outputs['deployment-id'] as string;

    const finish = await runJobInProcess({
      inputs: { 'api-key': fake.service.apiKey, 'base-url': fake.service.url, 'deployment-id': id, status: 'success' },
    });

    expect(finish.main.exitCode).toBe(0);
    expect(fake.received()).toEqual(['POST /deployment', 'PATCH /deployment/1']);
    expect(fake.service.requests[1]?.body).toEqual({ status: 'SUCCEEDED' });
    expect(finish.main.outputs).toEqual({ 'deployment-id': '1', 'deployment-ids': '["1"]', status: 'SUCCEEDED' });
    expect(finish.main.logLines).toContain('Deployment 1 set to SUCCEEDED.');
    expect(finish.post.logLines).toEqual([
      'Nothing to finish: the main step already set the deployment status to SUCCEEDED.',
    ]);
    expect(fake.service.deployments.get('1')?.statuses).toEqual(['STARTED', 'SUCCEEDED']);
  });

  it('without status, the post step sets it from the job status', async () => {
    await runJobInProcess({ inputs: inputs({ status: 'STARTED' }) });

    const finish = await runJobInProcess({
      inputs: { 'api-key': fake.service.apiKey, 'base-url': fake.service.url, 'deployment-id': '1' },
      jobStatus: 'failure',
    });

    expect(finish.main.logLines).toEqual(['Deployment 1 will be set from the job status when the job ends.']);
    expect(finish.main.outputs).toEqual({ 'deployment-id': '1', 'deployment-ids': '["1"]', status: '' });
    expect(fake.received()).toEqual(['POST /deployment', 'PATCH /deployment/1']);
    expect(fake.service.requests[1]?.body).toEqual({ status: 'FAILED' });
    expect(finish.post.logLines.map(anyDuration)).toContain('Deployment 1 set to FAILED after Ns.');
  });

  it('takes the deployment-ids output of an earlier job (a JSON array)', async () => {
    const start = await runJobInProcess({ inputs: inputs({ 'artifact-id': '7, 8', status: 'STARTED' }) });

    await runJobInProcess({
      inputs: {
        'api-key': fake.service.apiKey,
        'base-url': fake.service.url,
        'deployment-id': start.main.outputs['deployment-ids'] as string,
        status: 'FAILED',
      },
    });

    // (The fake numbers the deployments as their creates arrive, in either order.)
    expect((JSON.parse(start.main.outputs['deployment-ids'] as string) as number[]).toSorted()).toEqual([1, 2]);
    expect(fake.received().slice(2).sort()).toEqual(['PATCH /deployment/1', 'PATCH /deployment/2']);
    expect(fake.service.deployments.get('2')?.statuses).toEqual(['STARTED', 'FAILED']);
  });

  it("reports the service's answer for an unknown id", async () => {
    const { main } = await runJobInProcess({
      inputs: {
        'api-key': fake.service.apiKey,
        'base-url': fake.service.url,
        'deployment-id': '999',
        status: 'SUCCEEDED',
      },
    });

    expect(main.exitCode).toBe(0);
    expect(fake.received()).toEqual(['PATCH /deployment/999']);
    expect(main.warnings).toEqual([
      'Could not set deployment 999 to SUCCEEDED: HTTP 404: Deployment 999 not found\nThe step goes on (fail-on-error is false).',
    ]);
    expect(main.outputs).toEqual({ 'deployment-id': '', 'deployment-ids': '[]', status: '' });
    expect(main.summary).toContain('<h3>0 of 1 deployments updated</h3>');
  });
});

describe('several artifacts', () => {
  it('records one deployment per artifact, two by id and one by name, and finishes them all', async () => {
    const { main, post } = await runJobInProcess({
      inputs: inputs({ 'artifact-id': '42\n43', 'artifact-name': 'shop-web' }),
      jobStatus: 'success',
    });

    const creates = fake.service.requests
      .filter((r) => r.method === 'POST')
      .map((r) => r.body as Record<string, unknown>);
    expect(creates.map((body) => body.artifactId ?? body.artifactName).sort()).toEqual([42, 43, 'shop-web']);
    expect(new Set(creates.map((body) => body.commitSha))).toEqual(new Set([creates[0]?.commitSha]));
    // In the artifacts' order, whichever create reached the fake first (it numbers them as they come).
    const ids = [
      (body: Record<string, unknown>) => body.artifactId === 42,
      (body: Record<string, unknown>) => body.artifactId === 43,
      (body: Record<string, unknown>) => body.artifactName === 'shop-web',
    ].map((isIt) => Number([...fake.service.deployments.values()].find((d) => isIt(d.body))?.id));
    expect(ids.toSorted()).toEqual([1, 2, 3]);
    expect(JSON.parse(main.outputs['deployment-ids'] as string)).toEqual(ids);
    expect(main.outputs['deployment-id']).toBe(String(ids[0]));
    expect(post.logLines.map(anyDuration)).toContain(`Deployments ${ids.join(', ')} set to SUCCEEDED after Ns.`);
    for (const id of ['1', '2', '3'])
      expect(fake.service.deployments.get(id)?.statuses).toEqual(['STARTED', 'SUCCEEDED']);
  });

  it('a failure on one does not stop the others', async () => {
    fake.service.fail('POST', { status: 500, body: { detail: 'artifact locked' } });

    const { main, post } = await runJobInProcess({ inputs: inputs({ 'artifact-id': '42,43' }), jobStatus: 'failure' });

    expect(main.exitCode).toBe(0);
    expect(main.warnings).toHaveLength(1);
    expect(main.warnings[0]).toMatch(/^Could not record the deployment of artifact 4[23]: HTTP 500: artifact locked/);
    expect(main.outputs).toEqual({ 'deployment-id': '1', 'deployment-ids': '[1]', status: 'STARTED' });
    expect(fake.received().filter((m) => m.startsWith('PATCH'))).toEqual(['PATCH /deployment/1']);
    expect(post.logLines.map(anyDuration)).toContain('Deployment 1 set to FAILED after Ns.');
  });

  it('with fail-on-error, the step fails but the other deployments are still recorded', async () => {
    fake.service.fail('POST', { status: 500, body: { detail: 'artifact locked' } });

    const { main } = await runJobInProcess({ inputs: inputs({ 'artifact-id': '42,43', 'fail-on-error': 'true' }) });

    expect(main.exitCode).toBe(1);
    expect(fake.service.deployments.size).toBe(1);
  });
});

describe('dry run', () => {
  it('prints the create and the finish it would send, in main and in post, and sends nothing', async () => {
    const { main, post } = await runJobInProcess({ inputs: inputs({ 'dry-run': 'true' }), jobStatus: 'failure' });

    expect(fake.service.requests).toEqual([]);
    expect(main.exitCode).toBe(0);
    const printed = main.stdout.slice(main.stdout.indexOf('Dry run: would send'));
    expect(printed).toMatch(
      new RegExp(
        `^Dry run: would send\\nPOST ${fake.service.url}/deployment\\ncontent-type: application/json\\naccept: application/json\\naccept-encoding: identity\\nx-api-key: \\*\\*\\*\\n\\{\\n  "artifactId": 42,`,
      ),
    );
    expect(main.logLines).toContain('Dry run: nothing was sent.');
    expect(main.outputs).toEqual({ 'deployment-id': '', 'deployment-ids': '[]', status: 'STARTED' });
    expect(post.exitCode).toBe(0);
    expect(post.logLines).toContain(`PATCH ${fake.service.url}/deployment/{id}`);
    expect(post.logLines).toContain('({id} stands for the id of the deployment the main step would have created.)');
    expect(post.stdout).toContain('{\n  "status": "FAILED"\n}');
    expect(post.logLines).toContain('Dry run: nothing was sent.');
    for (const step of [main, post]) expect(step.stdout.split(fake.service.apiKey)).toHaveLength(2); // only ::add-mask::
  });

  it('prints the updates for deployment-id, in main with status and in post without', async () => {
    const withStatus = await runJobInProcess({
      inputs: {
        'api-key': fake.service.apiKey,
        'base-url': fake.service.url,
        'deployment-id': '5',
        status: 'SUCCEEDED',
        'dry-run': 'true',
      },
    });
    const withoutStatus = await runJobInProcess({
      inputs: { 'api-key': fake.service.apiKey, 'base-url': fake.service.url, 'deployment-id': '6', 'dry-run': 'true' },
    });

    expect(fake.service.requests).toEqual([]);
    expect(withStatus.main.stdout).toContain(`PATCH ${fake.service.url}/deployment/5`);
    expect(withStatus.main.outputs.status).toBe('SUCCEEDED');
    expect(withoutStatus.main.logLines).toContain('Dry run: the post step would set deployment 6 from the job status.');
    expect(withoutStatus.post.stdout).toContain(`PATCH ${fake.service.url}/deployment/6`);
  });
});

describe('job summary', () => {
  it('after main: a table of what was recorded; after post: the final status and the time', async () => {
    const { main, post } = await runJobInProcess({ inputs: inputs({ version: '2.0.0', environment: 'Staging' }) });

    expect(main.summary).toBe(
      [
        '<h3>Deployment recorded</h3>',
        '<table><tr><th>Artifact</th><th>Environment</th><th>Version</th><th>Commit</th><th>Branch</th><th>Status</th><th>Id</th><th>Link</th></tr>' +
          '<tr><td>42</td><td>Staging</td><td>2.0.0</td><td><code>a1b2c3d</code></td><td>main</td><td>STARTED</td><td>1</td>' +
          '<td><a href="https://github.com/acme/shop/actions/runs/9100/job/31415926">github.com</a></td></tr></table>',
        '',
      ].join('\n'),
    );
    expect(anyDuration(post.summary)).toBe(
      ['<h3>Deployment succeeded</h3>', '<p>Deployment 1 set to SUCCEEDED after Ns.</p>', ''].join('\n'),
    );
  });

  it('on failure: why it could not record, and the FAILED finish', async () => {
    fake.service.fail('PATCH', {
      status: 422,
      body: { detail: [{ type: 'enum', loc: ['body', 'status'], msg: 'bad <status>' }] },
    });

    const { main, post } = await runJobInProcess({ inputs: inputs(), jobStatus: 'failure' });

    expect(main.summary).toContain('<h3>Deployment recorded</h3>');
    expect(post.summary).toBe(
      [
        '<h3>Deployment status not fully reported</h3>',
        '<ul><li>Could not set deployment 1 to FAILED: HTTP 422:<br>  body.status: bad &#60;status&#62;</li></ul>',
        '',
      ].join('\n'),
    );
  });

  it('escapes what users and the service write', async () => {
    fake.service.fail('POST', { status: 400, body: { detail: '<script>x</script>' } });

    const { main } = await runJobInProcess({ inputs: inputs({ branch: 'feat/<b>' }) });

    expect(main.summary).toBe(
      [
        '<h3>0 of 1 deployments recorded</h3>',
        '<ul><li>Could not record the deployment of artifact 42: HTTP 400: &#60;script&#62;x&#60;/script&#62;</li></ul>',
        '',
      ].join('\n'),
    );
  });
});
