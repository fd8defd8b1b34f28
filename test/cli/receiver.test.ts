// `serve` and `deliveries` as they ship (the npm package, and the executable in its own project),
// against the fake service: real signed GitHub deliveries, real signals, a real store file.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { application, historyEntry, startFakeArgoCd } from '../receiver/helpers/fake-argocd-api.ts';
import { fakeDelivery, startFakeGithub } from '../receiver/helpers/fake-github-api.ts';
import { hookEvent, startFakeGitLab } from '../receiver/helpers/fake-gitlab-api.ts';
import { startFakeService, type FakeService, type FakeServiceOptions } from '../helpers/fake-service.ts';
import {
  argocdDelivery,
  fluxDelivery,
  githubDelivery,
  gitlabDelivery,
  SOURCE_ENV,
} from '../receiver/helpers/deliveries.ts';
import { deploymentStatus, post, SECRET, signed } from '../receiver/helpers/github-delivery.ts';
import { SENT_AT } from '../receiver/helpers/request.ts';
import { openStore } from '../../src/receiver/store/index.ts';
import type { Work } from '../../src/receiver/store/store.ts';
import { event } from '../receiver/helpers/store-contract.ts';
import { INSTALL_TIMEOUT_MS, installedCli, runCli, type CliResult } from '../helpers/run-cli.ts';

interface Receiver {
  port: number;
  child: ChildProcess;
  ended: Promise<CliResult>;
  /** Resolves once the receiver's log has a line matching `pattern`. */
  logged(pattern: RegExp): Promise<void>;
}

// Packing (and, for the executable, building it) happens once, before the timed tests.
beforeAll(() => void installedCli(), INSTALL_TIMEOUT_MS);

const services: FakeService[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const service of services.splice(0)) await service.close();
});

/** The fake service, and a wait for a condition on it checked after each answer (no sleeps). */
async function fakeService(options: FakeServiceOptions = {}) {
  const waiters = new Set<() => void>();
  const service = await startFakeService({ ...options, onChange: () => waiters.forEach((check) => check()) });
  services.push(service);
  // Bounded: a condition never met fails with what the service saw.
  const until = (condition: () => boolean) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(check);
        const seen = service.requests.map(
          (request) => `${request.method} ${request.path} ${JSON.stringify(request.body)}`,
        );
        reject(new Error(`the service never got there; it saw:\n${seen.join('\n')}`));
      }, 15_000);
      const check = () => {
        if (!condition()) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
      check();
    });
  return { service, until };
}

function serve(
  service: FakeService,
  store: string,
  { args = [], env = { GITHUB_WEBHOOK_SECRET: SECRET } }: { args?: string[]; env?: Record<string, string> } = {},
): Promise<Receiver> {
  let child: ChildProcess | undefined;
  const ended = runCli(['serve', '--listen', '127.0.0.1:0', '--store', store, ...args], {
    env: { DEPLOY_TRACKER_URL: service.url, DEPLOY_TRACKER_API_KEY: service.apiKey, ...env },
    killAfterMs: 25_000,
    onSpawn: (spawned) => {
      child = spawned;
      children.push(spawned);
    },
  });
  return new Promise((resolve, reject) => {
    let seen = '';
    const logged = (pattern: RegExp) =>
      new Promise<void>((found, never) => {
        const look = () => {
          if (!pattern.test(seen)) return;
          child?.stderr?.off('data', look);
          found();
        };
        child?.stderr?.on('data', look);
        void ended.then(() => never(new Error(`serve ended before logging ${pattern}: ${seen}`)));
        look();
      });
    child?.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const port = /listening on [^\s]+:(\d+) /.exec(seen)?.[1];
      if (port && child) resolve({ port: Number(port), child, ended, logged });
    });
    void ended.then((result) => reject(new Error(`serve ended: ${result.stderr}`)));
  });
}

async function deliveries(store: string, ...args: string[]): Promise<Array<Record<string, unknown>>> {
  const result = await runCli(['deliveries', '--store', store, '--json', ...args]);
  expect(result.exitCode, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Array<Record<string, unknown>>;
}

const freshStore = () => join(mkdtempSync(join(tmpdir(), 'rd-serve-')), 'receiver.sqlite');

describe('report-deployment serve', () => {
  it('records a GitHub deployment from its start and its end, once, whatever is delivered twice or late', async () => {
    const { service, until } = await fakeService();
    const store = freshStore();
    const receiver = await serve(service, store);
    const queued = deploymentStatus('queued', 101);
    expect(await post(receiver.port, queued)).toMatchObject({ status: 202 });
    expect(await post(receiver.port, queued)).toMatchObject({ status: 200, text: 'already stored\n' });
    expect(await post(receiver.port, deploymentStatus('in_progress', 101))).toMatchObject({ status: 202 });
    expect(await post(receiver.port, deploymentStatus('success', 101))).toMatchObject({ status: 202 });
    // Another deployment, its end first: one create with the final status; its start changes nothing.
    expect(await post(receiver.port, deploymentStatus('failure', 102))).toMatchObject({ status: 202 });
    expect(await post(receiver.port, deploymentStatus('in_progress', 102))).toMatchObject({ status: 202 });
    expect(await post(receiver.port, signed('ping', Buffer.from('{"zen":"hi"}')))).toMatchObject({ status: 202 });
    await until(
      () =>
        [...service.deployments.values()]
          .map((d) => d.statuses.join())
          .sort()
          .join(' ') === 'FAILED STARTED,SUCCEEDED',
    );
    const bodies = [...service.deployments.values()].map((deployment) => deployment.body);
    expect(bodies[0]).toMatchObject({ artifactName: 'storefront', type: 'SIMPLE' });
    expect(service.requests.map((request) => request.method).sort()).toEqual(['PATCH', 'POST', 'POST']);
    const all = await deliveries(store, '--state', 'all');
    // The two late starts had nothing to send: no item, and the log says why.
    expect(all.map((item) => item.state).sort()).toEqual(['done', 'done', 'done']);
    // Nothing held or failed: no table on stdout, and a line that says so on stderr.
    const listed = await runCli(['deliveries', '--store', store]);
    expect([listed.exitCode, listed.stdout, listed.stderr]).toEqual([
      0,
      '',
      'report-deployment: no delivery is held or failed\n',
    ]);
    receiver.child.kill('SIGTERM');
    const ended = await receiver.ended;
    expect(ended.exitCode).toBe(0);
    expect(ended.stderr).toContain(
      ': skipped github:github.com:742519063:101 STARTED: the deployment is STARTED already',
    );
    expect(ended.stderr).toContain(
      ': skipped github:github.com:742519063:102 STARTED: the deployment has ended already (FAILED)',
    );
    expect(ended.stderr).not.toContain(service.apiKey);
    expect(ended.stderr).not.toMatch(/ExperimentalWarning/);
  });

  it('answers 401 to a wrong or missing signature and 413 to a body over the limit, storing nothing', async () => {
    const { service } = await fakeService();
    const store = freshStore();
    const receiver = await serve(service, store);
    const forged = deploymentStatus('success', 201, { secret: 'not the secret' });
    expect((await post(receiver.port, forged)).status).toBe(401);
    const unsigned = deploymentStatus('success', 202);
    delete unsigned.headers['x-hub-signature-256'];
    expect((await post(receiver.port, unsigned)).status).toBe(401);
    const huge = signed('deployment_status', Buffer.alloc(2 * 1024 * 1024, 0x20));
    expect((await post(receiver.port, huge)).status).toBe(413);
    expect((await post(receiver.port, deploymentStatus('success', 203), '/webhooks/gitlab')).status).toBe(404);
    expect(await deliveries(store, '--state', 'all')).toEqual([]);
    const metrics = await (await fetch(`http://127.0.0.1:${receiver.port}/metrics`)).text();
    expect(metrics).toContain('report_deployment_deliveries_total{source="github",verdict="unauthorized"} 2');
    expect(metrics).toContain('report_deployment_deliveries_total{source="github",verdict="too_large"} 1');
    receiver.child.kill('SIGTERM');
    expect((await receiver.ended).exitCode).toBe(0);
    expect(service.requests).toEqual([]);
  });

  it('holds a create it was sending when killed, keeps what it had acknowledged, and lets an operator resolve it', async () => {
    let release: () => void = () => undefined;
    let reached: () => void = () => undefined;
    const postReached = new Promise<void>((resolve) => (reached = resolve));
    const { service, until } = await fakeService({
      gate: (request) => {
        if (request.method !== 'POST') return;
        reached();
        return new Promise<void>((resolve) => (release = resolve));
      },
    });
    const store = freshStore();
    const first = await serve(service, store);
    expect((await post(first.port, deploymentStatus('in_progress', 301))).status).toBe(202);
    await postReached;
    // Acknowledged while its start's create hangs: it must outlive the kill.
    expect((await post(first.port, deploymentStatus('success', 301))).status).toBe(202);
    first.child.kill('SIGKILL');
    await first.ended;
    release(); // the service records the create whose answer the receiver never read
    const second = await serve(service, store);
    // The restarted receiver finds the create it was sending and holds it (bounded: each look is a run).
    let open: Array<Record<string, unknown>> = [];
    for (let look = 0; look < 100 && open[0]?.state !== 'held'; look++)
      open = await deliveries(store, '--state', 'held,pending');
    expect(open.map((item) => [item.state, item.status])).toEqual([
      ['held', 'STARTED'],
      ['pending', 'SUCCEEDED'],
    ]);
    expect(String(open[0]?.error)).toMatch(/may have reached the service/);
    expect(service.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
    // The operator finds that it did arrive: its end then updates that deployment.
    const [created] = [...service.deployments.values()];
    expect(created?.statuses).toEqual(['STARTED']);
    const resolved = await runCli([
      'deliveries',
      'resolve',
      String(open[0]?.id),
      '--deployment-id',
      String(created?.id),
      '--store',
      store,
    ]);
    expect(resolved.exitCode, resolved.stderr).toBe(0);
    await until(() => created?.statuses.join() === 'STARTED,SUCCEEDED');
    expect(await deliveries(store)).toEqual([]);
    expect(service.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
    second.child.kill('SIGTERM');
    const ended = await second.ended;
    expect(ended.exitCode).toBe(0);
    // An operator watching the log sees the hold, with no secret and no body.
    expect(ended.stderr).toMatch(
      /held \S+ STARTED \(item \d+, delivery [^)]+\): the receiver stopped while this create was being sent/,
    );
    expect(ended.stderr).not.toContain(SECRET);
    expect(ended.stderr).not.toContain(service.apiKey);
  });

  it('fails a create the service refuses, lists it, and sends it again on retry', async () => {
    const { service, until } = await fakeService();
    service.fail('POST', { status: 422, body: { detail: 'artifact storefront is unknown' } });
    const store = freshStore();
    const receiver = await serve(service, store);
    expect((await post(receiver.port, deploymentStatus('success', 401))).status).toBe(202);
    await until(() => service.requests.length === 1);
    let failed: Array<Record<string, unknown>> = [];
    while (failed.length === 0) failed = await deliveries(store, '--state', 'failed');
    expect(String(failed[0]?.error)).toContain('HTTP 422: artifact storefront is unknown');
    const retried = await runCli(['deliveries', 'retry', String(failed[0]?.id), '--store', store]);
    expect(retried.exitCode, retried.stderr).toBe(0);
    await until(() => service.deployments.size === 1);
    receiver.child.kill('SIGTERM');
    expect((await receiver.ended).exitCode).toBe(0);
  });

  it('keeps every delivery while the service refuses the API key, says so once, stays ready, and records them once it is accepted', async () => {
    const { service, until } = await fakeService();
    const store = freshStore();
    const refused = await serve(service, store, {
      env: { GITHUB_WEBHOOK_SECRET: SECRET, DEPLOY_TRACKER_API_KEY: 'a-rotated-key-5e1d' },
    });
    expect((await post(refused.port, deploymentStatus('success', 601))).status).toBe(202);
    // Refused twice: tried again, as after a 503.
    await until(() => service.requests.length >= 2);
    // Ready all the same: taken out of its Service, the receiver would lose deliveries. /metrics says it.
    const readyz = await fetch(`http://127.0.0.1:${refused.port}/readyz`);
    expect([readyz.status, await readyz.text()]).toEqual([200, 'ready\n']);
    expect(await keyGauge(refused.port)).toBe('report_deployment_api_key_refused 1');
    const [kept] = await deliveries(store, '--state', 'all');
    expect(kept).toMatchObject({ state: 'pending', error: 'HTTP 401: Invalid or missing API key' });
    refused.child.kill('SIGTERM');
    const first = await refused.ended;
    expect(first.exitCode).toBe(0);
    expect(
      first.stderr.match(/the service refuses the API key \(HTTP 401: Invalid or missing API key\)/g),
    ).toHaveLength(1);
    expect(first.stderr).not.toMatch(/failed github/);
    // Said once for all, not once an item and a retry.
    expect(first.stderr).not.toMatch(/trying again/);
    // The key put right (refused once more on the way): the delivery kept is recorded, and the receiver is ready.
    service.fail('POST', { status: 403, body: { detail: 'key not yet active' } });
    const receiver = await serve(service, store);
    await until(() => service.deployments.size === 1);
    await receiver.logged(/the service accepts the API key again/);
    expect((await fetch(`http://127.0.0.1:${receiver.port}/readyz`)).status).toBe(200);
    expect(await keyGauge(receiver.port)).toBe('report_deployment_api_key_refused 0');
    receiver.child.kill('SIGTERM');
    const second = await receiver.ended;
    expect(second.exitCode).toBe(0);
    expect(second.stderr).toMatch(/the service refuses the API key \(HTTP 403: key not yet active\)/);
    expect(second.stderr).not.toContain(service.apiKey);
  });

  it('deletes, as it starts, finished rows older than 7 days, and keeps the rest', async () => {
    const { service } = await fakeService();
    const store = freshStore();
    // A store written 8 days ago: one deployment recorded then, one delivery refused then.
    const then = Date.now() - 8 * 24 * 3600_000;
    const old = openStore(store, { now: () => then });
    await old.accept({ source: 'github', deliveryId: 'old-1', events: [event('k1', 'SUCCEEDED')] });
    await old.accept({ source: 'github', deliveryId: 'old-2', events: [event('k2', 'SUCCEEDED')] });
    const [done, failed] = (await old.claim('w', 2, 30_000)).work;
    await old.finish(done as Work, { kind: 'created', serviceId: { text: '7', numeric: true } });
    await old.finish(failed as Work, { kind: 'failed', error: 'HTTP 422: unknown artifact' });
    await old.close();
    const receiver = await serve(service, store);
    receiver.child.kill('SIGTERM');
    const ended = await receiver.ended;
    expect(ended.exitCode).toBe(0);
    expect(ended.stderr).toMatch(/retention: deleted \d+ finished row\(s\) older than 7 days/);
    expect((await deliveries(store, '--state', 'all')).map((item) => [item.deliveryId, item.state])).toEqual([
      ['old-2', 'failed'],
    ]);
    expect(service.requests).toEqual([]);
  });

  it('on SIGTERM, answers the delivery under way, lets the create under way finish, and exits 0', async () => {
    let release: () => void = () => undefined;
    let reached: () => void = () => undefined;
    const postReached = new Promise<void>((resolve) => (reached = resolve));
    const { service, until } = await fakeService({
      gate: (request, index) => {
        if (request.method !== 'POST' || index > 0) return;
        reached();
        return new Promise<void>((resolve) => (release = resolve));
      },
    });
    const store = freshStore();
    const receiver = await serve(service, store);
    expect((await post(receiver.port, deploymentStatus('in_progress', 501))).status).toBe(202);
    await postReached; // the worker's create is under way
    // A delivery under way when the signal comes: its headers read (the server said 100 Continue), half its body sent.
    const delivery = deploymentStatus('success', 502);
    const socket = connect(receiver.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    const closed = once(socket, 'close');
    const head = Object.entries({
      ...delivery.headers,
      host: '127.0.0.1',
      expect: '100-continue',
      'content-length': String(delivery.body.length),
    })
      .map(([name, value]) => `${name}: ${value}`)
      .join('\r\n');
    const half = Math.floor(delivery.body.length / 2);
    socket.write(`POST /webhooks/github HTTP/1.1\r\n${head}\r\n\r\n`);
    await once(socket, 'data');
    expect(Buffer.concat(chunks).toString()).toMatch(/^HTTP\/1\.1 100 /);
    socket.write(delivery.body.subarray(0, half));
    receiver.child.kill('SIGTERM');
    await receiver.logged(/SIGTERM: taking no more deliveries/);
    socket.end(delivery.body.subarray(half));
    await closed;
    expect(Buffer.concat(chunks).toString()).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 202 /);
    release();
    const ended = await receiver.ended;
    expect(ended.exitCode, ended.stderr).toBe(0);
    expect(ended.stderr).toMatch(/recorded github:\S+ STARTED/);
    // Nothing left claimed nor held: a receiver started again records the rest, each create once.
    expect(await deliveries(store, '--state', 'held,sending')).toEqual([]);
    const again = await serve(service, store);
    await until(
      () =>
        [...service.deployments.values()]
          .map((d) => d.statuses.join())
          .sort()
          .join(' ') === 'STARTED SUCCEEDED',
    );
    expect(service.requests.filter((request) => request.method === 'POST')).toHaveLength(2);
    again.child.kill('SIGTERM');
    expect((await again.ended).exitCode).toBe(0);
  });

  it("records a signed delivery of each of the four sources, with the mapping file's artifact and environment", async () => {
    const { service, until } = await fakeService();
    const store = freshStore();
    const mapping = join(mkdtempSync(join(tmpdir(), 'rd-mapping-')), 'mapping.yaml');
    writeFileSync(
      mapping,
      [
        'environments:',
        '  gitlab: { staging: Staging (GitLab) }',
        'argocd:',
        '  argocd/guestbook: { artifact: guestbook-web, environment: Production EU }',
        'flux:',
        '  Kustomization/flux-system/apps: { environment: Staging }',
        'gitlab:',
        '  root/test-deployment-webhooks: { artifact: webhooks-api }',
        '',
      ].join('\n'),
    );
    const receiver = await serve(service, store, { args: ['--mapping', mapping], env: { ...SOURCE_ENV } });
    for (const delivery of [
      githubDelivery('success', 901),
      gitlabDelivery('success'),
      argocdDelivery('running'),
      fluxDelivery('progressing'),
    ]) {
      expect(await post(receiver.port, delivery, delivery.path), delivery.path).toMatchObject({ status: 202 });
    }
    await until(() => service.deployments.size === 4);
    const recorded = [...service.deployments.values()]
      .map(({ body, statuses }) => {
        const { artifactName, environment } = body as { artifactName: string; environment: string };
        return `${artifactName} ${environment} ${statuses.join()}`;
      })
      .sort();
    expect(recorded).toEqual([
      'apps Staging STARTED',
      'guestbook-web Production EU STARTED',
      'storefront staging SUCCEEDED',
      'webhooks-api Staging (GitLab) SUCCEEDED',
    ]);
    // A source's secret is needed for its route: a forged Argo CD token is refused.
    const forged = argocdDelivery('deployed');
    forged.headers.authorization = 'Bearer not-the-token';
    expect((await post(receiver.port, forged, forged.path)).status).toBe(401);
    receiver.child.kill('SIGTERM');
    const ended = await receiver.ended;
    expect(ended.exitCode).toBe(0);
    for (const secret of [...Object.values(SOURCE_ENV), service.apiKey]) expect(ended.stderr).not.toContain(secret);
  });

  it('refuses a second serve on the same SQLite file, naming it and the process that holds it; starts again once that one is killed', async () => {
    const { service, until } = await fakeService();
    const store = freshStore();
    const first = await serve(service, store);
    const second = await runCli(['serve', '--listen', '127.0.0.1:0', '--store', store], {
      env: { DEPLOY_TRACKER_URL: service.url, DEPLOY_TRACKER_API_KEY: service.apiKey, GITHUB_WEBHOOK_SECRET: SECRET },
      killAfterMs: 25_000,
    });
    expect(second.exitCode).toBe(2);
    expect(second.stderr).toContain(
      `--store ${store} is in use by another report-deployment serve (process ${first.child.pid} on `,
    );
    // deliveries works alongside the running serve.
    expect((await post(first.port, deploymentStatus('success', 701))).status).toBe(202);
    await until(() => service.deployments.size === 1);
    expect(await deliveries(store, '--state', 'pending')).toEqual([]);
    // Killed: the operating system lets its hold go, and the next serve starts.
    first.child.kill('SIGKILL');
    await first.ended;
    const next = await serve(service, store);
    expect((await fetch(`http://127.0.0.1:${next.port}/readyz`)).status).toBe(200);
    next.child.kill('SIGTERM');
    expect((await next.ended).exitCode).toBe(0);
  });

  it('on SIGHUP, stops as on SIGTERM: the create under way finishes, nothing is left held, exit 0', async () => {
    let release: () => void = () => undefined;
    let reached: () => void = () => undefined;
    const postReached = new Promise<void>((resolve) => (reached = resolve));
    const { service } = await fakeService({
      gate: (request, index) => {
        if (request.method !== 'POST' || index > 0) return;
        reached();
        return new Promise<void>((resolve) => (release = resolve));
      },
    });
    const store = freshStore();
    const receiver = await serve(service, store);
    expect((await post(receiver.port, deploymentStatus('in_progress', 601))).status).toBe(202);
    await postReached;
    receiver.child.kill('SIGHUP');
    await receiver.logged(/SIGHUP: taking no more deliveries/);
    release();
    const ended = await receiver.ended;
    expect(ended.exitCode, ended.stderr).toBe(0);
    expect(ended.stderr).toMatch(/recorded github:\S+ STARTED/);
    expect(await deliveries(store, '--state', 'held,sending,pending')).toEqual([]);
  });

  it('refuses to start on a secret of white space or under 16 characters, naming the variable', async () => {
    const { service } = await fakeService();
    for (const [variable, value] of [
      ['GITHUB_WEBHOOK_SECRET', '   '],
      ['ARGOCD_WEBHOOK_TOKEN', 'short-token'],
    ] as const) {
      const result = await runCli(['serve', '--listen', '127.0.0.1:0', '--store', freshStore()], {
        env: { DEPLOY_TRACKER_URL: service.url, DEPLOY_TRACKER_API_KEY: service.apiKey, [variable]: value },
        killAfterMs: 25_000,
      });
      expect(result.exitCode, result.stderr).toBe(2);
      expect(result.stderr).toContain(`Environment variable ${variable}`);
      expect(result.stderr).not.toContain('short-token');
    }
  });

  it.each([
    ['argocd:\n  argocd/guestbook: { artifact: web, colour: blue }\n', '"colour" is not a field'],
    [
      'github:\n  acme/shop-web: { artifact: web }\n',
      `github: "acme/shop-web" can match no object: name it by the repository's name, without its owner (shop-web).`,
    ],
    ['argocd:\n  argocd/guestbook: { environment: "Prod\\u202e" }\n', 'argocd.argocd/guestbook.environment must be'],
  ])(
    'refuses to start on a mapping file with a mistake, naming --mapping, the file and the line: %j',
    async (text, said) => {
      const { service } = await fakeService();
      const mapping = join(mkdtempSync(join(tmpdir(), 'rd-mapping-')), 'mapping.yaml');
      writeFileSync(mapping, text);
      const result = await runCli(['serve', '--listen', '127.0.0.1:0', '--store', freshStore(), '--mapping', mapping], {
        env: { DEPLOY_TRACKER_URL: service.url, DEPLOY_TRACKER_API_KEY: service.apiKey, ...SOURCE_ENV },
        killAfterMs: 25_000,
      });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain('--mapping');
      expect(result.stderr).toContain(`${mapping}: line 2:`);
      expect(result.stderr).toContain(said);
    },
  );
});

describe('serve, after a Flux deployment it never heard', () => {
  it("records its end, once, from Flux's next periodic event; its start is not recorded", async () => {
    const { service, until } = await fakeService();
    const store = freshStore();
    const [before, missed] = ['0a1b2c3d4e5f60718293a4b5c6d7e8f901234567', 'c0ffee0000000000000000000000000000000001'];
    const first = await serve(service, store, { env: { ...SOURCE_ENV } });
    // The object at its revision before: its first sight, a baseline.
    const baseline = fluxDelivery('succeeded', { sha: before, at: SENT_AT - 600_000 });
    expect(await post(first.port, baseline, baseline.path)).toMatchObject({ status: 202 });
    await first.logged(/skipped flux:\S+ SUCCEEDED/);
    first.child.kill('SIGTERM');
    expect((await first.ended).exitCode).toBe(0);
    // While the receiver is down, Flux applies a new revision: its progressing and success events are lost.
    const second = await serve(service, store, { env: { ...SOURCE_ENV } });
    // Flux repeats the success at every interval: the next one is the deployment, the one after it a
    // repeat of the same success (a duplicate delivery).
    const [next, after] = [SENT_AT, SENT_AT + 600_000].map((at) => fluxDelivery('succeeded', { sha: missed, at }));
    expect(await post(second.port, next!, next!.path)).toMatchObject({ status: 202 });
    await until(() => service.deployments.size === 1);
    expect(await post(second.port, after!, after!.path)).toMatchObject({ status: 200 });
    const [recorded] = [...service.deployments.values()];
    expect(recorded?.statuses).toEqual(['SUCCEEDED']);
    expect((recorded?.body as { commitSha: string }).commitSha).toBe(missed);
    expect(service.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
    second.child.kill('SIGTERM');
    expect((await second.ended).exitCode).toBe(0);
  });
});

describe('serve, catching up on Argo CD syncs it never heard', () => {
  it("records a sync made while it was down, once, from Argo CD's history; the syncs before catch-up began are not sent", async () => {
    const { service, until } = await fakeService();
    const token = 'argocd-api-token-3f9a71c2e8d4';
    const argo = await startFakeArgoCd(token);
    const store = freshStore();
    const [old, missed] = ['1f2e3d4c5b6a79881726354433221100ffeeddcc', '9a8b7c6d5e4f30211203948576abcdef01234567'];
    const uid = '4b1d2c7e-5f60-4a89-9b0c-1d2e3f405162';
    argo.applications = [application(uid, 'guestbook', { history: [historyEntry(0, Date.now() - 3_600_000, old)] })];
    const env = { ...SOURCE_ENV, ARGOCD_SERVER: argo.url, ARGOCD_AUTH_TOKEN: token };
    try {
      const first = await serve(service, store, { env });
      await first.logged(
        /Argo CD catch-up \(127\.0\.0\.1:\d+\): 0 syncs not held, 0 got in; 1 from before catch-up began/,
      );
      first.child.kill('SIGTERM');
      const stopped = await first.ended;
      expect(stopped.exitCode).toBe(0);
      // While the receiver is down, Argo CD syncs a new revision (ended now, after the first pass): its
      // notification is lost.
      argo.applications = [
        application(uid, 'guestbook', {
          history: [historyEntry(0, Date.now() - 3_600_000, old), historyEntry(1, Date.now() - 20_000, missed)],
        }),
      ];
      const second = await serve(service, store, { env, args: ['--catch-up-seconds', '10'] });
      await until(() => service.deployments.size === 1);
      await second.logged(/Argo CD catch-up \(127\.0\.0\.1:\d+\): 1 sync not held, 1 got in/);
      const [recorded] = [...service.deployments.values()];
      expect(recorded?.statuses).toEqual(['SUCCEEDED']);
      expect(recorded?.body).toMatchObject({ artifactName: 'guestbook', version: missed, environment: 'Staging' });
      const metrics = await (await fetch(`http://127.0.0.1:${second.port}/metrics`)).text();
      expect(metrics).toContain('report_deployment_catch_up_total{source="argocd",result="fetched"} 1');
      second.child.kill('SIGTERM');
      const ended = await second.ended;
      expect(ended.exitCode).toBe(0);
      expect(service.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
      for (const output of [stopped.stderr, ended.stderr, metrics]) expect(output).not.toContain(token);
      expect(argo.requests.every((request) => request.authorization === `Bearer ${token}`)).toBe(true);
    } finally {
      await argo.close();
    }
  });

  it('refuses to start on ARGOCD_AUTH_TOKEN without ARGOCD_SERVER, naming the variable, and on a bad --catch-up-seconds', async () => {
    const { service } = await fakeService();
    const base = { DEPLOY_TRACKER_URL: service.url, DEPLOY_TRACKER_API_KEY: service.apiKey, ...SOURCE_ENV };
    const lone = await runCli(['serve', '--listen', '127.0.0.1:0', '--store', freshStore()], {
      env: { ...base, ARGOCD_AUTH_TOKEN: 'argocd-api-token-3f9a71c2e8d4' },
      killAfterMs: 25_000,
    });
    expect(lone.exitCode, lone.stderr).toBe(2);
    expect(lone.stderr).toContain('Environment variable ARGOCD_SERVER');
    expect(lone.stderr).not.toContain('argocd-api-token-3f9a71c2e8d4');
    const often = await runCli(
      ['serve', '--listen', '127.0.0.1:0', '--store', freshStore(), '--catch-up-seconds', '1'],
      {
        env: base,
        killAfterMs: 25_000,
      },
    );
    expect(often.exitCode).toBe(2);
    expect(often.stderr).toContain('--catch-up-seconds must be a whole number of seconds from 10 to 86400');
  });
});

describe('serve, catching up on GitHub deliveries that failed', () => {
  it("reads back what GitHub failed to deliver while it was down, records it once, and takes GitHub's own redelivery as a duplicate", async () => {
    const { service, until } = await fakeService();
    const token = 'ghp_CatchUpToken8f2a61b9c04d7e35aa1';
    const github = await startFakeGithub(token);
    const hook = 'repos/octo-org/shop-web/hooks/4081';
    const [started, ended] = [deploymentStatus('in_progress', 9601), deploymentStatus('success', 9601)];
    const guidOf = (delivery: typeof started) => delivery.headers['x-github-delivery'] as string;
    github.hooks.set(
      hook,
      [started, ended].map((delivery, index) =>
        fakeDelivery(guidOf(delivery), JSON.parse(delivery.body.toString()) as object, {
          at: Date.now() - 60_000 + index * 1000,
        }),
      ),
    );
    const store = freshStore();
    try {
      const receiver = await serve(service, store, {
        env: { ...SOURCE_ENV, GITHUB_HOOKS: hook, GITHUB_TOKEN: token, GITHUB_API_URL: github.url },
      });
      await until(() => [...service.deployments.values()].some(({ statuses }) => statuses.length === 2));
      await receiver.logged(/GitHub catch-up \(127\.0\.0\.1:\d+, 1 hook\): 2 failed deliveries not held, 2 got in/);
      const [recorded] = [...service.deployments.values()];
      expect(service.deployments.size).toBe(1);
      expect(recorded?.statuses).toEqual(['STARTED', 'SUCCEEDED']);
      // GitHub's own redelivery of the same delivery (an operator's click) arrives signed, with its guid.
      expect(await post(receiver.port, ended)).toMatchObject({ status: 200 });
      const metrics = await (await fetch(`http://127.0.0.1:${receiver.port}/metrics`)).text();
      expect(metrics).toContain('report_deployment_catch_up_total{source="github",result="fetched"} 2');
      receiver.child.kill('SIGTERM');
      const stopped = await receiver.ended;
      expect(stopped.exitCode).toBe(0);
      expect(service.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
      for (const output of [stopped.stderr, metrics]) expect(output).not.toContain(token);
      // `deliveries` says how each came.
      const listed = await deliveries(store, '--state', 'all');
      expect(listed.map(({ deliveryId, via }) => [deliveryId, via])).toEqual([
        [guidOf(started), 'catch-up'],
        [guidOf(ended), 'catch-up'],
      ]);
    } finally {
      await github.close();
    }
  });
});

describe('serve, taking webhooks while a catch-up pass is slow', () => {
  it('acknowledges live deliveries at once mid-pass, and a live delivery of an event the pass is reading is recorded once', async () => {
    const { service, until } = await fakeService();
    const token = 'ghp_CatchUpToken8f2a61b9c04d7e35aa1';
    const github = await startFakeGithub(token);
    const hook = 'repos/octo-org/shop-web/hooks/4081';
    const missed = [9801, 9802, 9803].map((id) => deploymentStatus('success', id));
    github.hooks.set(
      hook,
      missed.map((delivery, index) =>
        fakeDelivery(delivery.headers['x-github-delivery'] as string, JSON.parse(delivery.body.toString()) as object, {
          at: Date.now() - 60_000 + index * 1000,
        }),
      ),
    );
    // GitHub answers each read slowly: the pass lasts a few seconds.
    github.detailDelayMs = 2000;
    let read = 0;
    try {
      const firstRead = new Promise<void>(
        (resolve) =>
          (github.onDetail = (served) => {
            read = served;
            resolve();
          }),
      );
      const receiver = await serve(service, freshStore(), {
        env: { ...SOURCE_ENV, GITHUB_HOOKS: hook, GITHUB_TOKEN: token, GITHUB_API_URL: github.url },
      });
      await firstRead;
      // Mid-pass: another deployment's webhook, and the webhook of one the pass has still to read.
      const other = deploymentStatus('success', 9899);
      expect(await post(receiver.port, other)).toMatchObject({ status: 202 });
      expect(await post(receiver.port, missed[2]!)).toMatchObject({ status: 202 });
      // Both answered while the pass was still reading.
      expect(read).toBeLessThan(missed.length);
      await receiver.logged(/GitHub catch-up \(127\.0\.0\.1:\d+, 1 hook\): \d failed deliver(y|ies) not held/);
      await until(() => service.deployments.size === 4);
      expect(service.requests.filter((request) => request.method === 'POST')).toHaveLength(4);
      receiver.child.kill('SIGTERM');
      expect((await receiver.ended).exitCode).toBe(0);
    } finally {
      await github.close();
    }
  });
});

describe('serve, killed in the middle of a catch-up pass', () => {
  it('records every deployment once after a restart: what the killed pass got in stays, the next pass gets the rest', async () => {
    const { service, until } = await fakeService();
    const token = 'ghp_CatchUpToken8f2a61b9c04d7e35aa1';
    const github = await startFakeGithub(token);
    const hook = 'repos/octo-org/shop-web/hooks/4081';
    const deployments = Array.from({ length: 12 }, (_, index) => 9700 + index);
    github.hooks.set(
      hook,
      deployments.flatMap((id, index) =>
        [deploymentStatus('in_progress', id), deploymentStatus('success', id)].map((delivery, step) =>
          fakeDelivery(
            delivery.headers['x-github-delivery'] as string,
            JSON.parse(delivery.body.toString()) as object,
            {
              at: Date.now() - 600_000 + index * 2000 + step * 1000,
            },
          ),
        ),
      ),
    );
    github.detailDelayMs = 40;
    // While the first receiver runs, the service cannot be reached (nothing listens there): nothing
    // is sent, so nothing is held, and what the kill leaves is catch-up's alone.
    const closed = await startFakeService();
    const unreachable = closed.url;
    await closed.close();
    const store = freshStore();
    const env = { ...SOURCE_ENV, GITHUB_HOOKS: hook, GITHUB_TOKEN: token, GITHUB_API_URL: github.url };
    try {
      const killedMidPass = new Promise<void>((resolve) => (github.onDetail = (served) => served === 8 && resolve()));
      const first = await serve(service, store, { env: { ...env, DEPLOY_TRACKER_URL: unreachable } });
      await killedMidPass;
      first.child.kill('SIGKILL');
      await first.ended;
      github.onDetail = undefined;
      const second = await serve(service, store, { env });
      await until(
        () =>
          service.deployments.size === deployments.length &&
          [...service.deployments.values()].every(({ statuses }) => statuses.length === 2),
      );
      expect([...service.deployments.values()].map(({ statuses }) => statuses.join())).toEqual(
        deployments.map(() => 'STARTED,SUCCEEDED'),
      );
      expect(service.requests.filter((request) => request.method === 'POST')).toHaveLength(deployments.length);
      second.child.kill('SIGTERM');
      expect((await second.ended).exitCode).toBe(0);
      expect(await deliveries(store, '--state', 'held,failed,pending,sending')).toEqual([]);
    } finally {
      await github.close();
    }
  });
});

describe('serve, catching up on GitLab deliveries that failed', () => {
  it("takes what GitLab failed to deliver while it was down from the hook's events, records it once, and a resend is a duplicate", async () => {
    const { service, until } = await fakeService();
    const token = 'glpat-CatchUpToken3b7d29e1f0a4c5';
    const gitlab = await startFakeGitLab(token);
    const hook = 'projects/30/hooks/7';
    const [started, ended] = [gitlabDelivery('running', 611), gitlabDelivery('success', 611)];
    gitlab.hooks.set(hook, [
      hookEvent(JSON.parse(started.body.toString()) as object, { at: Date.now() - 60_000, key: 'idem-e2e-start' }),
      hookEvent(JSON.parse(ended.body.toString()) as object, { at: Date.now() - 30_000, key: 'idem-e2e-end' }),
    ]);
    try {
      const receiver = await serve(service, freshStore(), {
        env: { ...SOURCE_ENV, GITLAB_HOOKS: hook, GITLAB_TOKEN: token, GITLAB_URL: gitlab.url },
      });
      await until(() => [...service.deployments.values()].some(({ statuses }) => statuses.length === 2));
      await receiver.logged(/GitLab catch-up \(127\.0\.0\.1:\d+, 1 hook\): 2 failed deliveries not held, 2 got in/);
      expect(service.deployments.size).toBe(1);
      expect([...service.deployments.values()][0]?.statuses).toEqual(['STARTED', 'SUCCEEDED']);
      // An operator resends the event from GitLab's settings: the same Idempotency-Key.
      ended.headers['idempotency-key'] = 'idem-e2e-end';
      expect(await post(receiver.port, ended, ended.path)).toMatchObject({ status: 200 });
      receiver.child.kill('SIGTERM');
      const stopped = await receiver.ended;
      expect(stopped.exitCode).toBe(0);
      expect(service.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
      expect(stopped.stderr).not.toContain(token);
    } finally {
      await gitlab.close();
    }
  });
});

/** The line of /metrics that says whether the service refuses the API key. */
async function keyGauge(port: number): Promise<string | undefined> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  return /^report_deployment_api_key_refused .*$/m.exec(text)?.[0];
}
