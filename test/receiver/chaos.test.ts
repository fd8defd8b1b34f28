// A chaos soak: three `serve` processes of the packed CLI on one PostgreSQL database and one faulty
// service (5xx, resets, slow answers, answers lost after the service acted), deliveries of all four
// sources (GitHub, GitLab, Argo CD, Flux) with duplicates, ends before their starts and ends without
// starts spread across them, replicas killed (SIGKILL) and started again at random. Each Flux object
// is first seen at a baseline revision (acknowledged before the chaos: the first sight of an object is
// no deployment), then deploys a revision of its own. At the end, after an operator settles the held
// creates: every deployment recorded exactly once with its final status and no baseline recorded,
// requests of one deployment never two at once, nothing left claimed, each held create one whose
// answer was lost or that was being sent when its replica died, and a killed replica's work finished
// by another within 30 s.
// Seeded and bounded in time: CHAOS_SEED=N reruns a failure, whose message gives its seed.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { type Fault, type FakeService, type RecordedRequest, startFakeService } from '../helpers/fake-service.ts';
import { testDatabase } from '../helpers/postgres.ts';
import {
  type ArgocdTrigger,
  argocdKey,
  argocdPayload,
  deliverArgocd,
  deliverFlux,
  deliverGithub,
  deliverGitlab,
  type Deployment,
  fluxKey,
  fluxPayload,
  githubKey,
  githubPayload,
  gitlabKey,
  gitlabPayload,
  type Replica,
  startReplica,
} from '../helpers/receiver-replicas.ts';
import { INSTALL_TIMEOUT_MS, installedCli, runCli } from '../helpers/run-cli.ts';

const SEED = Number(process.env.CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31));
const CHAOS_MS = 30_000;
const DRAIN_MS = 40_000;
const TIMEOUT_SECONDS = 2;
const REPLICAS = 3;
/** An item the receivers should be working on: pending or being sent, and no held create before it. */
const WORKABLE = `i.state IN ('pending', 'sending') AND NOT EXISTS (SELECT 1 FROM report_deployment.items h
  WHERE h.key = i.key AND h.state = 'held' AND h.id < i.id)`;
const DEPLOYMENTS = 60;

/** mulberry32: a small seeded generator, so that a run is reproducible from its seed. */
function seeded(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  return { next, pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T };
}
// One stream each, so that the plan and each actor's choices follow from the seed alone.
const planned = seeded(SEED);
const faults = seeded(SEED + 1);
const kills = seeded(SEED + 2);
const sends = seeded(SEED + 3);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Source = 'github' | 'gitlab' | 'argocd' | 'flux';

interface Delivery {
  /** The sender's delivery id for GitHub and GitLab; for Argo CD and Flux, which send none, the test's own name. */
  id: string;
  source: Source;
  deployment: Deployment;
  /** GitHub's and GitLab's state, Argo CD's trigger, Flux's reason. */
  state: string;
  /** Flux: the event is of the object's baseline revision, not of the deployment's. */
  baseline?: true;
}

/** Each source's words for a start, the ends (and what they record), and a state that records nothing. */
const WORDS = {
  github: {
    starts: ['queued', 'in_progress'],
    ends: { success: 'SUCCEEDED', failure: 'FAILED', error: 'FAILED' },
    idle: 'pending',
  },
  gitlab: {
    starts: ['running'],
    ends: { success: 'SUCCEEDED', failed: 'FAILED', canceled: 'FAILED' },
    idle: 'created',
  },
  argocd: {
    starts: ['on-sync-running'],
    ends: { 'on-deployed': 'SUCCEEDED', 'on-sync-failed': 'FAILED', 'on-health-degraded': 'FAILED' },
    idle: 'terminating',
  },
  flux: {
    starts: ['Progressing'],
    ends: { ReconciliationSucceeded: 'SUCCEEDED', HealthCheckFailed: 'FAILED', ReconciliationFailed: 'FAILED' },
    idle: 'DependencyNotReady',
  },
} as const;
const SOURCES = Object.keys(WORDS) as Source[];
const keyOf = (delivery: Pick<Delivery, 'source' | 'deployment'>) =>
  ({ github: githubKey, gitlab: gitlabKey, argocd: argocdKey, flux: fluxKey })[delivery.source](delivery.deployment);
const send = (port: number, delivery: Delivery) => {
  const { deployment, state } = delivery;
  switch (delivery.source) {
    case 'github':
      return deliverGithub(port, delivery.id, githubPayload(deployment, state));
    case 'gitlab':
      return deliverGitlab(port, delivery.id, gitlabPayload(deployment, state));
    case 'argocd':
      return deliverArgocd(port, argocdPayload(deployment, state as ArgocdTrigger));
    case 'flux':
      return deliverFlux(port, fluxPayload(deployment, state, delivery.baseline ? 'baseline' : 'deployment'));
  }
};
/**
 * What the store holds for a delivery that records something: GitHub's and GitLab's by their
 * delivery ids; Argo CD's and Flux's, whose ids the receiver derives, by key and status (each
 * deployment has one start and one end of theirs).
 */
const storedAs = (delivery: Delivery): string => {
  if (delivery.source === 'github' || delivery.source === 'gitlab') return `${delivery.source} ${delivery.id}`;
  const words = WORDS[delivery.source];
  const status = (words.starts as readonly string[]).includes(delivery.state)
    ? 'STARTED'
    : (words.ends as Record<string, string>)[delivery.state];
  const key = delivery.baseline
    ? keyOf({ ...delivery, deployment: { ...delivery.deployment, sha: delivery.deployment.baseline as string } })
    : keyOf(delivery);
  return `${delivery.source} ${key} ${status as string}`;
};

/**
 * Each deployment's deliveries: maybe a start, its end (maybe first), some twice, all shuffled
 * together; and each Flux object's baseline, sent before them.
 */
function plan(): { baselines: Delivery[]; deliveries: Delivery[]; finals: Map<number, string> } {
  const baselines: Delivery[] = [];
  const deliveries: Delivery[] = [];
  const finals = new Map<number, string>();
  // Fixed widths, so that no two commits of a run are the same (a deployment's, `d`; a baseline's, `b`).
  const commit = (index: number, kind: 'd' | 'b') =>
    `${kind}${index.toString(16).padStart(4, '0')}${SEED.toString(16).padStart(8, '0')}`.padEnd(40, '0');
  for (let index = 1; index <= DEPLOYMENTS; index++) {
    const source = planned.pick(SOURCES);
    const deployment: Deployment = {
      id: 70_000 + index,
      sha: commit(index, 'd'),
      ...(source === 'flux' ? { baseline: commit(index, 'b') } : {}),
    };
    const words = WORDS[source];
    const end = planned.pick(Object.keys(words.ends));
    finals.set(deployment.id, (words.ends as Record<string, string>)[end] as string);
    if (source === 'flux')
      baselines.push({
        id: `baseline-${index}-${SEED}`,
        source,
        deployment,
        state: 'ReconciliationSucceeded',
        baseline: true,
      });
    const own: Delivery[] = [];
    if (planned.next() < 0.75)
      own.push({ id: `start-${index}-${SEED}`, source, deployment, state: planned.pick(words.starts) });
    own.push({ id: `end-${index}-${SEED}`, source, deployment, state: end });
    if (planned.next() < 0.2) own.reverse(); // an end before its start
    // A state that records nothing.
    if (planned.next() < 0.2) own.push({ id: `idle-${index}-${SEED}`, source, deployment, state: words.idle });
    for (const delivery of [...own]) if (planned.next() < 0.3) own.push(delivery); // a redelivery
    deliveries.push(...own);
  }
  // Shuffled across deployments, each deployment's own order kept only loosely.
  const keyed = deliveries.map((delivery, index) => ({
    delivery,
    at: index / deliveries.length + planned.next() * 0.15,
  }));
  return { baselines, deliveries: keyed.sort((a, b) => a.at - b.at).map(({ delivery }) => delivery), finals };
}

/** The service's faults while the chaos lasts; none afterwards. */
function chaosFault(calm: () => boolean) {
  return (request: RecordedRequest): Fault | undefined => {
    if (calm()) return undefined;
    const roll = faults.next();
    if (roll < 0.05) return { status: request.method === 'POST' ? 503 : faults.pick([500, 502, 503]) };
    if (roll < 0.08) return { drop: true };
    if (roll < 0.11) return { lost: true };
    if (roll < 0.25) return { delayMs: Math.floor(200 + faults.next() * 2600) };
    return undefined;
  };
}

let service: FakeService;
let calm = false;
let db: pg.Client;
const replicas: (Replica | undefined)[] = [];

beforeAll(async () => {
  installedCli();
  service = await startFakeService({ faultFor: chaosFault(() => calm) });
}, INSTALL_TIMEOUT_MS);
afterAll(async () => {
  for (const replica of replicas) replica?.kill('SIGKILL');
  await db?.end().catch(() => undefined);
  await service?.close();
});

describe('chaos: replicas killed at random on one PostgreSQL, the service faulting', () => {
  it(
    'records every deployment exactly once, in order, and hands a dead replica’s work on',
    { timeout: 150_000 },
    async () => {
      onTestFailed(() => console.error(`chaos seed ${SEED}: rerun with CHAOS_SEED=${SEED}`));
      const store = await testDatabase('chaos');
      db = new pg.Client({ connectionString: store });
      await db.connect();
      const query = async <T>(sql: string, values: unknown[] = []) => (await db.query(sql, values)).rows as T[];
      const start = () =>
        startReplica({ store, service: { url: service.url, apiKey: service.apiKey }, timeoutSeconds: TIMEOUT_SECONDS });
      for (let index = 0; index < REPLICAS; index++) replicas[index] = await start();
      const live = () => replicas.filter((replica): replica is Replica => replica !== undefined);

      // Kills: which items were being sent, and which were claimed, when each replica died.
      const sendingAtDeath = new Set<number>();
      const takeovers: {
        killedAt: number;
        items: { id: number; updatedAt: number }[];
        finishedAt: Map<number, number>;
      }[] = [];
      const { baselines, deliveries, finals } = plan();
      const senders = { done: false };
      // Sends a delivery to live replicas until one acknowledges it (a sender that retries).
      const acknowledged = new Set<string>();
      const deliver = async (delivery: Delivery) => {
        for (let attempt = 0; attempt < 100; attempt++) {
          const target = sends.pick(live());
          const answer = await send(target.port, delivery);
          if ('status' in answer && answer.status >= 200 && answer.status < 300) {
            acknowledged.add(delivery.id);
            return;
          }
          await pause(100);
        }
      };
      // Each Flux object's first sight, its baseline, acknowledged before its deployment's events.
      for (const baseline of baselines) await deliver(baseline);
      expect([...acknowledged], `seed ${SEED}: the baselines acknowledged`).toEqual(baselines.map(({ id }) => id));
      const started = Date.now();

      const killer = (async () => {
        while (!calm) {
          await pause(1_500 + kills.next() * 2_500);
          if (calm) break;
          // Mostly a replica in the middle of work (holding a lease), else any.
          const leased = await query<{ owner: string }>(
            `SELECT lease_owner AS owner FROM report_deployment.keys WHERE lease_owner IS NOT NULL AND lease_until > $1`,
            [Date.now()],
          );
          const busyPids = new Set(leased.map((row) => Number(row.owner.split(':').at(-2))));
          const candidates = [...replicas.keys()].filter((slot) => replicas[slot]);
          const working = candidates.filter((slot) => busyPids.has(replicas[slot]?.pid ?? -1));
          const index = kills.next() < 0.8 && working.length ? kills.pick(working) : kills.pick(candidates);
          if (live().length < 2 || index === undefined) continue;
          const victim = replicas[index] as Replica;
          replicas[index] = undefined;
          victim.kill('SIGKILL');
          await victim.ended;
          const killedAt = Date.now();
          for (const { id } of await query<{ id: string }>(
            `SELECT id FROM report_deployment.items WHERE state = 'sending'`,
          ))
            sendingAtDeath.add(Number(id));
          const claimed = await query<{ id: string; updated_at: string }>(
            `SELECT i.id, i.updated_at FROM report_deployment.keys k JOIN report_deployment.items i ON i.key = k.key
           WHERE k.lease_owner LIKE $1 AND i.state IN ('pending', 'sending')
             AND i.id = (SELECT min(id) FROM report_deployment.items o WHERE o.key = k.key AND o.state IN ('pending', 'sending', 'held'))`,
            [`%:${victim.pid}:%`],
          );
          takeovers.push({
            killedAt,
            items: claimed.map((row) => ({ id: Number(row.id), updatedAt: Number(row.updated_at) })),
            finishedAt: new Map(),
          });
          await pause(300 + kills.next() * 1_500);
          replicas[index] = await start();
        }
      })();

      // Takeovers watched as they happen: when each item a dead replica held was next written.
      const watcher = (async () => {
        while (!senders.done || takeovers.some((kill) => kill.finishedAt.size < kill.items.length)) {
          for (const kill of takeovers) {
            const open = kill.items.filter((item) => !kill.finishedAt.has(item.id));
            if (open.length === 0) continue;
            const rows = await query<{ id: string; updated_at: string }>(
              `SELECT id, updated_at FROM report_deployment.items WHERE id = ANY($1)`,
              [open.map((item) => item.id)],
            );
            for (const row of rows) {
              const before = open.find((item) => item.id === Number(row.id));
              if (before && Number(row.updated_at) > before.updatedAt) kill.finishedAt.set(before.id, Date.now());
            }
          }
          if (Date.now() - started > CHAOS_MS + DRAIN_MS + 30_000) break;
          await pause(200);
        }
      })();

      // Deliveries, four at a time, each to a live replica until one acknowledges it.
      const queue = [...deliveries];
      const spacing = CHAOS_MS / deliveries.length;
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          for (let delivery = queue.shift(); delivery; delivery = queue.shift()) {
            await pause(spacing * 4 * sends.next() * 2);
            await deliver(delivery);
          }
        }),
      );
      calm = true;
      senders.done = true;
      await killer;
      for (let index = 0; index < REPLICAS; index++) replicas[index] ??= await start();

      // Drained: nothing pending or being sent but behind a held create (which waits for the operator).
      const busy = async () =>
        Number(
          (
            await query<{ n: string }>(
              `SELECT count(*) AS n FROM report_deployment.items WHERE state IN ('pending', 'sending')`,
            )
          )[0]?.n,
        );
      const drainedBy = Date.now() + DRAIN_MS;
      while ((await busy()) > 0 && Date.now() < drainedBy) await pause(250);
      const stuck = () =>
        query(
          `SELECT i.id, i.key, i.state, i.attempts, i.next_at - $1::bigint AS due_in, i.error, k.lease_owner, k.lease_until - $1::bigint AS lease_in, k.ready_at - $1::bigint AS ready_in
         FROM report_deployment.items i JOIN report_deployment.keys k ON k.key = i.key WHERE ${WORKABLE}`,
          [Date.now()],
        );
      expect(await stuck(), `seed ${SEED}: the queue drained`).toEqual([]);

      // Each held create: its answer was lost (or cut), or it was being sent when its replica died.
      const byKey = new Map(deliveries.map((delivery) => [keyOf(delivery), delivery.deployment]));
      const deploymentOf = new Map(deliveries.map((delivery) => [delivery.deployment.id, delivery.deployment]));
      const held = JSON.parse(
        (await runCli(['deliveries', '--store', store, '--state', 'held', '--json'], { killAfterMs: 20_000 })).stdout,
      ) as { id: number; key: string }[];
      for (const item of held) {
        const sha = byKey.get(item.key)?.sha;
        const unanswered = service.requests.some(
          (request) =>
            request.method === 'POST' &&
            (request.body as { commitSha?: string }).commitSha === sha &&
            !request.answered,
        );
        expect(unanswered || sendingAtDeath.has(item.id), `seed ${SEED}: held item ${item.id} (${item.key})`).toBe(
          true,
        );
        // The operator's call: resolved where the service has it, sent again where it has not.
        const existing = [...service.deployments.values()].find((deployment) => deployment.body.commitSha === sha);
        const args = existing
          ? ['deliveries', 'resolve', String(item.id), '--deployment-id', String(existing.id)]
          : ['deliveries', 'retry', String(item.id)];
        expect(
          (await runCli([...args, '--store', store], { killAfterMs: 20_000 })).exitCode,
          `seed ${SEED}: ${args.join(' ')}`,
        ).toBe(0);
      }
      while ((await busy()) > 0 && Date.now() < drainedBy + 15_000) await pause(250);
      expect(await busy(), `seed ${SEED}: drained after the operator`).toBe(0);

      // Every deployment exactly once, with its final status; a start, where recorded, first.
      for (const [id, final] of finals) {
        const sha = deploymentOf.get(id)?.sha;
        const recorded = [...service.deployments.values()].filter((deployment) => deployment.body.commitSha === sha);
        expect(recorded.length, `seed ${SEED}: deployment ${id} recorded once`).toBe(1);
        const statuses = recorded[0]?.statuses ?? [];
        expect(statuses.at(-1), `seed ${SEED}: deployment ${id}'s final status`).toBe(final);
        expect(statuses.filter((status) => status === 'STARTED').length <= 1 && statuses.indexOf('STARTED') <= 0).toBe(
          true,
        );
      }
      // A Flux object's baseline is no deployment.
      for (const { deployment } of baselines) {
        const recorded = [...service.deployments.values()].filter(
          (recorded) => recorded.body.commitSha === deployment.baseline,
        );
        expect(recorded, `seed ${SEED}: deployment ${deployment.id}'s baseline recorded`).toEqual([]);
      }
      // Per deployment, never two requests at once.
      const idOfSha = new Map(
        [...service.deployments.values()].map((deployment) => [deployment.body.commitSha, String(deployment.id)]),
      );
      const byDeployment = new Map<string, RecordedRequest[]>();
      for (const request of service.requests) {
        const id =
          request.method === 'POST'
            ? idOfSha.get((request.body as { commitSha?: string }).commitSha)
            : /\/deployment\/([^/]+)$/.exec(request.path)?.[1];
        if (id) byDeployment.set(id, [...(byDeployment.get(id) ?? []), request]);
      }
      for (const [id, requests] of byDeployment) {
        requests.sort((a, b) => a.at - b.at);
        for (let index = 1; index < requests.length; index++) {
          const before = requests[index - 1] as RecordedRequest;
          expect(
            (requests[index] as RecordedRequest).at,
            `seed ${SEED}: deployment ${id}: requests overlapped`,
          ).toBeGreaterThanOrEqual(before.closedAt ?? Infinity);
        }
      }
      // Every acknowledged delivery that records something stored once (an idle state records nothing),
      // as an item where it had something to send: every end (nothing else ends its deployment), a
      // start only where it came before its end, a Flux baseline never (a delivery whose every event
      // is skipped as it arrives leaves its ids and no item); nothing left claimed, failed or held.
      const items = await query<{ source: Source; delivery_id: string; key: string; status: string }>(
        `SELECT source, delivery_id, key, status FROM report_deployment.items`,
      );
      const asStored = (item: (typeof items)[0]) =>
        item.source === 'github' || item.source === 'gitlab'
          ? `${item.source} ${item.delivery_id}`
          : `${item.source} ${item.key} ${item.status}`;
      const sent = new Map([...baselines, ...deliveries].map((delivery) => [delivery.id, delivery]));
      const expected = [...acknowledged]
        .filter((id) => !id.startsWith('idle-'))
        .map((id) => storedAs(sent.get(id) as Delivery))
        .sort();
      const storedItems = items.map(asStored).sort();
      expect(new Set(storedItems).size, `seed ${SEED}: each stored once`).toBe(storedItems.length);
      expect(
        storedItems.filter((item) => !expected.includes(item)),
        `seed ${SEED}: only what was sent`,
      ).toEqual([]);
      const ends = [...acknowledged]
        .filter((id) => id.startsWith('end-'))
        .map((id) => storedAs(sent.get(id) as Delivery));
      expect(
        ends.filter((end) => !storedItems.includes(end)),
        `seed ${SEED}: every end stored`,
      ).toEqual([]);
      expect(
        baselines.filter((baseline) => storedItems.includes(storedAs(baseline))),
        `seed ${SEED}: no baseline`,
      ).toEqual([]);
      // Each delivery's ids: GitHub's twice (its delivery id and its signed body's digest).
      const stored = await query<{ n: string }>(`SELECT count(*) AS n FROM report_deployment.deliveries`);
      const github = expected.filter((entry) => entry.startsWith('github ')).length;
      expect(Number(stored[0]?.n), `seed ${SEED}: one delivery each`).toBe(expected.length + github);
      expect(await query(`SELECT key FROM report_deployment.keys WHERE lease_owner IS NOT NULL`)).toEqual([]);
      expect(await query(`SELECT id, state FROM report_deployment.items WHERE state IN ('failed', 'held')`)).toEqual(
        [],
      );

      // A killed replica's work was finished by another within 30 s.
      await watcher;
      expect(takeovers.length, `seed ${SEED}: replicas were killed`).toBeGreaterThan(0);
      for (const kill of takeovers) {
        for (const item of kill.items) {
          const finishedAt = kill.finishedAt.get(item.id);
          expect(finishedAt, `seed ${SEED}: item ${item.id} taken over`).toBeDefined();
          expect((finishedAt as number) - kill.killedAt, `seed ${SEED}: item ${item.id} waited`).toBeLessThanOrEqual(
            30_000,
          );
        }
      }
      const faulted = service.requests.filter((request) => !request.answered).length;
      console.info(
        `chaos seed ${SEED}: ${deliveries.length} deliveries (${SOURCES.map((source) => `${deliveries.filter((delivery) => delivery.source === source).length} ${source}`).join(', ')}) and ${baselines.length} baselines, ${takeovers.length} kills, ${takeovers.reduce((n, kill) => n + kill.items.length, 0)} items taken over, ${held.length} held creates settled, ${service.requests.length} requests (${faulted} unanswered)`,
      );
      // Each stops cleanly.
      for (const replica of live()) replica.kill('SIGTERM');
      expect(await Promise.all(live().map((replica) => replica.ended))).toEqual(live().map(() => 0));
    },
  );
});
