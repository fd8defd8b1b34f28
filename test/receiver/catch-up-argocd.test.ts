// Argo CD's catch-up (src/receiver/catch-up/argocd*.ts): its configuration from the CLI's variables,
// what Argo CD's record makes (the same key and fields as the webhook of the same sync), the pass
// against a fake of Argo CD's API on 127.0.0.1 into a real SQLite store, the sync recorded once
// whichever of the webhook and the catch-up comes first, and the token never said.
import { readFileSync } from 'node:fs';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { ConfigError } from '../../src/core/config-error.ts';
import { readArgoCdCatchUp } from '../../src/receiver/catch-up/argocd-config.ts';
import { caughtUpSyncs, NotAnApplicationList } from '../../src/receiver/catch-up/argocd-events.ts';
import { argocdCatchUpPass, describeArgoCdPass, type ArgoCdPassDeps } from '../../src/receiver/catch-up/argocd.ts';
import type { DeploymentEvent } from '../../src/receiver/event.ts';
import { argocd } from '../../src/receiver/sources/argocd.ts';
import { derivedId } from '../../src/receiver/sources/verify.ts';
import type { CatchUpMarks } from '../../src/receiver/store/catch-up-marks.ts';
import { openSqliteStore } from '../../src/receiver/store/sqlite.ts';
import type { NewDelivery, Store } from '../../src/receiver/store/store.ts';
import { application, type FakeArgoCd, historyEntry, metav1Time, startFakeArgoCd } from './helpers/fake-argocd-api.ts';
import { type ForwardProxy, startForwardProxy } from '../helpers/forward-proxy.ts';
import { renderGoTemplate } from './helpers/go-template.ts';
import { TEST_CA_PATH, tlsFixture } from '../helpers/tls-fixtures.ts';
import { request } from './helpers/request.ts';
import { ROOT } from '../helpers/run-action.ts';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.catch-up-token.s1gn4ture';
const UID = '5b3f0e2c-8a41-4d6f-9c2e-7a1b0d3e4f56';
const SHA = '53e28ff20cc530b9ada2173fbbd64d48338583ba';
const HOUR = 3_600_000;
/** Now, in whole seconds (as Argo CD's times are), and the mark: when catch-up first ran, a day ago. */
const NOW = Math.floor(Date.now() / 1000) * 1000;
const MARK = NOW - 24 * HOUR;

describe("Argo CD catch-up's configuration", () => {
  const read = (env: Record<string, string>) => readArgoCdCatchUp(env);
  const problem = (env: Record<string, string>) => {
    try {
      read(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as ConfigError).message;
    }
    throw new Error('no ConfigError');
  };

  it('is off with neither variable, and reads them as the argocd CLI does', () => {
    expect(read({})).toBeUndefined();
    const hostPort = read({ ARGOCD_SERVER: 'argocd.example.com:8443', ARGOCD_AUTH_TOKEN: TOKEN });
    expect([hostPort?.base.href, hostPort?.instance, hostPort?.token]).toEqual([
      'https://argocd.example.com:8443/',
      'argocd.example.com:8443',
      TOKEN,
    ]);
    expect(read({ ARGOCD_SERVER: 'https://Example.com/argocd', ARGOCD_AUTH_TOKEN: TOKEN })?.base.href).toBe(
      'https://example.com/argocd/',
    );
    expect(read({ ARGOCD_SERVER: ' argocd.example.com\n', ARGOCD_AUTH_TOKEN: TOKEN })?.base.href).toBe(
      'https://argocd.example.com/',
    );
    expect(read({ ARGOCD_SERVER: 'http://127.0.0.1:8080/', ARGOCD_AUTH_TOKEN: TOKEN })?.base.href).toBe(
      'http://127.0.0.1:8080/',
    );
  });

  it('names the variable at fault, never the token', () => {
    expect(problem({ ARGOCD_SERVER: 'argocd.example.com' })).toBe(
      "Environment variable ARGOCD_AUTH_TOKEN is not set, but ARGOCD_SERVER is set: Argo CD's catch-up needs both. Set it to the token of an Argo CD account (`argocd account generate-token`), or unset ARGOCD_SERVER to leave catch-up off.",
    );
    expect(problem({ ARGOCD_AUTH_TOKEN: TOKEN })).toBe(
      "Environment variable ARGOCD_SERVER is not set, but ARGOCD_AUTH_TOKEN is set: Argo CD's catch-up needs both. Set it to the Argo CD server (`argocd.example.com:443`), or unset ARGOCD_AUTH_TOKEN to leave catch-up off.",
    );
    expect(problem({ ARGOCD_SERVER: 'git+https://argocd.example.com', ARGOCD_AUTH_TOKEN: TOKEN })).toMatch(
      /^Environment variable ARGOCD_SERVER has the scheme 'git\+https:', not https or http/,
    );
    for (const server of ['https://:hunter2@argocd.example.com', 'admin:hunter2@argocd.example.com']) {
      const said = problem({ ARGOCD_SERVER: server, ARGOCD_AUTH_TOKEN: TOKEN });
      expect(said).toMatch(/^Environment variable ARGOCD_SERVER holds a user or a password/);
      expect(said).not.toContain('hunter2');
    }
    expect(problem({ ARGOCD_SERVER: 'https://', ARGOCD_AUTH_TOKEN: TOKEN })).toMatch(
      /^Environment variable ARGOCD_SERVER is not a host:port or a URL: 'https:\/\/'/,
    );
    expect(problem({ ARGOCD_SERVER: 'ftp://argocd.example.com', ARGOCD_AUTH_TOKEN: TOKEN })).toBe(
      "Environment variable ARGOCD_SERVER has the scheme 'ftp:', not https or http: 'ftp://argocd.example.com'. Set it as for the argocd CLI: `argocd.example.com`, `argocd.example.com:8443` or `https://argocd.example.com/argocd`.",
    );
    const withPassword = problem({
      ARGOCD_SERVER: 'https://admin:hunter2@argocd.example.com',
      ARGOCD_AUTH_TOKEN: TOKEN,
    });
    expect(withPassword).toMatch(
      /^Environment variable ARGOCD_SERVER holds a user or a password .*'https:\/\/\*\*\*@argocd\.example\.com'/,
    );
    expect(withPassword).not.toContain('hunter2');
    expect(problem({ ARGOCD_SERVER: 'argocd.example.com?x=1', ARGOCD_AUTH_TOKEN: TOKEN })).toMatch(/holds a query/);
    for (const token of [`${TOKEN}\n`, `Bearer ${TOKEN}`, `${TOKEN}\u0000`]) {
      const said = problem({ ARGOCD_SERVER: 'argocd.example.com', ARGOCD_AUTH_TOKEN: token });
      expect(said).toMatch(
        /^Environment variable ARGOCD_AUTH_TOKEN holds white space or a character no HTTP header carries/,
      );
      expect(said).not.toContain(TOKEN);
    }
    expect(
      problem({ ARGOCD_SERVER: 'argocd.example.com', ARGOCD_AUTH_TOKEN: TOKEN, HTTPS_PROXY: 'not a url' }),
    ).toMatch(/^Environment variable HTTPS_PROXY is not a proxy URL/);
  });
});

// The shipped notifications ConfigMap, to render what the webhook of a sync carries.
const configMap = parseYaml(
  readFileSync(join(ROOT, 'examples', 'receiver', 'argocd-notifications-cm.yaml'), 'utf8'),
) as {
  data: Record<string, string>;
};

/** What the webhook of `trigger` delivers for `app` (the template rendered as Argo CD renders it), as the store takes it. */
function liveDelivery(trigger: string, app: Record<string, unknown>, argocdUrl: string): NewDelivery {
  const [definition] = parseYaml(configMap.data[`trigger.${trigger}`] as string) as { send: string[] }[];
  const template = parseYaml(configMap.data[`template.${definition!.send[0]}`] as string) as {
    webhook: { 'report-deployment': { body: string } };
  };
  const body = renderGoTemplate(template.webhook['report-deployment'].body, { app, context: { argocdUrl } });
  const parsed = argocd.parse(request(body));
  if (parsed.verdict !== 'accepted') throw new Error(`the webhook was not accepted: ${JSON.stringify(parsed)}`);
  return { source: 'argocd', deliveryId: parsed.deliveryId, events: parsed.events };
}

const START = NOW - 2 * HOUR;
const startedAt = metav1Time(START);
const finishedAt = metav1Time(START + 20_000);

/** The application as a notification renders it at each moment of one sync, and as the list gives it after. */
function syncOf(phase: 'Running' | 'Succeeded' | 'Failed'): Record<string, unknown> {
  const entry = historyEntry(7, START, SHA, { initiatedBy: { username: 'alice' } });
  const app = application(UID, 'guestbook', { history: phase === 'Succeeded' ? [entry] : [] });
  const status = app.status as Record<string, unknown>;
  status.operationState = {
    operation: { sync: { revision: SHA }, initiatedBy: { username: 'alice' } },
    phase,
    message: phase === 'Failed' ? 'one or more objects failed to apply' : 'successfully synced',
    startedAt,
    ...(phase === 'Running' ? {} : { finishedAt }),
    ...(phase === 'Running' ? {} : { syncResult: { revision: SHA, source: (app.spec as { source: unknown }).source } }),
  };
  status.health =
    phase === 'Succeeded' ? { status: 'Healthy', lastTransitionTime: finishedAt } : { status: 'Progressing' };
  return app;
}

const eventsOf = (list: unknown, mark = MARK) =>
  caughtUpSyncs(list, { mark, now: NOW, argocdUrl: 'https://argocd.example.com' });

describe("what Argo CD's record makes", () => {
  it('reads a multi-source application as its webhook does: the first revision, no changelog', () => {
    const app = syncOf('Succeeded');
    const spec = app.spec as Record<string, unknown>;
    spec.sources = [spec.source, { repoURL: 'https://charts.example.com', chart: 'web', targetRevision: '1.2.3' }];
    delete spec.source;
    const status = app.status as { history: Record<string, unknown>[]; operationState: Record<string, unknown> };
    // Argo CD writes a multi-source sync's `source` empty (a struct is never left out) and its `revisions`.
    status.history = [
      {
        ...historyEntry(7, START, SHA),
        revision: undefined,
        source: { repoURL: '' },
        revisions: [SHA, '1.2.3'],
        sources: spec.sources,
        initiatedBy: { username: 'alice' },
      },
    ];
    status.operationState.syncResult = { revisions: [SHA, '1.2.3'], sources: spec.sources };
    const [live] = liveDelivery('on-deployed', app, 'https://argocd.example.com').events;
    const [sync] = eventsOf({ items: [app] }).syncs;
    expect(sync?.delivery.events).toEqual([live]);
    expect([live?.fields.version, live?.fields.branch, live?.fields.changelog]).toEqual([SHA, SHA, undefined]);
  });

  it('makes, of any list Argo CD could answer, only events with a live key and bounded one-line fields', () => {
    const hostile = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom(null, 7, [], {}, startedAt, UID),
    );
    const entry = fc.record(
      {
        id: hostile,
        revision: fc.oneof(hostile, fc.constant(SHA)),
        deployStartedAt: fc.oneof(hostile, fc.constant(startedAt)),
        deployedAt: fc.oneof(hostile, fc.constant(finishedAt)),
        source: hostile,
        initiatedBy: hostile,
      },
      { requiredKeys: [] },
    );
    const app = fc.record(
      {
        metadata: fc.record(
          { uid: fc.oneof(hostile, fc.constant(UID)), name: hostile, namespace: hostile, annotations: hostile },
          { requiredKeys: [] },
        ),
        spec: hostile,
        status: fc.record(
          {
            history: fc.oneof(hostile, fc.array(entry, { maxLength: 4 })),
            operationState: fc.record(
              {
                phase: fc.constantFrom('Failed', 'Error', 'Running', 'Succeeded'),
                startedAt: fc.oneof(hostile, fc.constant(startedAt)),
                finishedAt: hostile,
                syncResult: hostile,
                operation: hostile,
              },
              { requiredKeys: [] },
            ),
          },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(app, hostile), { maxLength: 4 }), (items) => {
        const found = eventsOf({ items });
        for (const { delivery } of found.syncs) {
          const [event] = delivery.events;
          expect(event?.key).toMatch(/^argocd:[0-9a-f-]{36}:\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
          for (const value of Object.values(event?.fields ?? {})) {
            expect(typeof value).toBe('string');
            expect(value).not.toMatch(/[\p{Cc}\u2028\u2029]/u);
          }
        }
        expect(found.unreadable.length).toBeLessThanOrEqual(5);
      }),
      { numRuns: 300 },
    );
  });

  it('makes nothing of 10 syncs before the mark: they are its baseline', () => {
    const history = Array.from({ length: 10 }, (_, i) => historyEntry(i, MARK - (10 - i) * HOUR, SHA));
    const found = eventsOf({ items: [application(UID, 'guestbook', { history })] });
    expect(found).toEqual({ syncs: [], baseline: 10, expired: 0, unreadable: [] });
  });

  it('makes a sync during an outage (after the mark) one SUCCEEDED event, with the key and fields its on-deployed webhook has', () => {
    const app = syncOf('Succeeded');
    const found = eventsOf({ items: [app] });
    const [live] = liveDelivery('on-deployed', app, 'https://argocd.example.com').events;
    expect(found.syncs).toHaveLength(1);
    const [sync] = found.syncs;
    expect(sync!.delivery.events).toEqual([live]);
    expect(sync!.delivery.events[0]).toEqual<DeploymentEvent>({
      key: `argocd:${UID}:${startedAt}`,
      status: 'SUCCEEDED',
      object: 'argocd/guestbook',
      fields: {
        artifactName: 'guestbook',
        version: SHA,
        environment: 'Staging',
        commitSha: SHA,
        user: 'alice',
        branch: 'main',
        description: 'Argo CD sync of argocd/guestbook (project default), on-deployed',
        changelog: 'https://github.com/argoproj/argocd-example-apps.git',
        link: 'https://argocd.example.com/applications/argocd/guestbook?operation=true',
      },
    });
    expect(sync!.sentAt).toBe(START + 20_000);
    expect(sync!.delivery.source).toBe('argocd');
    // The source it synced then, not the spec's now: a tag deployed from history.
    const fromTag = structuredClone(app);
    (fromTag.status as { history: Record<string, unknown>[] }).history[0]!.source = {
      repoURL: 'https://github.com/argoproj/argocd-example-apps.git',
      targetRevision: 'v1.0.1',
    };
    expect(eventsOf({ items: [fromTag] }).syncs[0]?.delivery.events[0]?.fields.branch).toBe('v1.0.1');
    // Its own delivery id: never the webhook's, so the store's key rules decide, not deduplication.
    expect(sync!.delivery.deliveryId).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(sync!.delivery.deliveryId).not.toBe(
      liveDelivery('on-deployed', app, 'https://argocd.example.com').deliveryId,
    );
  });

  it('makes a Failed or Errored operation one FAILED event, as its on-sync-failed webhook; a running one nothing', () => {
    const app = syncOf('Failed');
    const [live] = liveDelivery('on-sync-failed', app, 'https://argocd.example.com').events;
    expect(eventsOf({ items: [app] }).syncs.map((sync) => sync.delivery.events)).toEqual([[live]]);
    expect(live?.status).toBe('FAILED');
    const errored = structuredClone(app);
    (errored.status as { operationState: { phase: string } }).operationState.phase = 'Error';
    expect(eventsOf({ items: [errored] }).syncs.map((sync) => sync.delivery.events[0]?.status)).toEqual(['FAILED']);
    expect(eventsOf({ items: [syncOf('Running')] }).syncs).toEqual([]);
    // A succeeded operation is its history's last entry: one event, not two.
    expect(eventsOf({ items: [syncOf('Succeeded')] }).syncs).toHaveLength(1);
  });

  it("catches a sync in the mark's own second, and an application created after the mark", () => {
    const history = [historyEntry(0, MARK - 20_000 + 400, SHA)];
    expect(eventsOf({ items: [application(UID, 'guestbook', { history })] }, MARK + 999).syncs).toHaveLength(1);
    const later = application('0f1e2d3c-4b5a-6978-8695-a4b3c2d1e0f9', 'created-later', {
      history: [historyEntry(0, MARK + HOUR, SHA)],
    });
    expect(eventsOf({ items: [later] }).syncs.map((sync) => sync.delivery.events[0]?.object)).toEqual([
      'argocd/created-later',
    ]);
  });

  it('reads each field of a failed operation where Argo CD keeps it, falling back as the webhook does', () => {
    const app = syncOf('Failed');
    app.metadata = {
      ...(app.metadata as object),
      annotations: { 'report-deployment/artifact': 'web', 'report-deployment/environment': 'eu-prod' },
    };
    (app.spec as Record<string, unknown>).project = 'shop';
    const status = app.status as { sync: Record<string, unknown>; operationState: Record<string, unknown> };
    status.sync.revision = 'rev-of-the-app';
    status.operationState = {
      operation: { sync: { revision: 'rev-being-synced' }, initiatedBy: { username: 'bob' } },
      phase: 'Error',
      startedAt,
      finishedAt,
      syncResult: {
        revision: 'rev-synced',
        source: { repoURL: 'https://git.example.com/shop.git', targetRevision: 'release-1' },
      },
    };
    const event = (changed: (state: Record<string, unknown>) => void = () => undefined) => {
      const copy = structuredClone(app);
      changed((copy.status as { operationState: Record<string, unknown> }).operationState);
      const [sync] = eventsOf({ items: [copy] }).syncs;
      return { ...sync?.delivery.events[0], sentAt: sync?.sentAt };
    };
    expect(event()).toEqual({
      key: `argocd:${UID}:${startedAt}`,
      status: 'FAILED',
      object: 'argocd/guestbook',
      fields: {
        artifactName: 'web',
        version: 'rev-synced',
        environment: 'eu-prod',
        commitSha: 'rev-synced',
        user: 'bob',
        branch: 'release-1',
        description: 'Argo CD sync of argocd/guestbook (project shop), on-sync-failed',
        changelog: 'https://git.example.com/shop.git',
        link: 'https://argocd.example.com/applications/argocd/guestbook?operation=true',
      },
      sentAt: START + 20_000,
    });
    // Failed before any result: what it was syncing, else what the application is at; its source, the spec's.
    const noResult = event((state) => delete state.syncResult);
    expect([noResult.fields?.version, noResult.fields?.branch, noResult.fields?.changelog]).toEqual([
      'rev-being-synced',
      'main',
      'https://github.com/argoproj/argocd-example-apps.git',
    ]);
    expect(event((state) => (state.syncResult = { revisions: ['rev-1', 'rev-2'] })).fields?.version).toBe('rev-1');
    expect(event((state) => ((state.operation = {}), delete state.syncResult)).fields).toMatchObject({
      version: 'rev-of-the-app',
      user: 'Argo CD',
    });
    // No end written: its start is its time.
    expect(event((state) => (state.finishedAt = 'soon')).sentAt).toBe(START);
    expect(eventsOf({ items: [app] }).syncs[0]?.delivery.deliveryId).toBe(
      derivedId('argocd', UID, startedAt, 'FAILED', 'catch-up'),
    );
  });

  it('sends nothing past the retention window, and says what makes no event', () => {
    const old = application(UID, 'guestbook', { history: [historyEntry(0, NOW - 8 * 24 * HOUR, SHA)] });
    expect(eventsOf({ items: [old] }, 0)).toEqual({ syncs: [], baseline: 0, expired: 1, unreadable: [] });
    const noStart = application(UID, 'guestbook', {
      history: [{ ...historyEntry(0, NOW - HOUR, SHA), deployStartedAt: undefined }],
    });
    expect(eventsOf({ items: [noStart] }).unreadable).toEqual([
      'guestbook: operation.startedAt (RFC 3339, UTC) is required to tie a sync to its end',
    ]);
    expect(eventsOf({ metadata: {} })).toEqual({ syncs: [], baseline: 0, expired: 0, unreadable: [] });
    // Go writes an empty list as null; a history that is no list is none.
    expect(eventsOf({ items: null })).toEqual({ syncs: [], baseline: 0, expired: 0, unreadable: [] });
    const odd = (history: unknown) => {
      const app = application(UID, 'guestbook');
      (app.status as Record<string, unknown>).history = history;
      return eventsOf({ items: [app] });
    };
    expect(odd('x')).toEqual({ syncs: [], baseline: 0, expired: 0, unreadable: [] });
    expect(odd([{ deployStartedAt: '2026-02-30T10:00:00Z', revision: SHA }]).unreadable).toEqual([
      'guestbook: the sync names no time it ended',
    ]);
    expect(
      eventsOf({ items: [{ metadata: { uid: UID }, status: { history: [historyEntry(0, NOW - HOUR, SHA)] } }] })
        .unreadable,
    ).toEqual(['(no name): app.uid (a Kubernetes uid) and app.name are required']);
    for (const list of [[], 'x', null, { items: {} }]) expect(() => eventsOf(list)).toThrow(NotAnApplicationList);
  });
});

/** Marks kept in memory, as a store keeps them: the first call's time stays. */
function memoryMarks(): CatchUpMarks & { marks: Map<string, number> } {
  const marks = new Map<string, number>();
  return {
    marks,
    markOf(source, name, now) {
      const key = `${source} ${name}`;
      if (!marks.has(key)) marks.set(key, now);
      return Promise.resolve(marks.get(key) as number);
    },
  };
}

describe('a catch-up pass against the fake Argo CD API, into a real SQLite store', () => {
  let fake: FakeArgoCd;
  const stores: Store[] = [];
  beforeAll(async () => {
    fake = await startFakeArgoCd(TOKEN);
  });
  afterAll(async () => {
    for (const store of stores) await store.close();
    await fake.close();
  });

  const config = () => readArgoCdCatchUp({ ARGOCD_SERVER: fake.url, ARGOCD_AUTH_TOKEN: TOKEN })!;
  function setup(marks: CatchUpMarks = memoryMarks()): ArgoCdPassDeps & { store: Store } {
    const store = openSqliteStore(':memory:');
    stores.push(store);
    fake.applications = [];
    return { store, marks, env: {}, now: () => NOW };
  }
  const items = async (store: Store) =>
    (await store.list(['pending', 'skipped', 'done', 'held', 'failed'], 100)).map((item) => [
      item.key,
      item.status,
      item.state,
      item.deliveryId.slice(0, 7),
    ]);

  it('sends nothing on its first pass, then gets in a sync made after it, once', async () => {
    const marks = memoryMarks();
    const deps = setup(marks);
    fake.applications = [
      application(UID, 'guestbook', {
        history: Array.from({ length: 10 }, (_, i) => historyEntry(i, NOW - (20 - i) * HOUR, SHA)),
      }),
    ];
    expect(await argocdCatchUpPass(config(), deps)).toEqual({
      found: 0,
      fetched: 0,
      baseline: 10,
      expired: 0,
      unreadable: [],
    });
    // The mark: this Argo CD's, taken at the first pass.
    expect([...marks.marks]).toEqual([[`argocd ${fake.url.slice('http://'.length)}`, NOW]]);
    expect(fake.requests.at(-1)).toEqual({
      path: `/api/v1/applications?fields=${encodeURIComponent('items.metadata.uid,items.metadata.name,items.metadata.namespace,items.metadata.annotations,items.spec.project,items.spec.source,items.status.history,items.status.operationState,items.status.sync.revision')}`,
      authorization: `Bearer ${TOKEN}`,
    });
    // The receiver was down while this sync ran: its webhook never arrived.
    const later = { ...deps, now: () => NOW + HOUR };
    (fake.applications[0]!.status as { history: unknown[] }).history.push(historyEntry(10, NOW + 60_000, 'c0ffee'));
    const pass = await argocdCatchUpPass(config(), later);
    expect(pass).toEqual({ found: 1, fetched: 1, baseline: 10, expired: 0, unreadable: [] });
    expect(describeArgoCdPass(config(), pass)).toBe(
      `Argo CD catch-up (${fake.url.slice('http://'.length)}): 1 sync not held, 1 got in; 10 from before catch-up began (not sent)`,
    );
    expect(await items(deps.store)).toEqual([
      [`argocd:${UID}:${metav1Time(NOW + 60_000)}`, 'SUCCEEDED', 'pending', 'sha256:'],
    ]);
    // The next pass finds it held.
    expect(await argocdCatchUpPass(config(), later)).toMatchObject({ found: 0, fetched: 0 });
    expect(await deps.store.list(['pending', 'skipped'], 100)).toHaveLength(1);
  });

  it('records a sync once when its webhook came first: the caught-up one is skipped', async () => {
    const deps = setup();
    await argocdCatchUpPass(config(), { ...deps, now: () => MARK });
    const app = syncOf('Succeeded');
    fake.applications = [app];
    const live = liveDelivery('on-deployed', app, fake.url);
    expect(await deps.store.accept(live)).toEqual({ kind: 'stored', skipped: [] });
    expect(await argocdCatchUpPass(config(), deps)).toMatchObject({ found: 0, fetched: 0 });
    const kept = await deps.store.list(['pending', 'skipped'], 100);
    expect(kept.map((item) => [item.key, item.status, item.state, item.deliveryId])).toEqual([
      [`argocd:${UID}:${startedAt}`, 'SUCCEEDED', 'pending', live.deliveryId],
    ]);
  });

  it('records a sync once when the catch-up came first: a late on-sync-running and on-deployed are skipped', async () => {
    const deps = setup();
    await argocdCatchUpPass(config(), { ...deps, now: () => MARK });
    fake.applications = [syncOf('Succeeded')];
    expect(await argocdCatchUpPass(config(), deps)).toMatchObject({ found: 1, fetched: 1 });
    const running = await deps.store.accept(liveDelivery('on-sync-running', syncOf('Running'), fake.url));
    const deployed = await deps.store.accept(liveDelivery('on-deployed', syncOf('Succeeded'), fake.url));
    expect([running, deployed]).toEqual([
      {
        kind: 'stored',
        skipped: [
          {
            key: `argocd:${UID}:${startedAt}`,
            status: 'STARTED',
            reason: 'the deployment has ended already (SUCCEEDED)',
          },
        ],
      },
      {
        kind: 'stored',
        skipped: [
          {
            key: `argocd:${UID}:${startedAt}`,
            status: 'SUCCEEDED',
            reason: 'the deployment has ended already (SUCCEEDED)',
          },
        ],
      },
    ]);
    expect(await items(deps.store)).toEqual([[`argocd:${UID}:${startedAt}`, 'SUCCEEDED', 'pending', 'sha256:']]);
  });

  it('completes a deployment whose start came live and whose end was missed', async () => {
    const deps = setup();
    await argocdCatchUpPass(config(), { ...deps, now: () => MARK });
    await deps.store.accept(liveDelivery('on-sync-running', syncOf('Running'), fake.url));
    fake.applications = [syncOf('Failed')];
    expect(await argocdCatchUpPass(config(), deps)).toMatchObject({ found: 1, fetched: 1 });
    expect((await items(deps.store)).map(([key, status, state]) => [key, status, state])).toEqual([
      [`argocd:${UID}:${startedAt}`, 'STARTED', 'pending'],
      [`argocd:${UID}:${startedAt}`, 'FAILED', 'pending'],
    ]);
  });

  it('says a refusal, a missing API, a rate limit, a 50 MB answer and one that never ends, bounded, and stores nothing', async () => {
    const deps = { ...setup(), limits: { timeoutMs: 1000 } };
    await argocdCatchUpPass(config(), { ...deps, now: () => MARK });
    fake.applications = [syncOf('Succeeded')];
    const where = `Argo CD at ${fake.url}/`;
    const wrongToken = readArgoCdCatchUp({ ARGOCD_SERVER: fake.url, ARGOCD_AUTH_TOKEN: 'not-the-token' })!;
    const failure = async (answer?: Parameters<FakeArgoCd['script']>[0], which = config()) => {
      if (answer) fake.script(answer);
      const pass = await argocdCatchUpPass(which, deps);
      expect([pass.found, pass.fetched]).toEqual([0, 0]);
      return pass.failure;
    };
    expect(await failure(undefined, wrongToken)).toEqual({
      kind: 'refused',
      reason: `${where} refused ARGOCD_AUTH_TOKEN (HTTP 401: invalid session: token signature is invalid): it is wrong, expired or revoked; generate a new one (argocd account generate-token)`,
    });
    expect(
      await failure({ status: 403, body: '{"error":"permission denied","code":7,"message":"permission denied"}' }),
    ).toEqual({
      kind: 'refused',
      reason: `${where} does not let the account of ARGOCD_AUTH_TOKEN list applications (HTTP 403: permission denied): give it \`applications, get\` in argocd-rbac-cm`,
    });
    expect((await failure({ status: 500, body: '{"error":"rpc error: code = Internal"}' }))?.reason).toBe(
      `${where} answered HTTP 500: rpc error: code = Internal`,
    );
    expect(await failure({ status: 404, body: '<html>Not Found</html>' })).toEqual({
      kind: 'not-found',
      reason: `${where} has no /api/v1/applications (HTTP 404): check ARGOCD_SERVER (with the path of a server run with --rootpath)`,
    });
    expect(await failure({ status: 429, headers: { 'retry-after': '30' } })).toEqual({
      kind: 'rate-limited',
      reason: `${where} answered HTTP 429`,
      retryAfterMs: 30_000,
    });
    expect(await failure({ status: 503, headers: { 'retry-after': new Date(NOW + 60_000).toUTCString() } })).toEqual({
      kind: 'unavailable',
      reason: `${where} answered HTTP 503`,
      retryAfterMs: 60_000,
    });
    expect((await failure({ status: 429, headers: { 'retry-after': ' 999999 ' } }))?.retryAfterMs).toBe(3_600_000);
    expect((await failure({ status: 429, headers: { 'retry-after': '1 day' } }))?.retryAfterMs).toBeUndefined();
    expect(await failure({ status: 502, body: 'Bad Gateway' })).toEqual({
      kind: 'unavailable',
      reason: `${where} answered HTTP 502`,
    });
    expect(await failure({ status: 200, body: '<html>login</html>' })).toEqual({
      kind: 'malformed',
      reason: `${where} answered 200 with a body that is no JSON`,
    });
    expect(await failure({ status: 200, body: '[]' })).toEqual({
      kind: 'malformed',
      reason: `${where} answered 200 with the answer is not an application list ({ "items": [...] })`,
    });
    const started = Date.now();
    expect(await failure({ huge: 50 })).toEqual({
      kind: 'too-large',
      reason: `${where} answered more than the 10 MiB a pass reads: nothing of it was used`,
    });
    expect(await failure({ hang: true })).toEqual({ kind: 'unavailable', reason: `${where}: no answer within 1 s` });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await deps.store.list(['pending', 'skipped'], 100)).toEqual([]);
    // The next pass, once Argo CD answers again, gets the sync in.
    expect(await argocdCatchUpPass(config(), deps)).toMatchObject({ found: 1, fetched: 1 });
  });

  it('never says the token, whatever Argo CD answers', async () => {
    const deps = setup();
    const forms = [TOKEN, encodeURIComponent(TOKEN), JSON.stringify(TOKEN).slice(1, -1), `Bearer ${TOKEN}`];
    const echo = fc.oneof(
      fc.constantFrom(...forms),
      fc.string({ maxLength: 20 }).map((text) => `${text}${TOKEN}${text}`),
    );
    const answer = fc.record({
      status: fc.constantFrom(200, 400, 401, 403, 404, 429, 500, 503),
      body: fc.oneof(
        echo.map((said) => JSON.stringify({ error: said, code: 16, message: said })),
        echo.map((said) =>
          JSON.stringify({ items: [application(UID, said, { history: [{ id: 1, deployedAt: said }] })] }),
        ),
        echo.map((said) => JSON.stringify({ items: [{ metadata: { name: said }, status: { history: [{}] } }] })),
        echo,
      ),
      retryAfter: fc.option(echo, { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(answer, async ({ status, body, retryAfter }) => {
        fake.script({ status, body, headers: retryAfter ? { 'retry-after': retryAfter } : {} });
        const pass = await argocdCatchUpPass(config(), deps);
        const said = `${JSON.stringify(pass)}\n${describeArgoCdPass(config(), pass)}`;
        expect(said).not.toContain(TOKEN);
        expect(said).not.toContain(encodeURIComponent(TOKEN));
      }),
      { numRuns: 60 },
    );
  });

  it('gets in the syncs of many applications together, and says a store that refuses them without the token', async () => {
    const deps = setup();
    await argocdCatchUpPass(config(), { ...deps, now: () => MARK });
    fake.applications = Array.from({ length: 250 }, (_, i) =>
      application(`5b3f0e2c-8a41-4d6f-9c2e-${String(i).padStart(12, '0')}`, `app-${i}`, {
        history: [historyEntry(0, START, SHA)],
      }),
    );
    // Offered 100 at a time, so that the store takes each hundred in one commit.
    let inFlight = 0;
    const most: number[] = [];
    const offered: NewDelivery[] = [];
    const counting = {
      ...deps,
      store: {
        accept: async (delivery: NewDelivery) => {
          most.push(++inFlight);
          offered.push(delivery);
          try {
            return await deps.store.accept(delivery);
          } finally {
            inFlight--;
          }
        },
      },
    };
    expect(await argocdCatchUpPass(config(), counting)).toEqual({
      found: 250,
      fetched: 250,
      baseline: 0,
      expired: 0,
      unreadable: [],
    });
    expect(Math.max(...most)).toBe(100);
    expect(offered[0]?.events[0]?.fields.link).toBe(`${fake.url}/applications/argocd/app-0?operation=true`);
    expect(await deps.store.list(['pending'], 1000)).toHaveLength(250);
    expect(await argocdCatchUpPass(config(), deps)).toMatchObject({ found: 0, fetched: 0 });
    const refusing = { ...deps, store: { accept: () => Promise.reject(new Error(`database is locked (${TOKEN})`)) } };
    expect(await argocdCatchUpPass(config(), refusing)).toEqual({
      found: 100,
      fetched: 0,
      baseline: 0,
      expired: 0,
      unreadable: [],
      failure: { kind: 'store', reason: 'the store refused a caught-up sync: Error: database is locked (***)' },
    });
  });

  it('says a store that cannot give the mark, and sums a pass up in one line', async () => {
    const before = fake.requests.length;
    const deps = setup({ markOf: () => Promise.reject(new Error('SQLITE_BUSY')) });
    expect(await argocdCatchUpPass(config(), deps)).toEqual({
      found: 0,
      fetched: 0,
      baseline: 0,
      expired: 0,
      unreadable: [],
      failure: { kind: 'store', reason: "the store could not give this Argo CD's catch-up mark: Error: SQLITE_BUSY" },
    });
    // Nothing asked of Argo CD without a mark to read its answer against.
    expect(fake.requests).toHaveLength(before);
    const pass = {
      found: 3,
      fetched: 2,
      baseline: 0,
      expired: 4,
      unreadable: ['a: b', 'c: d'],
      failure: { kind: 'store' as const, reason: 'disk full' },
    };
    expect(describeArgoCdPass(config(), pass)).toBe(
      `Argo CD catch-up (${fake.url.slice('http://'.length)}): 3 syncs not held, 2 got in; 4 past the retention window (not sent); unreadable: a: b; c: d; stopped: disk full`,
    );
  });
});

describe('a catch-up pass over HTTPS, as every request the project makes', () => {
  let fake: FakeArgoCd;
  let proxy: ForwardProxy;
  const defaultCas = getCACertificates('default');
  beforeAll(async () => {
    fake = await startFakeArgoCd(TOKEN, tlsFixture('server'));
    proxy = await startForwardProxy({ hosts: { 'tracker.test': '127.0.0.1' } });
  });
  const stores: Store[] = [];
  afterAll(async () => {
    for (const store of stores) await store.close();
    setDefaultCACertificates(defaultCas);
    await fake.close();
    await proxy.close();
  });
  const pass = (server: string, env: Record<string, string> = {}) => {
    const store = openSqliteStore(':memory:');
    stores.push(store);
    return argocdCatchUpPass(readArgoCdCatchUp({ ARGOCD_SERVER: server, ARGOCD_AUTH_TOKEN: TOKEN, ...env })!, {
      store,
      // Catch-up began a day ago.
      marks: { markOf: () => Promise.resolve(MARK) },
      env,
      now: () => NOW,
    });
  };
  const port = () => new URL(fake.url).port;

  it('refuses a certificate no trusted authority issued, and says so', async () => {
    setDefaultCACertificates(defaultCas);
    expect((await pass(`127.0.0.1:${port()}`)).failure).toEqual({
      kind: 'unavailable',
      reason: `Argo CD at https://127.0.0.1:${port()}/: the TLS certificate of 127.0.0.1:${port()} is issued by an authority this runner does not trust (UNABLE_TO_VERIFY_LEAF_SIGNATURE). If the service uses a private certificate authority, point NODE_EXTRA_CA_CERTS at its certificate`,
      retryAfterMs: undefined,
    });
  });

  it("reads the list with the authority NODE_EXTRA_CA_CERTS adds, through HTTPS_PROXY's tunnel", async () => {
    // NODE_EXTRA_CA_CERTS is read once, as a process starts: here its effect, on the default authorities.
    setDefaultCACertificates([...defaultCas, readFileSync(TEST_CA_PATH, 'utf8')]);
    fake.applications = [syncOf('Succeeded')];
    expect(await pass(`127.0.0.1:${port()}`)).toMatchObject({ found: 1, fetched: 1 });
    const before = fake.requests.length;
    expect(await pass(`tracker.test:${port()}`, { HTTPS_PROXY: proxy.url })).toMatchObject({ found: 1, fetched: 1 });
    expect(proxy.tunnels).toEqual([`tracker.test:${port()}`]);
    expect(fake.requests.length).toBe(before + 1);
  });
});
