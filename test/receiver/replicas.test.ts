// Several `serve` processes of the packed CLI (and the executable) on one PostgreSQL database, as a
// platform team runs them: any takes a delivery, either records it, each shows the shared queue on
// /metrics, `deliveries` reads the same store from anywhere, and each stops cleanly on SIGTERM.
import { EventEmitter, once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeService, startFakeService } from '../helpers/fake-service.ts';
import { testDatabase } from '../helpers/postgres.ts';
import { deliverGithub, getFrom, githubKey, githubPayload, type Replica, startReplica } from './helpers/replicas.ts';
import { INSTALL_TIMEOUT_MS, installedCli, installedSea, runCli } from '../helpers/run-cli.ts';
import { waitFor } from '../helpers/wait.ts';

const changed = new EventEmitter();
let service: FakeService;
const running: Replica[] = [];

beforeAll(async () => {
  installedCli();
  service = await startFakeService({ onChange: () => changed.emit('change') });
}, INSTALL_TIMEOUT_MS);
afterAll(async () => {
  for (const replica of running) replica.kill('SIGKILL');
  await service.close();
});

/** Resolves once the service holds a deployment of commit `sha` with these statuses; rejects after 20 s. */
async function recorded(sha: string, statuses: string[]) {
  const found = () => [...service.deployments.values()].filter((deployment) => deployment.body.commitSha === sha);
  const done = () => found().length === 1 && found()[0]?.statuses.join() === statuses.join();
  const bound = AbortSignal.timeout(20_000);
  while (!done()) {
    await once(changed, 'change', { signal: bound }).catch(() => {
      throw new Error(`no deployment of ${sha} with ${statuses.join(', ')}: ${JSON.stringify(found())}`);
    });
  }
  return found()[0];
}

async function replicaOn(store: string, subject: 'npm' | 'sea' = 'npm') {
  const replica = await startReplica({ store, service: { url: service.url, apiKey: service.apiKey }, subject });
  running.push(replica);
  return replica;
}

describe('replicas on PostgreSQL', () => {
  it('either takes a delivery and either records it: a start at one, its end at the other', async () => {
    const store = await testDatabase('replicas');
    const [one, two] = await Promise.all([replicaOn(store), replicaOn(store)]);
    const deployment = { id: 9001, sha: 'c0ffee'.padEnd(40, '1') };
    expect(await deliverGithub(one.port, 'delivery-start', githubPayload(deployment, 'in_progress'))).toMatchObject({
      status: 202,
    });
    await recorded(deployment.sha, ['STARTED']);
    expect(await deliverGithub(two.port, 'delivery-end', githubPayload(deployment, 'success'))).toMatchObject({
      status: 202,
    });
    // A redelivery to the other replica stores nothing.
    expect(await deliverGithub(one.port, 'delivery-end', githubPayload(deployment, 'success'))).toMatchObject({
      status: 200,
    });
    const final = await recorded(deployment.sha, ['STARTED', 'SUCCEEDED']);
    expect(final?.body).toMatchObject({ artifactName: 'storefront', status: 'STARTED' });

    // Each replica's /metrics: its own deliveries, the shared queue (empty once the end is written back).
    // Asked again and again: the store has no signal to wait on.
    await waitFor(async () => (await getFrom(one.port, '/metrics')).body.includes('report_deployment_queue_depth 0'), {
      timeoutMs: 10_000,
      everyMs: 50,
      what: 'an empty queue on /metrics',
    });
    const [metricsOne, metricsTwo] = await Promise.all([getFrom(one.port, '/metrics'), getFrom(two.port, '/metrics')]);
    expect(metricsOne.body).toContain('report_deployment_deliveries_total{source="github",verdict="stored"} 1');
    expect(metricsOne.body).toContain('report_deployment_deliveries_total{source="github",verdict="duplicate"} 1');
    expect(metricsTwo.body).toContain('report_deployment_deliveries_total{source="github",verdict="stored"} 1');
    for (const { body } of [metricsOne, metricsTwo]) {
      expect(body).toContain('report_deployment_queue_depth 0');
      expect(body).toContain('report_deployment_held_creates 0');
    }
    expect((await getFrom(two.port, '/readyz')).status).toBe(200);

    // `deliveries` reads the same store from another process, as an operator's machine would.
    const listed = await runCli(['deliveries', '--store', store, '--state', 'all', '--json'], { killAfterMs: 20_000 });
    expect(listed.exitCode).toBe(0);
    const items = JSON.parse(listed.stdout) as { key: string; status: string; state: string; serviceId: string }[];
    expect(items.map(({ key, status, state }) => [key, status, state])).toEqual([
      [githubKey(deployment), 'STARTED', 'done'],
      [githubKey(deployment), 'SUCCEEDED', 'done'],
    ]);
    expect(new Set(items.map((item) => item.serviceId))).toEqual(new Set([String(final?.id)]));

    // SIGTERM: each stops by itself, exit 0.
    for (const replica of [one, two]) replica.kill('SIGTERM');
    expect(await Promise.all([one.ended, two.ended])).toEqual([0, 0]);
    expect(one.log).not.toContain(service.apiKey);
  });

  it(
    'the standalone executable stores in PostgreSQL too (pg inside it, nothing loaded from beside it)',
    async () => {
      installedSea();
      const store = await testDatabase('executable');
      const replica = await replicaOn(store, 'sea');
      const deployment = { id: 9002, sha: 'beef'.padEnd(40, '2') };
      expect(await deliverGithub(replica.port, 'sea-end', githubPayload(deployment, 'failure'))).toMatchObject({
        status: 202,
      });
      await recorded(deployment.sha, ['FAILED']);
      expect(replica.log).toMatch(/store postgres postgres:\/\/postgres@127\.0\.0\.1:\d+\/executable_/);
      replica.kill('SIGTERM');
      expect(await replica.ended).toBe(0);
    },
    INSTALL_TIMEOUT_MS,
  );

  it('`deliveries` says which database it cannot reach, its password hidden', async () => {
    const result = await runCli(['deliveries', '--store', 'postgres://ops:s3cret@127.0.0.1:1/none?connect_timeout=2'], {
      killAfterMs: 20_000,
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(
      /--store cannot be opened as a PostgreSQL store \(postgres:\/\/ops:\*\*\*@127\.0\.0\.1:1\/none/,
    );
    expect(result.stderr).not.toContain('s3cret');
  });
});
