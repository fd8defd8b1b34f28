// The built dist/ in a workflow on deployment_status (examples/deployment-status.yml), one case per
// behaviour class: a finished state from a hosting platform on a bare commit, an error from a GitHub
// App, a tag, a state that has not ended, the state passed explicitly, and a deployment event. The
// tables are in test/steps/deployment-status.test.ts.
import { describe, expect, it } from 'vitest';
import { exampleWith, fixtureRun, type FixtureName } from '../helpers/deployment-events.ts';
import { useFakeService } from '../helpers/fixture.ts';
import { runJob } from '../helpers/run-action.ts';

const fake = useFakeService();

function record(name: FixtureName, extra: Record<string, string> = {}) {
  return runJob({
    // examples/deployment-status.yml's step, as written but for the fake's address.
    inputs: { ...exampleWith(), 'base-url': fake.service.url, ...extra },
    contexts: { secrets: { DEPLOY_TRACKER_API_KEY: fake.service.apiKey } },
    ...fixtureRun(name),
  });
}

const TABLE_HEAD =
  '<table><tr><th>Artifact</th><th>Environment</th><th>Version</th><th>Commit</th><th>Branch</th><th>Status</th><th>Id</th><th>Link</th></tr>';

describe('a workflow on deployment_status', () => {
  it("Vercel's success on a bare commit: one finished SUCCEEDED deployment, post sends nothing", async () => {
    const { main, post } = await record('vercel-success');

    const sha = '73ff055b9bdf6acd07e10478ce6ef3dc8423a932';
    const link = 'https://marketing-site-k3j9x2p7q-acme-web.vercel.app';
    expect(fake.received()).toEqual(['POST /deployment']);
    expect(fake.service.requests[0]?.body).toEqual({
      artifactName: 'shop-web',
      version: sha,
      environment: 'Preview',
      commitSha: sha,
      user: 'vercel[bot]',
      branch: sha,
      type: 'SIMPLE',
      description: 'success: Deployment has completed; GitHub deployment 6289442817 by vercel[bot]',
      link,
      status: 'SUCCEEDED',
    });
    expect(main.exitCode).toBe(0);
    expect(main.outputs).toEqual({ 'deployment-id': '1', 'deployment-ids': '[1]', status: 'SUCCEEDED' });
    expect(main.logLines).toEqual([
      `Recorded deployment 1: artifact 'shop-web' version ${sha} to Preview (SUCCEEDED).`,
    ]);
    expect(main.summary).toBe(
      `<h3>Deployment recorded</h3>\n${TABLE_HEAD}<tr><td>shop-web</td><td>Preview</td><td>${sha}</td><td><code>73ff055</code></td>` +
        `<td>${sha}</td><td>SUCCEEDED</td><td>1</td><td><a href="${link}">marketing-site-k3j9x2p7q-acme-web.vercel.app</a></td></tr></table>\n`,
    );
    expect(post.exitCode).toBe(0);
    expect(post.logLines).toEqual([
      'Nothing to finish: the main step was given status SUCCEEDED, so the job status is not reported.',
    ]);
    expect(post.summary).toBe('');
  });

  it("a GitHub App's error: FAILED, the version from the deployment's payload", async () => {
    const { main, post } = await record('app-error');

    expect(fake.received()).toEqual(['POST /deployment']);
    expect(fake.service.requests[0]?.body).toEqual({
      artifactName: 'shop-web',
      version: '2.4.1',
      environment: 'staging',
      commitSha: '643d1bb445d48d6c308a2f4af4a393dded835356',
      user: 'acme-deployer[bot]',
      branch: 'main',
      type: 'SIMPLE',
      description:
        'Deploy storefront 2.4.1 to staging; error: Helm upgrade failed: timed out waiting for the condition; GitHub deployment 6290117342 by acme-deployer[bot] via Acme Deployer',
      link: 'https://argocd.acme-web.example/applications/storefront-staging?operation=true',
      status: 'FAILED',
    });
    // Recording a failed deployment is no failure of this step.
    expect(main.exitCode).toBe(0);
    expect(main.warnings).toEqual([]);
    expect(main.outputs).toEqual({ 'deployment-id': '1', 'deployment-ids': '[1]', status: 'FAILED' });
    expect(main.logLines).toEqual(["Recorded deployment 1: artifact 'shop-web' version 2.4.1 to staging (FAILED)."]);
    expect(post.logLines).toEqual([
      'Nothing to finish: the main step was given status FAILED, so the job status is not reported.',
    ]);
  });

  it("a tag: the tag's name is the version and the branch", async () => {
    await record('tag-ref-success');

    expect(fake.service.requests[0]?.body).toMatchObject({
      version: 'v1.4.0',
      branch: 'v1.4.0',
      environment: 'production',
      user: 'maria-lopez-dev',
      status: 'SUCCEEDED',
    });
  });

  it('a state that has not ended records nothing; the log and the summary say why', async () => {
    const { main, post } = await record('queued');

    const line =
      "Nothing recorded: the deployment is 'queued', not a final state. A workflow on `deployment_status` records it once its state is success, failure or error (a STARTED record now would stay unfinished beside that one).";
    expect(fake.service.requests).toEqual([]);
    expect(main.exitCode).toBe(0);
    expect(main.outputs).toEqual({ 'deployment-id': '', 'deployment-ids': '[]', status: '' });
    expect(main.logLines).toEqual([line]);
    expect(main.summary).toBe(
      `<h3>Deployment not recorded: not finished yet</h3>\n<p>${line.replaceAll("'", '&#39;')}</p>\n`,
    );
    expect(post.exitCode).toBe(0);
    expect(post.logLines).toEqual(["Nothing to finish: the deployment was 'queued', so nothing was recorded."]);
  });

  it('status: ${{ github.event.deployment_status.state }} given explicitly records the same', async () => {
    const { main, post } = await record('netlify-failure', { status: '${{ github.event.deployment_status.state }}' });

    expect(main.inputs.status).toBe('failure');
    expect(fake.received()).toEqual(['POST /deployment']);
    expect(fake.service.requests[0]?.body).toEqual({
      artifactName: 'shop-web',
      version: 'bd37c542b968b3cb915b38b913344e31fdfd288f',
      environment: 'deploy-preview-42',
      commitSha: 'bd37c542b968b3cb915b38b913344e31fdfd288f',
      user: 'netlify[bot]',
      branch: 'feature/login',
      type: 'SIMPLE',
      description:
        'failure: Deploy Preview failed: build script returned non-zero exit code: 2; GitHub deployment 6289440075 by netlify[bot]',
      link: 'https://app.netlify.com/projects/acme-marketing/deploys/67cefa15d3c2b40008a41e7c',
      status: 'FAILED',
    });
    expect(main.outputs.status).toBe('FAILED');
    expect(post.logLines).toEqual([
      'Nothing to finish: the main step was given status FAILED, so the job status is not reported.',
    ]);
  });
});

describe('a workflow on deployment', () => {
  it('records nothing without status, and says to listen to deployment_status', async () => {
    const { main, post } = await record('deployment-created');

    const line =
      'Nothing recorded: a `deployment` event comes when a deployment is created, before it has a state. Run this workflow on `deployment_status` to record each deployment once it has succeeded or failed, or set `status` to record it here.';
    expect(fake.service.requests).toEqual([]);
    expect(main.exitCode).toBe(0);
    expect(main.warnings).toEqual([line]);
    expect(main.outputs).toEqual({ 'deployment-id': '', 'deployment-ids': '[]', status: '' });
    expect(main.summary).toBe(`<h3>Deployment not recorded: no state yet</h3>\n<p>${line}</p>\n`);
    expect(post.logLines).toEqual(['Nothing to finish: the deployment had no state yet, so nothing was recorded.']);
  });
});
