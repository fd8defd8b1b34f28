// What every store engine must do (src/receiver/store/store.ts), as one suite each engine's test
// file runs: `storeContract('sqlite', engine)`. The clock is the test's: leases and retries move
// with it, nothing waits.
import { afterEach, describe, expect, it } from 'vitest';
import type { DeploymentStatus } from '../../../src/core/constants.ts';
import type { DeploymentEvent } from '../../../src/receiver/event.ts';
import type { Store, StoreOptions, Work } from '../../../src/receiver/store/store.ts';

type ReopenOptions = Pick<StoreOptions, 'sole'>;

export interface Engine {
  /** A store on a fresh place of its own; `reopen` opens the same place again (a restart). */
  fresh(now: () => number): Promise<{
    store: Store;
    reopen: (options?: ReopenOptions) => Promise<Store>;
    /** Makes the place refuse every write, as a full disk does (reads still answer); resolves to the undo. */
    refuseWrites: () => Promise<() => Promise<void>>;
    /** How many rows each table holds, read past the store. */
    rowCounts: () => Promise<Record<'deliveries' | 'items' | 'keys', number>>;
  }>;
  /** Several receivers share it (PostgreSQL): `sole` is ignored, a live lease may be another's. */
  shared?: boolean;
}

export function event(key: string, status: DeploymentStatus, extra: Partial<DeploymentEvent> = {}): DeploymentEvent {
  return {
    key,
    status,
    object: 'shop',
    fields: {
      artifactName: 'shop',
      version: '1.0.0',
      environment: 'prod',
      commitSha: 'a'.repeat(40),
      user: 'ana',
      branch: 'main',
    },
    ...extra,
  };
}

export function storeContract(name: string, engine: Engine): void {
  describe(`store contract: ${name}`, () => {
    let clock = Date.UTC(2030, 0, 1);
    const now = () => clock;
    const open: Store[] = [];
    async function fresh() {
      clock = Date.UTC(2030, 0, 1);
      const made = await engine.fresh(now);
      open.push(made.store);
      return {
        store: made.store,
        refuseWrites: made.refuseWrites,
        rowCounts: made.rowCounts,
        reopen: async (options?: ReopenOptions) => {
          const again = await made.reopen(options);
          open.push(again);
          return again;
        },
      };
    }
    afterEach(async () => {
      for (const store of open.splice(0)) await store.close().catch(() => undefined);
    });
    /** What became of the delivery: stored or duplicate (`acceptResult` for what was skipped). */
    const accept = async (store: Store, deliveryId: string, ...events: DeploymentEvent[]) =>
      (await store.accept({ source: 'github', deliveryId, events })).kind;
    const acceptResult = (store: Store, deliveryId: string, ...events: DeploymentEvent[]) =>
      store.accept({ source: 'github', deliveryId, events });
    const LEASE = 30_000;

    it('keeps how each item came: by webhook (the default) or by catch-up, skipped ones too', async () => {
      const { store } = await fresh();
      await accept(store, 'live-1', event('k1', 'STARTED'));
      await store.accept({
        source: 'github',
        deliveryId: 'caught-1',
        events: [event('k1', 'SUCCEEDED')],
        via: 'catch-up',
      });
      await store.accept({
        source: 'github',
        deliveryId: 'caught-2',
        events: [event('k1', 'STARTED'), event('k2', 'STARTED')],
        via: 'catch-up',
      });
      const items = await store.list(['pending', 'skipped'], 10);
      const seen = items.map(({ deliveryId, key, state, via }) => [deliveryId, key, state, via]);
      expect(seen.sort()).toEqual([
        ['caught-1', 'k1', 'pending', 'catch-up'],
        ['caught-2', 'k1', 'skipped', 'catch-up'],
        ['caught-2', 'k2', 'pending', 'catch-up'],
        ['live-1', 'k1', 'pending', 'live'],
      ]);
    });

    it('runs exclusive work when no other receiver runs it, and says so', async () => {
      const { store } = await fresh();
      let ran = 0;
      expect(await store.exclusive('catch-up:argocd', () => Promise.resolve(void ran++))).toBe(true);
      expect(ran).toBe(1);
      await expect(store.exclusive('catch-up:argocd', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
      // A failed work lets the name go.
      expect(await store.exclusive('catch-up:argocd', () => Promise.resolve(void ran++))).toBe(true);
      expect(ran).toBe(2);
    });

    it('says whether it holds a delivery, by its source and id (catch-up asks before it fetches one)', async () => {
      const { store } = await fresh();
      expect(await store.holds('github', 'd1')).toBe(false);
      await accept(store, 'd1', event('k1', 'STARTED'));
      expect(await store.holds('github', 'd1')).toBe(true);
      expect(await store.holds('gitlab', 'd1')).toBe(false);
      expect(await store.holds('github', 'd2')).toBe(false);
      // A delivery whose every event is skipped keeps its id: it is held.
      await accept(store, 'd3', event('k1', 'STARTED'));
      expect(await store.holds('github', 'd3')).toBe(true);
    });

    it('stores a delivery once: a second with its id stores nothing, another source with it stores', async () => {
      const { store } = await fresh();
      expect(await accept(store, 'd1', event('k1', 'STARTED'))).toBe('stored');
      expect(await accept(store, 'd1', event('k1', 'SUCCEEDED'))).toBe('duplicate');
      expect(await store.accept({ source: 'flux', deliveryId: 'd1', events: [event('k2', 'STARTED')] })).toEqual({
        kind: 'stored',
        skipped: [],
      });
      const items = await store.list(['pending'], 100);
      expect(items.map((item) => [item.key, item.status])).toEqual([
        ['k1', 'STARTED'],
        ['k2', 'STARTED'],
      ]);
    });

    it('knows a delivery again by its digest: the same signed body under a fresh id stores nothing', async () => {
      const { store } = await fresh();
      const DAY = 24 * 3600_000;
      const signed = (deliveryId: string, digestId: string) =>
        store.accept({ source: 'github', deliveryId, digestId, events: [event('k1', 'SUCCEEDED')] });
      expect(await signed('guid-1', 'sha256:aa')).toEqual({ kind: 'stored', skipped: [] });
      for (let index = 2; index <= 20; index++)
        expect(await signed(`guid-${index}`, 'sha256:aa')).toEqual({ kind: 'duplicate' });
      // The delivery id is kept too: known again with another digest, or none.
      expect(await signed('guid-1', 'sha256:bb')).toEqual({ kind: 'duplicate' });
      expect(await accept(store, 'guid-1', event('k1', 'SUCCEEDED'))).toBe('duplicate');
      // Another source's ids are its own.
      expect(
        (
          await store.accept({
            source: 'flux',
            deliveryId: 'guid-2',
            digestId: 'sha256:aa',
            events: [event('k2', 'STARTED')],
          })
        ).kind,
      ).toBe('stored');
      for (const work of (await store.claim('w', 10, LEASE)).work)
        await store.finish(work, { kind: 'created', serviceId: { text: '7', numeric: true } });
      // Every row left: github's two ids of its one delivery, flux's two, the two items (done), and
      // the ended key (flux's deployment has not ended: its key stays).
      clock += 8 * DAY;
      expect(await store.prune(7 * DAY)).toBe(2 + 2 + 2 + 1);
    });

    it('stores one of two deliveries of one body that arrive together under two ids', async () => {
      const { store } = await fresh();
      const results = await Promise.all(
        ['guid-a', 'guid-b'].map((deliveryId) =>
          store.accept({ source: 'github', deliveryId, digestId: 'sha256:cc', events: [event('k1', 'STARTED')] }),
        ),
      );
      expect(results.map((result) => result.kind).sort()).toEqual(['duplicate', 'stored']);
      expect((await store.list(['pending'], 10)).length).toBe(1);
      // The one that lost left no id behind: it is no duplicate later of anything.
      const lost = results[0]?.kind === 'duplicate' ? 'guid-a' : 'guid-b';
      expect(await accept(store, lost, event('k9', 'STARTED'))).toBe('stored');
    });

    it('commits deliveries that arrive together, duplicates among them stored once', async () => {
      const { store } = await fresh();
      const ids = Array.from({ length: 300 }, (_, index) => `d${index % 200}`);
      const results = await Promise.all(ids.map((id) => accept(store, id, event(`k-${id}`, 'STARTED'))));
      expect(results.filter((result) => result === 'stored')).toHaveLength(200);
      expect(results.filter((result) => result === 'duplicate')).toHaveLength(100);
      expect((await store.stats()).queueDepth).toBe(200);
    });

    it('keeps what it acknowledged across a restart', async () => {
      const { store, reopen } = await fresh();
      await accept(store, 'd1', event('k1', 'STARTED'));
      await store.close();
      const again = await reopen();
      expect((await again.list(['pending'], 10)).map((item) => item.deliveryId)).toEqual(['d1']);
      expect(await accept(again, 'd1', event('k1', 'STARTED'))).toBe('duplicate');
    });

    it('hands out a key once at a time, its items in order, and the next once the first is finished', async () => {
      const { store } = await fresh();
      await accept(store, 'd1', event('k1', 'STARTED'));
      await accept(store, 'd2', event('k1', 'SUCCEEDED'));
      const [first, ...others] = (await store.claim('w1', 10, LEASE)).work;
      expect(others).toEqual([]);
      expect(first).toMatchObject({
        key: 'k1',
        recorded: undefined,
        serviceId: undefined,
        item: { status: 'STARTED', deliveryId: 'd1' },
      });
      expect((await store.claim('w2', 10, LEASE)).work).toEqual([]);
      expect(await store.finish(first as Work, { kind: 'created', serviceId: { text: '41', numeric: true } })).toBe(
        true,
      );
      const [second] = (await store.claim('w2', 10, LEASE)).work;
      expect(second).toMatchObject({
        recorded: 'STARTED',
        serviceId: { text: '41', numeric: true },
        item: { status: 'SUCCEEDED', deliveryId: 'd2' },
      });
      await store.finish(second as Work, { kind: 'updated' });
      expect((await store.claim('w1', 10, LEASE)).work).toEqual([]);
      expect((await store.list(['done'], 10)).map((item) => [item.status, item.serviceId])).toEqual([
        ['STARTED', '41'],
        ['SUCCEEDED', '41'],
      ]);
    });

    it('never moves a status backwards: a late start, or a second end, is skipped as it arrives, and said', async () => {
      const { store } = await fresh();
      const results = [
        await acceptResult(store, 'd1', event('k1', 'SUCCEEDED')),
        await acceptResult(store, 'd2', event('k1', 'STARTED')),
        await acceptResult(store, 'd3', event('k1', 'FAILED')),
        await acceptResult(store, 'd4', event('k2', 'STARTED')),
        await acceptResult(store, 'd5', event('k2', 'STARTED')),
      ];
      expect(results).toEqual([
        { kind: 'stored', skipped: [] },
        {
          kind: 'stored',
          skipped: [{ key: 'k1', status: 'STARTED', reason: 'the deployment has ended already (SUCCEEDED)' }],
        },
        {
          kind: 'stored',
          skipped: [{ key: 'k1', status: 'FAILED', reason: 'the deployment has ended already (SUCCEEDED)' }],
        },
        { kind: 'stored', skipped: [] },
        { kind: 'stored', skipped: [{ key: 'k2', status: 'STARTED', reason: 'the deployment is STARTED already' }] },
      ]);
      // A delivery with nothing to send leaves no item; its id stays, so that a retry of it is a duplicate.
      expect(await store.list(['skipped'], 10)).toEqual([]);
      expect(await accept(store, 'd2', event('k1', 'STARTED'))).toBe('duplicate');
      // The end with no start is one item: one create with the final status.
      const claimed = (await store.claim('w', 10, LEASE)).work;
      expect(claimed.map((work) => [work.key, work.item.status])).toEqual([
        ['k1', 'SUCCEEDED'],
        ['k2', 'STARTED'],
      ]);
    });

    it('takes a lease back once it ends, and refuses a finish from the claim that lost it', async () => {
      const { store } = await fresh();
      await accept(store, 'd1', event('k1', 'STARTED'));
      const [stale] = (await store.claim('w1', 1, LEASE)).work;
      clock += LEASE + 1;
      const [fresher] = (await store.claim('w2', 1, LEASE)).work;
      expect(fresher?.item.id).toBe(stale?.item.id);
      expect(await store.markSending(stale as Work)).toBe(false);
      expect(await store.finish(stale as Work, { kind: 'updated' })).toBe(false);
      expect(await store.finish(fresher as Work, { kind: 'created', serviceId: { text: 'x', numeric: false } })).toBe(
        true,
      );
    });

    it('lets a released key go at once', async () => {
      const { store } = await fresh();
      await accept(store, 'd1', event('k1', 'STARTED'));
      const claimed = (await store.claim('w1', 1, LEASE)).work;
      await store.release(claimed);
      expect((await store.claim('w2', 1, LEASE)).work.map((work) => work.key)).toEqual(['k1']);
    });

    it('waits until a retry is due, counting attempts from the first failure', async () => {
      const { store } = await fresh();
      await accept(store, 'd1', event('k1', 'STARTED'));
      const [work] = (await store.claim('w', 1, LEASE)).work;
      const started = clock;
      await store.finish(work as Work, { kind: 'retry', at: clock + 5_000, error: 'HTTP 503' });
      expect((await store.claim('w', 1, LEASE)).work).toEqual([]);
      clock += 5_000;
      const [again] = (await store.claim('w', 1, LEASE)).work;
      expect(again?.item).toMatchObject({ attempts: 1, firstFailedAt: started });
      const [pending] = await store.list(['pending'], 1);
      expect(pending?.error).toBe('HTTP 503');
    });

    it("starts the time to give up again after a failure that is not the item's (the API key refused)", async () => {
      const { store } = await fresh();
      await accept(store, 'd1', event('k1', 'STARTED'));
      const [work] = (await store.claim('w', 1, LEASE)).work;
      await store.finish(work as Work, { kind: 'retry', at: clock, error: 'HTTP 503' });
      const [second] = (await store.claim('w', 1, LEASE)).work;
      expect(second?.item).toMatchObject({ attempts: 1, firstFailedAt: clock });
      clock += 1_000;
      await store.finish(second as Work, { kind: 'retry', at: clock, error: 'HTTP 401', notItsFault: true });
      const [third] = (await store.claim('w', 1, LEASE)).work;
      // Counted (the wait still grows), the first failure's time forgotten.
      expect(third?.item).toMatchObject({ attempts: 2, firstFailedAt: undefined });
      clock += 1_000;
      await store.finish(third as Work, { kind: 'retry', at: clock, error: 'HTTP 503' });
      expect((await store.claim('w', 1, LEASE)).work[0]?.item).toMatchObject({ attempts: 3, firstFailedAt: clock });
    });

    it('holds a create whose worker stopped while sending it, and blocks its key until resolved', async () => {
      const { store, reopen } = await fresh();
      await accept(store, 'd1', event('k1', 'STARTED'));
      await accept(store, 'd2', event('k1', 'SUCCEEDED'));
      const [work] = (await store.claim('w1', 1, LEASE)).work;
      expect(await store.markSending(work as Work)).toBe(true);
      await store.close(); // the worker died here
      const restarted = await reopen();
      clock += LEASE;
      const claimed = await restarted.claim('w2', 10, LEASE);
      expect(claimed.work).toEqual([]);
      const [held] = await restarted.list(['held'], 10);
      // The claim returns what it held, so that the worker logs it.
      expect(claimed.held).toEqual([held]);
      expect(held).toMatchObject({ deliveryId: 'd1', state: 'held', serviceId: null });
      expect(held?.error).toMatch(/may have reached the service/);
      expect((await restarted.stats()).held).toBe(1);
      // The operator says it did arrive, as 77: the end updates 77.
      const answer = await restarted.resolve(held?.id as number, { text: '77', numeric: true });
      expect(answer).toMatchObject({ ok: true, record: { state: 'done', serviceId: '77' } });
      const [end] = (await restarted.claim('w2', 10, LEASE)).work;
      expect(end).toMatchObject({ recorded: 'STARTED', serviceId: { text: '77' }, item: { status: 'SUCCEEDED' } });
    });

    it(
      engine.shared
        ? 'ignores `sole` (another replica may hold a live lease): what a dead one claimed waits for its lease to end'
        : 'takes up at once, as the sole receiver, what a dead one had claimed',
      async () => {
        const { store, reopen } = await fresh();
        await accept(store, 'd1', event('k1', 'STARTED'));
        await accept(store, 'd2', event('k2', 'STARTED'));
        const [sending, claimed] = (await store.claim('w1', 2, LEASE)).work;
        await store.markSending(sending as Work);
        expect(claimed).toBeDefined();
        await store.close();
        const restarted = await reopen({ sole: true });
        if (engine.shared) {
          expect((await restarted.claim('w2', 10, LEASE)).work).toEqual([]);
          clock += LEASE;
        }
        expect((await restarted.claim('w2', 10, LEASE)).work.map((work) => work.key)).toEqual(['k2']);
        expect((await restarted.list(['held'], 10)).map((item) => item.key)).toEqual(['k1']);
      },
    );

    it('sends a held or failed item again when an operator retries it, and refuses other states', async () => {
      const { store } = await fresh();
      await accept(store, 'd1', event('k1', 'STARTED'));
      await accept(store, 'd2', event('k2', 'STARTED'));
      const [one, two] = (await store.claim('w', 2, LEASE)).work;
      await store.finish(one as Work, { kind: 'held', error: 'timed out' });
      await store.finish(two as Work, { kind: 'failed', error: 'HTTP 400' });
      expect((await store.list(['held', 'failed'], 10)).map((item) => item.state)).toEqual(['held', 'failed']);
      expect((await store.claim('w', 2, LEASE)).work).toEqual([]);
      for (const item of await store.list(['held', 'failed'], 10)) {
        expect(await store.retry(item.id)).toMatchObject({ ok: true, record: { state: 'pending', attempts: 0 } });
      }
      expect((await store.claim('w', 5, LEASE)).work.map((work) => work.key).sort()).toEqual(['k1', 'k2']);
      expect(await store.retry(1)).toMatchObject({ ok: false });
      const missing = await store.retry(999);
      expect(missing.ok ? '' : missing.reason).toMatch(/no delivery item 999/);
      expect(await store.resolve(2, { text: '5', numeric: true })).toMatchObject({ ok: false });
    });

    it('a failed item does not block its key: the end after a failed start creates the deployment', async () => {
      const { store } = await fresh();
      await accept(store, 'd1', event('k1', 'STARTED'));
      await accept(store, 'd2', event('k1', 'FAILED'));
      const [start] = (await store.claim('w', 1, LEASE)).work;
      await store.finish(start as Work, { kind: 'failed', error: 'HTTP 422' });
      const [end] = (await store.claim('w', 1, LEASE)).work;
      expect(end).toMatchObject({ serviceId: undefined, recorded: undefined, item: { status: 'FAILED' } });
    });

    /** A Flux event of `uid-1` at `revision`, sent at second `at` of the object's own clock. */
    const flux = (key: string, status: DeploymentStatus, revision: string, at = 0, repeats = true) =>
      event(key, status, {
        baseline: { object: 'flux:uid-1', revision, at: Date.UTC(2030, 0, 1) + at * 1000, repeats },
      });
    /** Accepts each delivery, noting why each of its events was skipped (a delivery with nothing to send leaves no item). */
    const skipLog = () => {
      const said: [string, string][] = [];
      const take = async (store: Store, deliveryId: string, ...events: DeploymentEvent[]) => {
        const result = await acceptResult(store, deliveryId, ...events);
        if (result.kind === 'stored') for (const { reason } of result.skipped) said.push([deliveryId, reason]);
      };
      return { said, take };
    };

    it('applies the baseline rule: an end that started nothing counts only where the revision moved', async () => {
      const { store } = await fresh();
      const reasons = async (deliveryId: string, ...events: DeploymentEvent[]) => {
        const result = await acceptResult(store, deliveryId, ...events);
        return result.kind === 'stored' ? result.skipped.map((skipped) => skipped.reason) : result.kind;
      };
      // First sight: baseline; then the same revision.
      expect(await reasons('f1', flux('flux:uid-1:r1', 'SUCCEEDED', 'r1', 1))).toEqual([
        'the first sight of flux:uid-1 is its baseline, not a deployment',
      ]);
      expect(await reasons('f2', flux('flux:uid-1:r1', 'SUCCEEDED', 'r1', 2))).toEqual([
        'flux:uid-1 is still at that revision',
      ]);
      await accept(store, 'f3', flux('flux:uid-1:r2', 'SUCCEEDED', 'r2', 3)); // a missed start: recorded
      await accept(store, 'f4', flux('flux:uid-1:r3', 'STARTED', 'r3', 4));
      await accept(store, 'f5', flux('flux:uid-1:r3', 'FAILED', 'r3', 5)); // its own start: recorded
      expect(await store.list(['skipped'], 10)).toEqual([]);
      expect((await store.list(['pending'], 10)).map((item) => item.deliveryId)).toEqual(['f3', 'f4', 'f5']);
    });

    it('keeps no row of a key whose every event was skipped: retention finds only the delivery ids', async () => {
      const { store, rowCounts } = await fresh();
      const DAY = 24 * 3600_000;
      expect(await acceptResult(store, 'f1', flux('flux:uid-1:r1', 'SUCCEEDED', 'r1', 1))).toMatchObject({
        kind: 'stored',
      });
      expect(await rowCounts()).toEqual({ deliveries: 1, items: 0, keys: 0 });
      clock += 8 * DAY;
      expect(await store.prune(7 * DAY)).toBe(1);
      expect(await rowCounts()).toEqual({ deliveries: 0, items: 0, keys: 0 });
    });

    it("moves a Flux object's revision only forward in its own order: a late or replayed event moves nothing", async () => {
      const { store, reopen } = await fresh();
      const { said, take } = skipLog();
      await take(store, 'f1', flux('flux:uid-1:r1', 'SUCCEEDED', 'r1', 10)); // baseline
      await take(store, 'f2', flux('flux:uid-1:r2', 'SUCCEEDED', 'r2', 20)); // recorded
      await take(store, 'f3', flux('flux:uid-1:r1', 'SUCCEEDED', 'r1', 10)); // the old success, replayed
      await take(store, 'f4', flux('flux:uid-1:r0', 'STARTED', 'r0', 5)); // older still, a start
      await take(store, 'f5', flux('flux:uid-1:r3', 'STARTED', 'r3', 30));
      await store.close();
      const again = await reopen();
      // r2's periodic success, late (r3 started since): r2 is never recorded twice, r3's deployment goes on.
      await take(again, 'f6', flux('flux:uid-1:r2', 'SUCCEEDED', 'r2', 25));
      await take(again, 'f7', flux('flux:uid-1:r3', 'SUCCEEDED', 'r3', 40));
      await take(again, 'f8', flux('flux:uid-1:r3', 'SUCCEEDED', 'r3', 50)); // next interval
      expect(said).toEqual([
        ['f1', 'the first sight of flux:uid-1 is its baseline, not a deployment'],
        [
          'f3',
          'flux:uid-1 sent a later event already (at 2030-01-01T00:00:20.000Z; this one is of 2030-01-01T00:00:10.000Z): a late or replayed event',
        ],
        [
          'f4',
          'flux:uid-1 sent a later event already (at 2030-01-01T00:00:20.000Z; this one is of 2030-01-01T00:00:05.000Z): a late or replayed event',
        ],
        ['f6', 'the deployment has ended already (SUCCEEDED)'],
        ['f8', 'the deployment has ended already (SUCCEEDED)'],
      ]);
      expect((await again.list(['pending'], 10)).map((item) => item.deliveryId)).toEqual(['f2', 'f5', 'f7']);
    });

    it('takes a late end of a deployment under way, without moving the revision back', async () => {
      const { store } = await fresh();
      const { said, take } = skipLog();
      await take(store, 'f1', flux('flux:uid-1:r1', 'SUCCEEDED', 'r1', 10)); // baseline
      await take(store, 'f2', flux('flux:uid-1:r2', 'STARTED', 'r2', 20));
      await take(store, 'f3', flux('flux:uid-1:r3', 'STARTED', 'r3', 40));
      await take(store, 'f4', flux('flux:uid-1:r2', 'FAILED', 'r2', 30)); // r2's end, late: it ends r2
      // Had r2's late end moved the object back to its time, this start would pass.
      await take(store, 'f5', flux('flux:uid-1:r4', 'STARTED', 'r4', 35));
      await take(store, 'f6', flux('flux:uid-1:r3', 'SUCCEEDED', 'r3', 50));
      expect((await store.list(['pending'], 10)).map((item) => item.deliveryId)).toEqual(['f2', 'f3', 'f4', 'f6']);
      expect(said).toEqual([
        ['f1', 'the first sight of flux:uid-1 is its baseline, not a deployment'],
        [
          'f5',
          'flux:uid-1 sent a later event already (at 2030-01-01T00:00:40.000Z; this one is of 2030-01-01T00:00:35.000Z): a late or replayed event',
        ],
      ]);
    });

    it('keeps the revision seen first in a second: a late periodic end of the old one, stamped alike, records nothing', async () => {
      const { store } = await fresh();
      const { said, take } = skipLog();
      await take(store, 'f1', flux('flux:uid-1:r1', 'SUCCEEDED', 'r1', 0)); // baseline
      await take(store, 'f2', flux('flux:uid-1:r2', 'STARTED', 'r2', 10));
      // r1's periodic success of the same second, late: no deployment of r1, the object stays at r2.
      await take(store, 'f3', flux('flux:uid-1:r1', 'SUCCEEDED', 'r1', 10));
      await take(store, 'f4', flux('flux:uid-1:r1', 'FAILED', 'r1', 10));
      // Had r1 taken r2's place, this start of the same second would be a change again: it is r2's own.
      await take(store, 'f5', flux('flux:uid-1:r2', 'SUCCEEDED', 'r2', 10));
      // A change (a start) of another revision in that second does take the place; so does a Helm action.
      await take(store, 'f6', flux('flux:uid-1:r3', 'STARTED', 'r3', 10));
      await take(store, 'f7', flux('flux:uid-1:r4', 'SUCCEEDED', 'r4', 10, false));
      await take(store, 'f8', flux('flux:uid-1:r4', 'SUCCEEDED', 'r4', 70)); // r4's next interval
      const tie =
        'flux:uid-1 was seen at another revision in the same second (2030-01-01T00:00:10.000Z): an end Flux repeats at every interval does not take its place';
      expect(said).toEqual([
        ['f1', 'the first sight of flux:uid-1 is its baseline, not a deployment'],
        ['f3', tie],
        ['f4', tie],
        ['f8', 'the deployment has ended already (SUCCEEDED)'],
      ]);
      expect((await store.list(['pending'], 10)).map((item) => item.deliveryId)).toEqual(['f2', 'f5', 'f6', 'f7']);
    });

    it("orders an object's events no further ahead than the receiver's clock allows a sender's to run", async () => {
      const { store } = await fresh();
      const { said, take } = skipLog();
      // The controller's clock an hour ahead: the object's order goes no further than five minutes on.
      await take(store, 'f1', flux('flux:uid-1:r1', 'SUCCEEDED', 'r1', 3600)); // baseline
      await take(store, 'f2', flux('flux:uid-1:r2', 'STARTED', 'r2', 240)); // within the five minutes: late
      clock += 10 * 60_000; // its clock set right; ten minutes on, the next change is a deployment
      await take(store, 'f3', flux('flux:uid-1:r3', 'STARTED', 'r3', 600));
      await take(store, 'f4', flux('flux:uid-1:r3', 'SUCCEEDED', 'r3', 610));
      await take(store, 'f5', flux('flux:uid-1:r3', 'SUCCEEDED', 'r3', 670)); // its next interval
      expect(said).toEqual([
        ['f1', 'the first sight of flux:uid-1 is its baseline, not a deployment'],
        [
          'f2',
          'flux:uid-1 sent a later event already (at 2030-01-01T00:05:00.000Z; this one is of 2030-01-01T00:04:00.000Z): a late or replayed event',
        ],
        ['f5', 'the deployment has ended already (SUCCEEDED)'],
      ]);
      expect((await store.list(['pending'], 10)).map((item) => item.deliveryId)).toEqual(['f3', 'f4']);
    });

    it("records a Helm install, upgrade or rollback whatever the baseline, once with the next interval's success", async () => {
      const { store } = await fresh();
      const { said, take } = skipLog();
      await take(store, 'h1', flux('flux:uid-1:1.0.0', 'SUCCEEDED', '1.0.0', 10, false)); // first sight: an upgrade
      await take(store, 'h2', flux('flux:uid-1:1.0.0', 'SUCCEEDED', '1.0.0', 20)); // its reconcile: the same key
      await take(store, 'h3', flux('flux:uid-1:1.0.1', 'FAILED', '1.0.1', 30, false));
      await take(store, 'h4', flux('flux:uid-1:1.0.0', 'SUCCEEDED', '1.0.0', 25, false)); // late: nothing
      expect((await store.list(['pending'], 10)).map((item) => item.deliveryId)).toEqual(['h1', 'h3']);
      expect(said.map(([deliveryId]) => deliveryId)).toEqual(['h2', 'h4']);
    });

    it('counts the queue, its oldest item, held and failed', async () => {
      const { store } = await fresh();
      expect(await store.stats()).toEqual({ queueDepth: 0, oldestPendingSeconds: 0, held: 0, failed: 0 });
      await accept(store, 'd1', event('k1', 'STARTED'));
      clock += 2_000;
      await accept(store, 'd2', event('k2', 'STARTED'));
      await accept(store, 'd3', event('k3', 'STARTED'));
      clock += 1_000;
      const [one] = (await store.claim('w', 1, LEASE)).work;
      await store.finish(one as Work, { kind: 'held', error: 'reset' });
      expect(await store.stats()).toEqual({ queueDepth: 2, oldestPendingSeconds: 1, held: 1, failed: 0 });
      await expect(store.ping()).resolves.toBeUndefined();
    });

    it('is ready only while it takes a write: its ping fails while writes are refused (a full disk), and passes again after', async () => {
      const { store, refuseWrites } = await fresh();
      await expect(store.ping()).resolves.toBeUndefined();
      const undo = await refuseWrites();
      await expect(accept(store, 'd1', event('k1', 'STARTED'))).rejects.toThrow(/disk is full/);
      await expect(store.ping()).rejects.toThrow(/disk is full/);
      // Reads still answer: a read alone would have said ready.
      expect((await store.stats()).queueDepth).toBe(0);
      await undo();
      await expect(store.ping()).resolves.toBeUndefined();
      expect(await accept(store, 'd1', event('k1', 'STARTED'))).toBe('stored');
    });

    it('prunes finished items, old deliveries and ended keys past the bound, and nothing else', async () => {
      const { store } = await fresh();
      const DAY = 24 * 3600_000;
      const finishAll = async (outcome: (work: Work) => Parameters<Store['finish']>[1]) => {
        for (const work of (await store.claim('w', 10, LEASE)).work) await store.finish(work, outcome(work));
      };
      // Old: an ended deployment (done, skipped), one still started, a held and a failed create, a pending one.
      await accept(store, 'old-1', event('ended', 'STARTED'));
      await accept(store, 'old-2', event('ended', 'SUCCEEDED'), event('ended', 'STARTED'));
      await accept(store, 'old-3', event('running', 'STARTED'));
      await accept(store, 'old-4', event('held', 'STARTED'));
      await accept(store, 'old-5', event('failed', 'STARTED'));
      const ids: Record<string, string> = { ended: '1', running: '2' };
      const outcomes = (work: Work): Parameters<Store['finish']>[1] =>
        ids[work.key]
          ? { kind: 'created', serviceId: { text: ids[work.key] as string, numeric: true } }
          : work.key === 'held'
            ? { kind: 'held', error: 'timed out' }
            : { kind: 'failed', error: 'HTTP 422' };
      await finishAll(outcomes);
      await finishAll(() => ({ kind: 'updated' }));
      expect((await store.list(['done', 'skipped'], 10)).map((item) => item.key)).toEqual([
        'ended',
        'ended',
        'ended',
        'running',
      ]);
      clock += DAY + 1; // just inside the bound, at the end
      await accept(store, 'pending', event('later', 'STARTED'));
      clock += 7 * DAY - 1;
      await accept(store, 'recent', event('recent', 'STARTED'));
      await finishAll(() => ({ kind: 'retry', at: clock + DAY, error: 'HTTP 503' }));
      // Seven days: the first deliveries and what finished then go; the rest stays.
      expect(await store.prune(7 * DAY)).toBeGreaterThanOrEqual(5 + 4 + 1);
      expect(await store.list(['done', 'skipped'], 10)).toEqual([]);
      expect((await store.list(['held', 'failed', 'pending'], 10)).map((item) => item.key)).toEqual([
        'held',
        'failed',
        'later',
        'recent',
      ]);
      expect(await accept(store, 'recent', event('recent', 'STARTED'))).toBe('duplicate');
      expect(await accept(store, 'pending', event('later', 'STARTED'))).toBe('duplicate');
      expect(await accept(store, 'old-3', event('x', 'STARTED'))).toBe('stored');
      // A deployment that never ended keeps its id, so that its end still updates it.
      await accept(store, 'end-of-running', event('running', 'SUCCEEDED'));
      const works = (await store.claim('w', 10, LEASE)).work;
      expect(works.find((work) => work.key === 'running')).toMatchObject({ serviceId: { text: '2' } });
      // An ended one is gone: nothing of it is left to block a key.
      await accept(store, 'late', event('ended', 'FAILED'));
      expect((await store.list(['pending'], 10)).map((item) => item.deliveryId)).toContain('late');
      expect(await store.prune(7 * DAY)).toBe(0);
    });

    it('claims at most the limit asked, oldest first', async () => {
      const { store } = await fresh();
      for (let index = 0; index < 50; index++) {
        await accept(store, `d${index}`, event(`k${index}`, 'STARTED'));
        clock += 1;
      }
      const claimed = (await store.claim('w', 20, LEASE)).work;
      expect(claimed.map((work) => work.key)).toEqual(Array.from({ length: 20 }, (_, index) => `k${index}`));
    });
  });
}
