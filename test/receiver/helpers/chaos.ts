// The chaos scenario: three `serve` processes of the packed CLI on one PostgreSQL database and one
// faulty service (5xx, resets, slow answers, answers lost after the service acted), deliveries of all
// four sources (GitHub, GitLab, Argo CD, Flux) with duplicates, ends before their starts and ends
// without starts spread across them, replicas killed (SIGKILL) and started again at random. Each Flux
// object is first seen at a baseline revision (acknowledged before the chaos: the first sight of an
// object is no deployment), then deploys a revision of its own. At the end, after an operator settles
// the held creates: every deployment recorded exactly once with its final status and no baseline
// recorded, requests of one deployment never two at once, nothing left claimed, each held create one
// whose answer was lost or that was being sent when its replica died, and a killed replica's work
// finished by another within 30 s.
// Everything follows from the seed but the machine's timing: test/receiver/chaos.test.ts runs one
// fixed seed in `npm test`, test/receiver/chaos-soak.test.ts a random one in `npm run test:soak`.
import pg from 'pg';
import { expect } from 'vitest';
import { type Fault, type FakeService, type RecordedRequest, startFakeService } from '../../helpers/fake-service.ts';
import { testDatabase } from '../../helpers/postgres.ts';
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
} from './replicas.ts';
import { runCli } from '../../helpers/run-cli.ts';
import { waitFor } from '../../helpers/wait.ts';

export interface ChaosRun {
  seed: number;
  /** How many deployments, each of a source picked by the seed (the first four one of each). */
  deployments: number;
  /** How long the deliveries are spread over, the service faulting and replicas killed meanwhile. */
  chaosMs: number;
}

const TIMEOUT_SECONDS = 2;
const REPLICAS = 3;
/** How long the queue may take to drain once the chaos is over (a killed replica's lease is 9 s). */
const DRAIN_MS = 40_000;
/** An item the receivers should be working on: pending or being sent, and no held create before it. */
const WORKABLE = `i.state IN ('pending', 'sending') AND NOT EXISTS (SELECT 1 FROM report_deployment.items h
  WHERE h.key = i.key AND h.state = 'held' AND h.id < i.id)`;

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
type Random = ReturnType<typeof seeded>;
// A wait that IS the scenario: a sender's pause before it tries again, the spacing of deliveries and
// kills. Waits for something use waitFor.
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

interface Plan {
  baselines: Delivery[];
  deliveries: Delivery[];
  /** Each deployment's final status, by its id. */
  finals: Map<number, string>;
}

/**
 * Each deployment's deliveries: maybe a start, its end (maybe first), some twice, all shuffled
 * together; and each Flux object's baseline, sent before them.
 */
function plan(seed: number, deployments: number, planned: Random): Plan {
  const baselines: Delivery[] = [];
  const deliveries: Delivery[] = [];
  const finals = new Map<number, string>();
  // Fixed widths, so that no two commits of a run are the same (a deployment's, `d`; a baseline's, `b`).
  const commit = (index: number, kind: 'd' | 'b') =>
    `${kind}${index.toString(16).padStart(4, '0')}${seed.toString(16).padStart(8, '0')}`.padEnd(40, '0');
  for (let index = 1; index <= deployments; index++) {
    // Every source in every run, however short.
    const source = index <= SOURCES.length ? (SOURCES[index - 1] as Source) : planned.pick(SOURCES);
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
        id: `baseline-${index}-${seed}`,
        source,
        deployment,
        state: 'ReconciliationSucceeded',
        baseline: true,
      });
    const own: Delivery[] = [];
    if (planned.next() < 0.75)
      own.push({ id: `start-${index}-${seed}`, source, deployment, state: planned.pick(words.starts) });
    own.push({ id: `end-${index}-${seed}`, source, deployment, state: end });
    if (planned.next() < 0.2) own.reverse(); // an end before its start
    // A state that records nothing.
    if (planned.next() < 0.2) own.push({ id: `idle-${index}-${seed}`, source, deployment, state: words.idle });
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
function chaosFault(faults: Random, calm: () => boolean) {
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

/** The replicas' store, seen from outside. */
function storeQueries(db: pg.Client) {
  // A lease's owner is `host:pid:n`.
  const pids = (rows: { owner: string }[]) => new Set(rows.map((row) => Number(row.owner.split(':').at(-2))));
  const query = async <T>(sql: string, values: unknown[] = []) => (await db.query(sql, values)).rows as T[];
  return {
    query,
    /** How many items are pending or being sent. */
    busy: async () =>
      Number(
        (
          await query<{ n: string }>(
            `SELECT count(*) AS n FROM report_deployment.items WHERE state IN ('pending', 'sending')`,
          )
        )[0]?.n,
      ),
    /** The items the receivers should be working on, with their keys' leases: none once drained. */
    stuck: () =>
      query(
        `SELECT i.id, i.key, i.state, i.attempts, i.next_at - $1::bigint AS due_in, i.error, k.lease_owner, k.lease_until - $1::bigint AS lease_in, k.ready_at - $1::bigint AS ready_in
         FROM report_deployment.items i JOIN report_deployment.keys k ON k.key = i.key WHERE ${WORKABLE}`,
        [Date.now()],
      ),
    /** The pids of the replicas holding a lease now. */
    leaseHolders: async () =>
      pids(
        await query<{ owner: string }>(
          `SELECT lease_owner AS owner FROM report_deployment.keys WHERE lease_owner IS NOT NULL AND lease_until > $1`,
          [Date.now()],
        ),
      ),
    /** The pids of the replicas sending an item now, under their lease. */
    senders: async () =>
      pids(
        await query<{ owner: string }>(
          `SELECT DISTINCT k.lease_owner AS owner FROM report_deployment.keys k JOIN report_deployment.items i ON i.key = k.key
         WHERE k.lease_owner IS NOT NULL AND k.lease_until > $1 AND i.state = 'sending'`,
          [Date.now()],
        ),
      ),
  };
}
type Store = ReturnType<typeof storeQueries>;

/** A replica killed, the items it had claimed then, and when each was next written by another. */
interface Takeover {
  killedAt: number;
  items: { id: number; updatedAt: number }[];
  finishedAt: Map<number, number>;
}

/** Runs the scenario with `run`'s seed and size, and checks every outcome (a failure names the seed). */
export async function chaos(run: ChaosRun): Promise<void> {
  const { seed } = run;
  // One stream each, so that the plan and each actor's choices follow from the seed alone.
  const [planned, faults, kills, sends] = [seeded(seed), seeded(seed + 1), seeded(seed + 2), seeded(seed + 3)];
  let calm = false;
  const service = await startFakeService({ faultFor: chaosFault(faults, () => calm) });
  const replicas: (Replica | undefined)[] = [];
  const storeUrl = await testDatabase('chaos');
  const db = new pg.Client({ connectionString: storeUrl });
  try {
    await db.connect();
    const store = storeQueries(db);
    const start = () =>
      startReplica({
        store: storeUrl,
        service: { url: service.url, apiKey: service.apiKey },
        timeoutSeconds: TIMEOUT_SECONDS,
      });
    for (let index = 0; index < REPLICAS; index++) replicas[index] = await start();
    const live = () => replicas.filter((replica): replica is Replica => replica !== undefined);

    const { baselines, deliveries, finals } = plan(seed, run.deployments, planned);
    // Sends a delivery to live replicas until one acknowledges it (a sender that retries).
    const acknowledged = new Set<string>();
    const deliver = async (delivery: Delivery) => {
      for (let attempt = 0; attempt < 100; attempt++) {
        const answer = await send(sends.pick(live()).port, delivery);
        if ('status' in answer && answer.status >= 200 && answer.status < 300) {
          acknowledged.add(delivery.id);
          return;
        }
        await pause(100);
      }
    };
    // Each Flux object's first sight, its baseline, acknowledged before its deployment's events.
    for (const baseline of baselines) await deliver(baseline);
    expect([...acknowledged], `seed ${seed}: the baselines acknowledged`).toEqual(baselines.map(({ id }) => id));
    const started = Date.now();

    const sendingAtDeath = new Set<number>();
    const takeovers: Takeover[] = [];
    const senders = { done: false };
    const killer = killReplicas({ replicas, start, store, kills, calm: () => calm }, (kill, sending) => {
      takeovers.push(kill);
      for (const id of sending) sendingAtDeath.add(id);
    });
    const watcher = watchTakeovers(store, takeovers, () => senders.done, started + run.chaosMs + DRAIN_MS + 30_000);

    // Deliveries, four at a time, each to a live replica until one acknowledges it.
    const queue = [...deliveries];
    const spacing = run.chaosMs / deliveries.length;
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
    const drained = async () => (await store.stuck()).length === 0;
    await waitFor(drained, { timeoutMs: DRAIN_MS, everyMs: 250 }).catch(() => undefined);
    expect(await store.stuck(), `seed ${seed}: the queue drained`).toEqual([]);

    const held = await settleHeld({ seed, storeUrl, service, deliveries, sendingAtDeath });
    // Then nothing left at all.
    await waitFor(async () => (await store.busy()) === 0, { timeoutMs: 30_000, everyMs: 250 }).catch(() => undefined);
    expect(await store.busy(), `seed ${seed}: drained after the operator`).toBe(0);

    checkRecorded(seed, service, { baselines, deliveries, finals });
    await checkStored(seed, store, { baselines, deliveries, acknowledged });

    // A killed replica's work was finished by another within 30 s; one at least was killed mid-work.
    await watcher;
    expect(takeovers.length, `seed ${seed}: replicas were killed`).toBeGreaterThan(0);
    expect(
      takeovers.some((kill) => kill.items.length > 0),
      `seed ${seed}: a replica killed in the middle of its work`,
    ).toBe(true);
    for (const kill of takeovers) {
      for (const item of kill.items) {
        const finishedAt = kill.finishedAt.get(item.id);
        expect(finishedAt, `seed ${seed}: item ${item.id} taken over`).toBeDefined();
        expect((finishedAt as number) - kill.killedAt, `seed ${seed}: item ${item.id} waited`).toBeLessThanOrEqual(
          30_000,
        );
      }
    }
    const faulted = service.requests.filter((request) => !request.answered).length;
    console.info(
      `chaos seed ${seed}: ${deliveries.length} deliveries (${SOURCES.map((source) => `${deliveries.filter((delivery) => delivery.source === source).length} ${source}`).join(', ')}) and ${baselines.length} baselines, ${takeovers.length} kills, ${takeovers.reduce((n, kill) => n + kill.items.length, 0)} items taken over, ${held} held creates settled, ${service.requests.length} requests (${faulted} unanswered), ${Math.round((Date.now() - started) / 1000)} s`,
    );
    // Each stops cleanly.
    for (const replica of live()) replica.kill('SIGTERM');
    expect(await Promise.all(live().map((replica) => replica.ended))).toEqual(live().map(() => 0));
  } finally {
    calm = true;
    for (const replica of replicas) replica?.kill('SIGKILL');
    await db.end().catch(() => undefined);
    await service.close();
  }
}

/**
 * Kills a replica every few seconds until `calm`, and starts another in its place. Until one has
 * died holding work, it waits for a replica in the middle of sending and kills that one; then mostly
 * one holding a lease, else any. Each kill is reported with the items being sent as it died.
 */
async function killReplicas(
  chaos: {
    replicas: (Replica | undefined)[];
    start: () => Promise<Replica>;
    store: Store;
    kills: Random;
    calm: () => boolean;
  },
  killed: (kill: Takeover, sending: number[]) => void,
): Promise<void> {
  const { replicas, store, kills } = chaos;
  let midWork = false;
  while (!chaos.calm()) {
    await pause(1_500 + kills.next() * 2_500);
    if (chaos.calm()) break;
    const candidates = [...replicas.keys()].filter((slot) => replicas[slot]);
    const working = (busy: Set<number>) => candidates.filter((slot) => busy.has(replicas[slot]?.pid ?? -1));
    let index: number | undefined;
    if (!midWork) {
      // Within a few seconds some replica is sending: the deliveries keep coming, a fifth of the answers slow.
      const sending = async () => working(await store.senders());
      await waitFor(async () => (await sending()).length > 0 || chaos.calm(), { timeoutMs: 10_000, everyMs: 20 }).catch(
        () => undefined,
      );
      index = (await sending())[0];
    } else {
      const leased = working(await store.leaseHolders());
      index = kills.next() < 0.8 && leased.length ? kills.pick(leased) : kills.pick(candidates);
    }
    if (candidates.length < 2 || index === undefined) continue;
    const victim = replicas[index] as Replica;
    replicas[index] = undefined;
    victim.kill('SIGKILL');
    await victim.ended;
    const killedAt = Date.now();
    const sending = await store.query<{ id: string }>(`SELECT id FROM report_deployment.items WHERE state = 'sending'`);
    const claimed = await store.query<{ id: string; updated_at: string }>(
      `SELECT i.id, i.updated_at FROM report_deployment.keys k JOIN report_deployment.items i ON i.key = k.key
       WHERE k.lease_owner LIKE $1 AND i.state IN ('pending', 'sending')
         AND i.id = (SELECT min(id) FROM report_deployment.items o WHERE o.key = k.key AND o.state IN ('pending', 'sending', 'held'))`,
      [`%:${victim.pid}:%`],
    );
    const items = claimed.map((row) => ({ id: Number(row.id), updatedAt: Number(row.updated_at) }));
    midWork ||= items.length > 0;
    killed(
      { killedAt, items, finishedAt: new Map() },
      sending.map((row) => Number(row.id)),
    );
    await pause(300 + kills.next() * 1_500);
    replicas[index] = await chaos.start();
  }
}

/** Watches the takeovers as they happen: when each item a dead replica held was next written. */
async function watchTakeovers(store: Store, takeovers: Takeover[], sendersDone: () => boolean, until: number) {
  while (!sendersDone() || takeovers.some((kill) => kill.finishedAt.size < kill.items.length)) {
    for (const kill of takeovers) {
      const open = kill.items.filter((item) => !kill.finishedAt.has(item.id));
      if (open.length === 0) continue;
      const rows = await store.query<{ id: string; updated_at: string }>(
        `SELECT id, updated_at FROM report_deployment.items WHERE id = ANY($1)`,
        [open.map((item) => item.id)],
      );
      for (const row of rows) {
        const before = open.find((item) => item.id === Number(row.id));
        if (before && Number(row.updated_at) > before.updatedAt) kill.finishedAt.set(before.id, Date.now());
      }
    }
    if (Date.now() > until) break;
    // A poll: the store has no signal to wait on, and each write is timed to the poll's precision.
    await pause(200);
  }
}

/**
 * Each held create: its answer was lost (or cut), or it was being sent when its replica died. The
 * operator's call: resolved where the service has it, sent again where it has not. Returns how many.
 */
async function settleHeld(settle: {
  seed: number;
  storeUrl: string;
  service: FakeService;
  deliveries: Delivery[];
  sendingAtDeath: Set<number>;
}): Promise<number> {
  const { seed, storeUrl, service } = settle;
  const byKey = new Map(settle.deliveries.map((delivery) => [keyOf(delivery), delivery.deployment]));
  const held = JSON.parse(
    (await runCli(['deliveries', '--store', storeUrl, '--state', 'held', '--json'], { killAfterMs: 20_000 })).stdout,
  ) as { id: number; key: string }[];
  for (const item of held) {
    const sha = byKey.get(item.key)?.sha;
    const unanswered = service.requests.some(
      (request) =>
        request.method === 'POST' && (request.body as { commitSha?: string }).commitSha === sha && !request.answered,
    );
    expect(unanswered || settle.sendingAtDeath.has(item.id), `seed ${seed}: held item ${item.id} (${item.key})`).toBe(
      true,
    );
    const existing = [...service.deployments.values()].find((deployment) => deployment.body.commitSha === sha);
    const args = existing
      ? ['deliveries', 'resolve', String(item.id), '--deployment-id', String(existing.id)]
      : ['deliveries', 'retry', String(item.id)];
    expect(
      (await runCli([...args, '--store', storeUrl], { killAfterMs: 20_000 })).exitCode,
      `seed ${seed}: ${args.join(' ')}`,
    ).toBe(0);
  }
  return held.length;
}

/**
 * What the service holds: every deployment exactly once, with its final status, a start (where
 * recorded) first; no Flux baseline; and per deployment, never two requests at once.
 */
function checkRecorded(seed: number, service: FakeService, { baselines, deliveries, finals }: Plan): void {
  const deploymentOf = new Map(deliveries.map((delivery) => [delivery.deployment.id, delivery.deployment]));
  for (const [id, final] of finals) {
    const sha = deploymentOf.get(id)?.sha;
    const recorded = [...service.deployments.values()].filter((deployment) => deployment.body.commitSha === sha);
    expect(recorded.length, `seed ${seed}: deployment ${id} recorded once`).toBe(1);
    const statuses = recorded[0]?.statuses ?? [];
    expect(statuses.at(-1), `seed ${seed}: deployment ${id}'s final status`).toBe(final);
    expect(statuses.filter((status) => status === 'STARTED').length <= 1 && statuses.indexOf('STARTED') <= 0).toBe(
      true,
    );
  }
  for (const { deployment } of baselines) {
    const recorded = [...service.deployments.values()].filter(
      (recorded) => recorded.body.commitSha === deployment.baseline,
    );
    expect(recorded, `seed ${seed}: deployment ${deployment.id}'s baseline recorded`).toEqual([]);
  }
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
        `seed ${seed}: deployment ${id}: requests overlapped`,
      ).toBeGreaterThanOrEqual(before.closedAt ?? Infinity);
    }
  }
}

/**
 * What the store holds: every acknowledged delivery that records something stored once (an idle
 * state records nothing), as an item where it had something to send: every end (nothing else ends
 * its deployment), a start only where it came before its end, a Flux baseline never (a delivery
 * whose every event is skipped as it arrives leaves its ids and no item); nothing left claimed,
 * failed or held.
 */
async function checkStored(
  seed: number,
  store: Store,
  { baselines, deliveries, acknowledged }: Omit<Plan, 'finals'> & { acknowledged: Set<string> },
): Promise<void> {
  const items = await store.query<{ source: Source; delivery_id: string; key: string; status: string }>(
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
  expect(new Set(storedItems).size, `seed ${seed}: each stored once`).toBe(storedItems.length);
  expect(
    storedItems.filter((item) => !expected.includes(item)),
    `seed ${seed}: only what was sent`,
  ).toEqual([]);
  const ends = [...acknowledged].filter((id) => id.startsWith('end-')).map((id) => storedAs(sent.get(id) as Delivery));
  expect(
    ends.filter((end) => !storedItems.includes(end)),
    `seed ${seed}: every end stored`,
  ).toEqual([]);
  expect(
    baselines.filter((baseline) => storedItems.includes(storedAs(baseline))),
    `seed ${seed}: no baseline`,
  ).toEqual([]);
  // Each delivery's ids: GitHub's twice (its delivery id and its signed body's digest).
  const stored = await store.query<{ n: string }>(`SELECT count(*) AS n FROM report_deployment.deliveries`);
  const github = expected.filter((entry) => entry.startsWith('github ')).length;
  expect(Number(stored[0]?.n), `seed ${seed}: one delivery each`).toBe(expected.length + github);
  expect(await store.query(`SELECT key FROM report_deployment.keys WHERE lease_owner IS NOT NULL`)).toEqual([]);
  expect(await store.query(`SELECT id, state FROM report_deployment.items WHERE state IN ('failed', 'held')`)).toEqual(
    [],
  );
}
