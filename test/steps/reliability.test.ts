// Faults, step by step (in-process, from src/): the tracker must never block, hang or duplicate a
// deployment. Which answers are retried, and the waits, are test/http.test.ts's.
import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startForwardProxy, type ForwardProxy } from '../helpers/forward-proxy.ts';
import { runJobInProcess, runStepInProcess } from '../helpers/in-process.ts';
import { useFakeService } from '../helpers/fixture.ts';

const fake = useFakeService();
const { inputs } = fake;

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('retries that cannot duplicate a deployment', () => {
  it.each([503, 429])(
    'retries a create answered %i when Retry-After says so: exactly one deployment',
    async (status) => {
      fake.service.fail('POST', { status, body: { detail: 'busy' }, headers: { 'retry-after': '0' } });

      const { main, post } = await runJobInProcess({ inputs: inputs() });

      expect(main.exitCode).toBe(0);
      expect(main.warnings).toEqual([]);
      expect(fake.received()).toEqual(['POST /deployment', 'POST /deployment', 'PATCH /deployment/1']);
      expect(fake.service.deployments.size).toBe(1);
      expect(fake.service.deployments.get('1')?.statuses).toEqual(['STARTED', 'SUCCEEDED']);
      expect(main.logLines).toContain(
        `POST ${fake.service.url}/deployment: HTTP ${status}; retrying in 0.0 s (retry 1 of 3)`,
      );
      expect(post.exitCode).toBe(0);
    },
  );

  it('does not retry a create answered 500 (it may have been recorded): a warning, exit 0', async () => {
    fake.service.fail('POST', { status: 500, body: { detail: 'Internal error' } });

    const { main } = await runJobInProcess({ inputs: inputs() });

    expect(main.exitCode).toBe(0);
    expect(fake.received()).toEqual(['POST /deployment']);
    expect(main.warnings).toEqual([
      'Could not record the deployment of artifact 42: HTTP 500: Internal error\nThe step goes on (fail-on-error is false).',
    ]);
    expect(main.summary).toContain('Could not record the deployment of artifact 42: HTTP 500: Internal error');
    expect(main.outputs).toEqual({ 'deployment-id': '', 'deployment-ids': '[]', status: '' });
  });

  it('fails the step on the same 500 with fail-on-error', async () => {
    fake.service.fail('POST', { status: 500, body: { detail: 'Internal error' } });

    const { main, post } = await runJobInProcess({ inputs: inputs({ 'fail-on-error': 'true' }) });

    expect(main.exitCode).toBe(1);
    expect(main.errors).toEqual(['Could not record the deployment of artifact 42: HTTP 500: Internal error']);
    expect(fake.received()).toEqual(['POST /deployment']);
    expect(post.exitCode).toBe(0);
  });

  it('does not retry a create whose connection dropped before an answer', async () => {
    fake.service.fail('POST', { drop: true });

    const { main } = await runJobInProcess({ inputs: inputs() });

    expect(main.exitCode).toBe(0);
    expect(fake.received()).toEqual(['POST /deployment']);
    expect(main.warnings[0]).toMatch(
      /^Could not record the deployment of artifact 42: connection closed before an answer/,
    );
  });

  // Which answers an update retries, and the waits between, are test/http.test.ts's: here, what a
  // step does once the retries are spent.
  it('gives up after the given retries and says so', async () => {
    const maintenance = { status: 503, body: { detail: 'maintenance' }, headers: { 'retry-after': '0' } };
    fake.service.fail('PATCH', maintenance, maintenance, maintenance);

    const { post } = await runJobInProcess({ inputs: inputs({ retries: '2' }) });

    expect(post.exitCode).toBe(0);
    expect(fake.received().filter((m) => m.startsWith('PATCH'))).toHaveLength(3);
    expect(post.warnings).toEqual([
      'Could not set deployment 1 to SUCCEEDED: HTTP 503: maintenance\nThe step goes on (fail-on-error is false).',
    ]);
    expect(fake.service.deployments.get('1')?.statuses).toEqual(['STARTED']);
  });
});

describe('a service that does not answer', () => {
  it('ends a create that never gets an answer within its timeout, without retrying it', async () => {
    fake.service.fail('POST', { hang: true });

    const main = await runStepInProcess(
      'main',
      { inputs: inputs({ 'timeout-seconds': '0.2' }), killAfterMs: 10_000 },
      {},
    );

    expect(main.exitCode).toBe(0); // not killed: it ended by itself
    expect(fake.received()).toEqual(['POST /deployment']);
    expect(main.warnings[0]).toMatch(
      /^Could not record the deployment of artifact 42: no answer in time \(127\.0\.0\.1:\d+\); it may have reached the service, so it is not sent again\n/,
    );
  });

  it('warns when the connection is refused', async () => {
    const port = await closedPort();

    const main = await runStepInProcess(
      'main',
      { inputs: inputs({ 'base-url': `http://127.0.0.1:${port}`, retries: '0' }) },
      {},
    );

    expect(main.exitCode).toBe(0);
    expect(main.warnings).toEqual([
      `Could not record the deployment of artifact 42: connection refused (127.0.0.1:${port})\nThe step goes on (fail-on-error is false).`,
    ]);
  });
});

describe('answers that are not success', () => {
  it('reports an HTML error page by its status, without a parse crash', async () => {
    fake.service.fail('POST', { status: 502, body: '<html><body><h1>502 Bad Gateway</h1></body></html>' });

    const { main } = await runJobInProcess({ inputs: inputs() });

    expect(main.exitCode).toBe(0);
    expect(main.warnings[0]).toMatch(
      /^Could not record the deployment of artifact 42: HTTP 502 \(the answer is not JSON: text\/html\)/,
    );
    expect(main.stderr).toBe('');
  });

  it('reports a wrong key with the service detail', async () => {
    const { main } = await runJobInProcess({ inputs: inputs({ 'api-key': 'wrong-key-123' }) });

    expect(main.warnings[0]).toMatch(
      /^Could not record the deployment of artifact 42: HTTP 401: Invalid or missing API key/,
    );
    expect(fake.service.deployments.size).toBe(0);
  });

  it('reports a validation error one line per entry', async () => {
    const detail = [
      { type: 'missing', loc: ['body', 'commitSha'], msg: 'Field required', input: {} },
      { type: 'enum', loc: ['body', 'environment'], msg: "Input should be 'Production'", input: 'Prod' },
    ];
    fake.service.fail('POST', { status: 422, body: { detail } });

    const { main } = await runJobInProcess({ inputs: inputs() });

    expect(main.warnings[0]).toBe(
      "Could not record the deployment of artifact 42: HTTP 422:\n  body.commitSha: Field required\n  body.environment: Input should be 'Production'\nThe step goes on (fail-on-error is false).",
    );
  });

  it('treats a 200 without an id as a failure', async () => {
    fake.service.fail('POST', { status: 200, body: { success: true } });

    const { main, post } = await runJobInProcess({ inputs: inputs() });

    expect(main.warnings[0]).toMatch(
      /^Could not record the deployment of artifact 42: HTTP 200, but the answer has no deployment `id`/,
    );
    expect(post.logLines).toContain('Nothing to finish: the main step could not record a deployment.');
  });

  it('treats a 200 without success: true as a failure', async () => {
    fake.service.fail('PATCH', { status: 200, body: { success: false } });

    const { post } = await runJobInProcess({ inputs: inputs() });

    expect(post.warnings[0]).toMatch(
      /^Could not set deployment 1 to SUCCEEDED: HTTP 200, but the answer does not say `success: true`/,
    );
  });
});

describe('proxies', () => {
  let proxy: ForwardProxy;
  beforeEach(async () => {
    // Only the proxy knows tracker.test: a request that bypasses it cannot reach the service.
    proxy = await startForwardProxy({ hosts: { 'tracker.test': '127.0.0.1' } });
  });
  afterEach(async () => {
    await proxy.close();
  });

  const remote = () =>
    inputs({ 'base-url': `http://tracker.test:${fake.service.port}`, 'allow-insecure-http': 'true' });

  it.each(['HTTP_PROXY', 'http_proxy'])('sends both requests to a remote service through %s', async (variable) => {
    const { main, post } = await runJobInProcess({ inputs: remote(), env: { [variable]: proxy.url } });

    expect(main.exitCode).toBe(0);
    expect(post.exitCode).toBe(0);
    expect(proxy.seen).toEqual([`tracker.test:${fake.service.port}`, `tracker.test:${fake.service.port}`]);
    expect(fake.service.deployments.get('1')?.statuses).toEqual(['STARTED', 'SUCCEEDED']);
  });

  it.each(['HTTP_PROXY', 'http_proxy'])('reaches a loopback service directly, never through %s', async (variable) => {
    const { main, post } = await runJobInProcess({ inputs: inputs(), env: { [variable]: proxy.url } });

    expect(main.exitCode).toBe(0);
    expect(post.exitCode).toBe(0);
    expect(proxy.seen).toEqual([]);
    expect(fake.service.deployments.get('1')?.statuses).toEqual(['STARTED', 'SUCCEEDED']);
  });

  it.each(['NO_PROXY', 'no_proxy'])('bypasses the proxy for hosts in %s', async (variable) => {
    // 0.0.0.0 is not loopback by name, so only NO_PROXY keeps it from the proxy; Linux connects it
    // to this machine, where the fake listens.
    const direct = inputs({ 'base-url': `http://0.0.0.0:${fake.service.port}`, 'allow-insecure-http': 'true' });

    await runJobInProcess({ inputs: direct, env: { HTTP_PROXY: proxy.url, [variable]: 'other.test,0.0.0.0' } });

    expect(proxy.seen).toEqual([]);
    expect(fake.service.deployments.get('1')?.statuses).toEqual(['STARTED', 'SUCCEEDED']);
  });
});
