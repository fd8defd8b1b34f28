// The built dist/ as the runner runs it: fail-open and fail-on-error, a step that ends by itself
// when the service never answers, and a remote service through a proxy (undici's proxy agent, as
// bundled).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useFakeService } from '../helpers/fixture.ts';
import { startForwardProxy, type ForwardProxy } from '../helpers/forward-proxy.ts';
import { runJob, runStep } from '../helpers/run-action.ts';

const fake = useFakeService();

describe('faults', () => {
  it('a refused create warns and goes on; with fail-on-error it fails the step', async () => {
    fake.service.fail(
      'POST',
      { status: 500, body: { detail: 'Internal error' } },
      { status: 500, body: { detail: 'Internal error' } },
    );

    const open = await runJob({ inputs: fake.inputs() });
    const strict = await runStep('main', { inputs: fake.inputs({ 'fail-on-error': 'true' }) }, {});

    expect(open.main.exitCode).toBe(0);
    expect(open.main.warnings).toEqual([
      'Could not record the deployment of artifact 42: HTTP 500: Internal error\nThe step goes on (fail-on-error is false).',
    ]);
    expect(open.post.logLines).toEqual(['Nothing to finish: the main step could not record a deployment.']);
    expect(strict.exitCode).toBe(1);
    expect(strict.errors).toEqual(['Could not record the deployment of artifact 42: HTTP 500: Internal error']);
    expect(fake.received()).toEqual(['POST /deployment', 'POST /deployment']);
  });

  it('a create that never gets an answer ends by itself after its timeout, not retried', async () => {
    fake.service.fail('POST', { hang: true });

    const main = await runStep('main', { inputs: fake.inputs({ 'timeout-seconds': '0.3' }), killAfterMs: 10_000 }, {});

    expect(main.exitCode).toBe(0); // not killed: it ended by itself
    expect(fake.received()).toEqual(['POST /deployment']);
    expect(main.warnings[0]).toMatch(
      /^Could not record the deployment of artifact 42: no answer in time \(127\.0\.0\.1:\d+\)/,
    );
  });
});

describe('a proxy', () => {
  let proxy: ForwardProxy;
  beforeEach(async () => {
    proxy = await startForwardProxy({ hosts: { 'tracker.test': '127.0.0.1' } });
  });
  afterEach(async () => {
    await proxy.close();
  });

  it('carries both requests to a remote service (HTTP_PROXY), and never a loopback one', async () => {
    const remote = fake.inputs({
      'base-url': `http://tracker.test:${fake.service.port}`,
      'allow-insecure-http': 'true',
    });

    const { main, post } = await runJob({ inputs: remote, env: { HTTP_PROXY: proxy.url } });
    const loopback = await runStep('main', { inputs: fake.inputs(), env: { HTTP_PROXY: proxy.url } }, {});

    expect([main.exitCode, post.exitCode, loopback.exitCode]).toEqual([0, 0, 0]);
    expect(proxy.seen).toEqual([`tracker.test:${fake.service.port}`, `tracker.test:${fake.service.port}`]);
    expect(fake.service.deployments.get('1')?.statuses).toEqual(['STARTED', 'SUCCEEDED']);
    expect(fake.service.deployments.get('2')?.statuses).toEqual(['STARTED']);
  });
});
