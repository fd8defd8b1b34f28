// HTTPS end to end: the built dist/ against the fake service on TLS, trusting the test CA the way a
// runner trusts a private CA (NODE_EXTRA_CA_CERTS), directly and through an HTTPS_PROXY tunnel.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startForwardProxy, type ForwardProxy } from '../helpers/forward-proxy.ts';
import { runJob, runStep } from '../helpers/run-action.ts';
import { TEST_CA_PATH, tlsFixture } from '../helpers/tls-fixtures.ts';
import { useFakeService } from '../helpers/fixture.ts';

const fake = useFakeService();

beforeEach(async () => {
  await fake.restart({ tls: tlsFixture('server'), prefix: '/api' });
});

describe('https directly', () => {
  it('records STARTED then SUCCEEDED at an https service whose CA is in NODE_EXTRA_CA_CERTS', async () => {
    expect(fake.service.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/api$/);

    const { main, post } = await runJob({ inputs: fake.inputs(), env: { NODE_EXTRA_CA_CERTS: TEST_CA_PATH } });

    expect(main.exitCode).toBe(0);
    expect(main.warnings).toEqual([]);
    expect(post.exitCode).toBe(0);
    expect(post.warnings).toEqual([]);
    expect(fake.received()).toEqual(['POST /api/deployment', 'PATCH /api/deployment/1']);
    expect(fake.service.deployments.get('1')?.statuses).toEqual(['STARTED', 'SUCCEEDED']);
  });

  it('sends nothing the service records when the CA is not trusted (the certificate is really checked)', async () => {
    const { main } = await runJob({ inputs: fake.inputs({ retries: '0' }) });

    expect(main.exitCode).toBe(0);
    // The handshake fails, so no request reaches the service.
    expect(fake.service.requests).toEqual([]);
    expect(fake.service.deployments.size).toBe(0);
    expect(main.warnings[0]).toMatch(
      /^Could not record the deployment of artifact 42: the TLS certificate of 127\.0\.0\.1:\d+ is issued by an authority this runner does not trust \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)\. If the service uses a private certificate authority, point NODE_EXTRA_CA_CERTS at its certificate\n/,
    );
  });
});

describe('NODE_TLS_REJECT_UNAUTHORIZED=0, set for the whole job (for another tool)', () => {
  it('is refused before any request, as the command line refuses it: the key never goes to an unchecked server', async () => {
    const { main, post } = await runJob({ inputs: fake.inputs(), env: { NODE_TLS_REJECT_UNAUTHORIZED: '0' } });

    expect(fake.service.requests).toEqual([]);
    // A configuration error, as any bad setting of the action's: the step fails, naming it.
    expect(main.exitCode).toBe(1);
    expect(main.errors.join('\n')).toContain(
      "Environment variable NODE_TLS_REJECT_UNAUTHORIZED is '0', which turns off the check of the service's certificate",
    );
    expect(main.stderr).not.toMatch(/trace-warnings/);
    expect(post.exitCode).toBe(0);
  });
});

describe('a certificate problem says "certificate" and what is wrong, and is not retried', () => {
  it.each([
    ['expired', 'has expired (CERT_HAS_EXPIRED)'],
    ['wrong-host', 'is for another host name (ERR_TLS_CERT_ALTNAME_INVALID)'],
    ['self-signed', 'is self-signed (no trusted authority issued it) (DEPTH_ZERO_SELF_SIGNED_CERT)'],
  ] as const)('%s', async (fixture, problem) => {
    await fake.restart({ tls: tlsFixture(fixture), prefix: '/api' });

    const main = await runStep('main', { inputs: fake.inputs(), env: { NODE_EXTRA_CA_CERTS: TEST_CA_PATH } }, {});

    expect(main.exitCode).toBe(0);
    expect(main.warnings).toHaveLength(1);
    expect(main.warnings[0]).toContain(`: the TLS certificate of 127.0.0.1:${fake.service.port} ${problem}.`);
    expect(main.logLines.filter((line) => line.includes('retrying'))).toEqual([]);
    expect(main.stderr).toBe('');
  });
});

describe('https through HTTPS_PROXY (CONNECT)', () => {
  let proxy: ForwardProxy;
  beforeEach(async () => {
    // tracker.test resolves only in the proxy: a request that bypassed it could not connect.
    proxy = await startForwardProxy({ hosts: { 'tracker.test': '127.0.0.1' } });
  });
  afterEach(async () => {
    await proxy.close();
  });

  it.each(['HTTPS_PROXY', 'https_proxy'])('records STARTED then SUCCEEDED through %s', async (variable) => {
    const target = `tracker.test:${fake.service.port}`;

    const { main, post } = await runJob({
      inputs: fake.inputs({ 'base-url': `https://${target}/api` }),
      env: { [variable]: proxy.url, NODE_EXTRA_CA_CERTS: TEST_CA_PATH },
    });

    expect(main.exitCode).toBe(0);
    expect(main.warnings).toEqual([]);
    expect(post.warnings).toEqual([]);
    // One CONNECT tunnel per step (each step is its own process), and nothing else.
    expect(proxy.tunnels).toEqual([target, target]);
    expect(proxy.seen).toEqual([target, target]);
    expect(fake.received()).toEqual(['POST /api/deployment', 'PATCH /api/deployment/1']);
    expect(fake.service.requests[0]?.headers.host).toBe(target);
    expect(fake.service.deployments.get('1')?.statuses).toEqual(['STARTED', 'SUCCEEDED']);
  });
});
