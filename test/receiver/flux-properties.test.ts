// Flux's events as a fleet sends them, through the source and a real store: the same object in two
// clusters, events late, replayed and out of order, Helm upgrades. Whatever the arrival, one
// cluster's object never moves another's baseline, an old revision is never recorded after a newer
// one, the current revision is never recorded again at its next interval, and every Helm upgrade is
// a deployment.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { flux } from '../../src/receiver/sources/flux.ts';
import { openSqliteStore } from '../../src/receiver/store/sqlite.ts';
import type { Store } from '../../src/receiver/store/store.ts';
import { fixture, request } from './helpers/request.ts';

const RUNS = { numRuns: 100 };
const T0 = Date.parse('2030-01-01T00:00:00Z');

/** One Flux event as notification-controller sends it, and its revision's place in the object's history. */
interface FluxEvent {
  body: Record<string, unknown>;
  revision: number;
  at: number;
}

interface Cluster {
  uid: string;
  cluster: string;
  kind: 'Kustomization' | 'HelmRelease';
}

const PROD: Cluster = { uid: '11111111-1111-4111-8111-111111111111', cluster: 'prod-eu', kind: 'Kustomization' };
const STAGING: Cluster = { uid: '22222222-2222-4222-8222-222222222222', cluster: 'staging-eu', kind: 'Kustomization' };

const sha = (revision: number) => revision.toString(16).padStart(40, '0');

function fluxEvent(cluster: Cluster, reason: string, revision: number, at: number): FluxEvent {
  const base = fixture('flux', 'kustomization-succeeded.json');
  const body = {
    ...base,
    involvedObject: { ...(base.involvedObject as object), kind: cluster.kind, uid: cluster.uid },
    reason,
    timestamp: new Date(at).toISOString(),
    metadata: {
      revision: cluster.kind === 'HelmRelease' ? `1.${revision}.0` : `main@sha1:${sha(revision)}`,
      cluster: cluster.cluster,
      env: 'Production',
    },
  };
  return { body, revision, at };
}

/** A helm-controller event: its message names the Helm release version, where it has one. */
function helmEvent(cluster: Cluster, reason: string, chart: number, release: number | undefined, at: number) {
  const event = fluxEvent(cluster, reason, chart, at);
  const name = release === undefined ? 'apps/apps' : `apps/apps.v${release}`;
  const done = reason.endsWith('Succeeded') ? 'succeeded' : 'failed';
  event.body.message = `Helm ${reason.replace(/(Succeeded|Failed)$/, '').toLowerCase()} ${done} for release ${name} with chart apps@1.${chart}.0`;
  return event;
}

/** Per revision: whether a Progressing came first, whether it failed, and how many intervals repeated its end. */
const revisionSteps = fc.array(fc.record({ progressing: fc.boolean(), failed: fc.boolean(), intervals: fc.nat(2) }), {
  minLength: 1,
  maxLength: 4,
});

/** A Kustomization's events, revision after revision, ten seconds apart, in the order it sent them. */
function kustomizationHistory(cluster: Cluster) {
  return revisionSteps.map((revisions) => {
    const events: FluxEvent[] = [];
    let at = T0;
    revisions.forEach((step, revision) => {
      if (step.progressing) events.push(fluxEvent(cluster, 'Progressing', revision, (at += 10_000)));
      const end = step.failed ? 'HealthCheckFailed' : 'ReconciliationSucceeded';
      for (let n = 0; n <= step.intervals; n++) events.push(fluxEvent(cluster, end, revision, (at += 10_000)));
    });
    return events;
  });
}

/** The events in any order, some sent again (a retry, a replay), at any place. */
function arrival(events: FluxEvent[]): fc.Arbitrary<FluxEvent[]> {
  return fc
    .tuple(
      fc.shuffledSubarray(events, { minLength: events.length }),
      fc.array(fc.tuple(fc.nat(events.length - 1), fc.nat(events.length)), { maxLength: 3 }),
    )
    .map(([order, replays]) => {
      const all = [...order];
      for (const [which, where] of replays) all.splice(where, 0, events[which] as FluxEvent);
      return all;
    });
}

const stores: Store[] = [];
async function closeAll(): Promise<void> {
  for (const opened of stores.splice(0)) await opened.close();
}
afterEach(closeAll);

function store(now: () => number = () => T0): Store {
  const opened = openSqliteStore(':memory:', { now });
  stores.push(opened);
  return opened;
}

/** Each delivery as the receiver takes it: parsed, then stored (a duplicate stores nothing). Answers those stored. */
async function deliver(target: Store, events: readonly FluxEvent[]): Promise<FluxEvent[]> {
  const stored: FluxEvent[] = [];
  for (const event of events) {
    const parsed = flux.parse(request(event.body));
    if (parsed.verdict !== 'accepted') throw new Error(`not accepted: ${JSON.stringify(parsed)}`);
    const result = await target.accept({ source: 'flux', deliveryId: parsed.deliveryId, events: parsed.events });
    if (result.kind === 'stored') stored.push(event);
  }
  return stored;
}

/** What became of every item: its delivery, key, status, state and note, in the order stored. */
async function outcomes(target: Store, uid?: string) {
  const items = await target.list(['pending', 'skipped'], 1000);
  return items
    .filter((item) => uid === undefined || item.key.startsWith(`flux:${uid}:`))
    .map((item) => [item.deliveryId, item.key, item.status, item.state, item.note]);
}

/** The keys queued (recorded), each once, in the order their first event was queued. */
async function recordedKeys(target: Store): Promise<string[]> {
  const pending = await target.list(['pending'], 1000);
  return [...new Set(pending.map((item) => item.key))];
}

const revisionOf = (key: string) => {
  const tail = key.split(':').at(-1) as string;
  return /^1\.\d+\.0$/.test(tail) ? Number(tail.split('.')[1]) : parseInt(tail, 16);
};

describe('Flux through the source and the store', () => {
  it("keeps each cluster's object to its own baseline, however two clusters' events interleave", async () => {
    const fleet = fc
      .tuple(
        kustomizationHistory(PROD).chain(arrival),
        kustomizationHistory(STAGING).chain(arrival),
        fc.array(fc.boolean(), { maxLength: 40 }),
      )
      .map(([prod, staging, picks]) => {
        // Merged, each cluster's own arrival order kept.
        const merged: FluxEvent[] = [];
        const [a, b] = [[...prod], [...staging]];
        for (const pick of picks) {
          const next = (pick ? a : b).shift() ?? (pick ? b : a).shift();
          if (next) merged.push(next);
        }
        return { prod, staging, merged: [...merged, ...a, ...b] };
      });
    await fc.assert(
      fc.asyncProperty(fleet, async ({ prod, staging, merged }) => {
        const [alone, alsoAlone, together] = [store(), store(), store()];
        await deliver(alone, prod);
        await deliver(alsoAlone, staging);
        await deliver(together, merged);
        expect(await outcomes(together, PROD.uid)).toEqual(await outcomes(alone));
        expect(await outcomes(together, STAGING.uid)).toEqual(await outcomes(alsoAlone));
        await closeAll();
      }),
      RUNS,
    );
  });

  it('never records an old revision after a newer one, nor the current one again at its next interval', async () => {
    const arrived = kustomizationHistory(PROD).chain((events) => arrival(events).map((order) => ({ events, order })));
    await fc.assert(
      fc.asyncProperty(arrived, async ({ events, order }) => {
        const target = store();
        await deliver(target, order);
        const revisions = (await recordedKeys(target)).map(revisionOf);
        expect(revisions).toEqual([...revisions].sort((a, b) => a - b));
        expect(new Set(revisions).size).toBe(revisions.length);
        // Ten minutes on, the newest revision Flux sent succeeds again, as at every interval.
        const newest = events.reduce((a, b) => (b.at >= a.at ? b : a));
        const before = await recordedKeys(target);
        await deliver(target, [fluxEvent(PROD, 'ReconciliationSucceeded', newest.revision, newest.at + 600_000)]);
        expect(await recordedKeys(target)).toEqual(before);
        await closeAll();
      }),
      RUNS,
    );
  });

  it('takes no periodic end of another revision stamped in the second of the newest event, nor moves back for it', async () => {
    const arrived = kustomizationHistory(PROD).chain((events) =>
      fc.record({
        order: arrival(events),
        other: fc.nat(events.length),
        end: fc.constantFrom('ReconciliationSucceeded', 'HealthCheckFailed'),
      }),
    );
    await fc.assert(
      fc.asyncProperty(arrived, async ({ order, other, end }) => {
        const target = store();
        // The newest event stored (a repeat of an event's revision, status and reason is a duplicate).
        const newest = (await deliver(target, order)).reduce((a, b) => (b.at >= a.at ? b : a));
        // Any revision but that one: one it left, or one it has not sent yet.
        fc.pre(other !== newest.revision);
        const before = await outcomes(target);
        // Stamped in the same second: Flux's times cannot say which came last.
        await deliver(target, [fluxEvent(PROD, end, other, newest.at)]);
        const pending = (await outcomes(target)).filter((item) => item[3] === 'pending');
        expect(pending).toEqual(before.filter((item) => item[3] === 'pending'));
        // The object is still at the newest revision: its next interval records nothing.
        await deliver(target, [fluxEvent(PROD, 'ReconciliationSucceeded', newest.revision, newest.at + 60_000)]);
        expect((await outcomes(target)).filter((item) => item[3] === 'pending')).toEqual(pending);
        await closeAll();
      }),
      RUNS,
    );
  });

  it('lets a controller clock that ran ahead, however far, hold the order for no more than five minutes', async () => {
    const skews = fc.integer({ min: 1, max: 30 * 24 * 3600 }).map((seconds) => seconds * 1000);
    await fc.assert(
      fc.asyncProperty(kustomizationHistory(PROD), skews, fc.nat(3600), async (events, skew, later) => {
        let clock = T0;
        const target = store(() => clock);
        // The history sent by a controller whose clock ran `skew` ahead, received as it happened.
        for (const event of events) {
          clock = event.at;
          await deliver(target, [fluxEvent(PROD, event.body.reason as string, event.revision, event.at + skew)]);
        }
        // Its clock set right: a change five minutes after the last event, or later, is a deployment.
        const next = events.length + 1;
        clock = (events.at(-1) as FluxEvent).at + 300_001 + later * 1000;
        const before = await recordedKeys(target);
        await deliver(target, [fluxEvent(PROD, 'Progressing', next, clock)]);
        expect(await recordedKeys(target)).toEqual([...before, `flux:${PROD.uid}:main@sha1:${sha(next)}`]);
        await closeAll();
      }),
      RUNS,
    );
  });

  it("records every Helm install and upgrade, values-only ones and retries too, the first after the receiver's start too, each once", async () => {
    const helm: Cluster = { ...PROD, kind: 'HelmRelease' };
    // Per Helm action: a new chart version or the same (a values-only upgrade), a failed try before
    // it succeeds, and how many intervals repeated its success.
    const steps = fc.array(fc.record({ newChart: fc.boolean(), failedFirst: fc.boolean(), intervals: fc.nat(2) }), {
      minLength: 1,
      maxLength: 5,
    });
    const releases = steps.map((list) => {
      const events: FluxEvent[] = [];
      const starts: number[] = [];
      const succeeded: string[] = [];
      let [at, chart, release] = [T0, 0, 0];
      list.forEach((step, n) => {
        if (n > 0 && step.newChart) chart++;
        const action = n === 0 ? 'Install' : 'Upgrade';
        starts.push(events.length);
        // A failed install or upgrade makes a Helm release too, but its message names none.
        if (step.failedFirst) {
          release++;
          events.push(helmEvent(helm, `${action}Failed`, chart, undefined, (at += 10_000)));
        }
        events.push(helmEvent(helm, `${action}Succeeded`, chart, ++release, (at += 10_000)));
        succeeded.push(`flux:${helm.uid}:1.${chart}.0:v${release}`);
        for (let k = 0; k < step.intervals; k++)
          events.push(fluxEvent(helm, 'ReconciliationSucceeded', chart, (at += 10_000)));
      });
      return { events, starts, succeeded };
    });
    await fc.assert(
      fc.asyncProperty(releases, fc.nat(4), async ({ events, starts, succeeded }, skip) => {
        // The receiver starts at any action of the history: what came before it never arrived.
        const from = Math.min(skip, starts.length - 1);
        const target = store();
        await deliver(target, events.slice(starts[from]));
        const pending = await target.list(['pending'], 1000);
        expect(pending.filter((item) => item.status === 'SUCCEEDED').map((item) => item.key)).toEqual(
          succeeded.slice(from),
        );
        await closeAll();
      }),
      RUNS,
    );
  });
});
