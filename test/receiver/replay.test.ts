// Replays after retention: a signed body captured and sent again once its deduplication row is gone
// (7 days) must record nothing. Each source reads the payload's own time, and the server stores
// nothing older than the retention window, answering 2xx (GitLab disables a hook on a 4xx).
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Log } from '../../src/core/log.ts';
import { Metrics } from '../../src/receiver/metrics.ts';
import { RETAIN_MS, SENDER_CLOCK_AHEAD_MS, tooOld } from '../../src/receiver/retention.ts';
import { createReceiverServer } from '../../src/receiver/server.ts';
import { argocd } from '../../src/receiver/sources/argocd.ts';
import { flux } from '../../src/receiver/sources/flux.ts';
import { github } from '../../src/receiver/sources/github.ts';
import { gitlab } from '../../src/receiver/sources/gitlab.ts';
import { SOURCES } from '../../src/receiver/sources/index.ts';
import { gitlabTime as readGitlabTime, rfc3339 as readRfc3339 } from '../../src/receiver/sources/times.ts';
import type { Source } from '../../src/receiver/source.ts';
import { openStore } from '../../src/receiver/store/index.ts';
import type { Store } from '../../src/receiver/store/store.ts';
import { argocdDelivery, SOURCE_ENV, type SourceDelivery } from './helpers/deliveries.ts';
import { deploymentStatus, signed } from './helpers/github-delivery.ts';
import { fixture, fluxSignature, gitlabTime, request, rfc3339 } from './helpers/request.ts';

const DAY = 24 * 3600_000;
/** A delivery's JSON body, the parts these tests change. */
interface Body {
  app: { uid: string };
  operation: { startedAt: string; finishedAt: string };
  deployment: { id: number };
  deployment_status: { updated_at: string };
}
const json = (delivery: { body: Buffer }) => JSON.parse(delivery.body.toString()) as Body;

type Name = 'github' | 'gitlab' | 'argocd' | 'flux';

/** A delivery of `source` sent at `sentAt`, the `n`th of the test (each its own deployment). */
function sentAt(source: Name, at: number, n: number): SourceDelivery {
  switch (source) {
    case 'github': {
      const payload = json(deploymentStatus('success', 1));
      payload.deployment.id = 5000 + n;
      payload.deployment_status.updated_at = rfc3339(at);
      return { ...signed('deployment_status', Buffer.from(JSON.stringify(payload))), path: '/webhooks/github' };
    }
    case 'gitlab': {
      const payload = { ...fixture('gitlab', 'deployment-success.json'), deployment_id: 5000 + n };
      const body = Buffer.from(JSON.stringify({ ...payload, status_changed_at: gitlabTime(at) }));
      return { path: '/webhooks/gitlab', body, headers: { 'x-gitlab-token': SOURCE_ENV.GITLAB_WEBHOOK_TOKEN } };
    }
    case 'argocd': {
      const delivery = argocdDelivery('deployed');
      const payload = json(delivery);
      payload.app.uid = `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
      payload.operation.startedAt = rfc3339(at - 30_000);
      payload.operation.finishedAt = rfc3339(at);
      return { ...delivery, body: Buffer.from(JSON.stringify(payload)) };
    }
    case 'flux': {
      const payload = fixture('flux', 'kustomization-progressing.json');
      const metadata = { revision: `main@sha1:${n.toString(16).padStart(40, '0')}` };
      // Each its own object: an event older than one its object sent already would start nothing.
      const involvedObject = {
        ...(payload.involvedObject as object),
        uid: `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`,
      };
      const body = Buffer.from(JSON.stringify({ ...payload, involvedObject, metadata, timestamp: rfc3339(at) }));
      return {
        path: '/webhooks/flux',
        body,
        headers: { 'x-signature': fluxSignature(SOURCE_ENV.FLUX_WEBHOOK_KEY, body) },
      };
    }
  }
}

describe("each source reads the payload's own time", () => {
  const at = Date.parse('2026-03-02T10:15:31Z');
  it.each([
    ['github', github],
    ['gitlab', gitlab],
    ['argocd', argocd],
    ['flux', flux],
  ] as [Name, Source][])('%s', (name, source) => {
    const delivery = sentAt(name, at, 1);
    expect(source.parse({ headers: delivery.headers, body: delivery.body, now: at })).toMatchObject({
      verdict: 'accepted',
      sentAt: at,
    });
  });

  it('Argo CD: the sync start while it runs, and none for a degraded application (it may degrade long after)', () => {
    const running = json(argocdDelivery('running'));
    expect(argocd.parse(request(running))).toMatchObject({ sentAt: Date.parse(running.operation.startedAt) });
    const degraded = { ...json(argocdDelivery('deployed')), trigger: 'on-health-degraded', health: 'Degraded' };
    const parsed = argocd.parse(request(degraded));
    expect(parsed).toMatchObject({ verdict: 'accepted', events: [{ status: 'FAILED' }] });
    expect(parsed).not.toHaveProperty('sentAt', expect.any(Number));
  });

  it('reads RFC 3339 and GitLab times, and nothing else', () => {
    expect(readGitlabTime('2021-04-28 21:50:00 +0200')).toBe(Date.parse('2021-04-28T19:50:00Z'));
    expect(readGitlabTime('2021-04-28 19:50:00 UTC')).toBe(Date.parse('2021-04-28T19:50:00Z'));
    expect(readGitlabTime('2021-04-28T19:50:00Z')).toBe(Date.parse('2021-04-28T19:50:00Z'));
    expect(readRfc3339('2021-04-28T21:50:00.25+02:00')).toBe(Date.parse('2021-04-28T19:50:00.250Z'));
    for (const value of [
      '',
      '2021-04-28',
      '2021-04-28 21:50:00',
      '2021-02-30T00:00:00Z',
      '2021-04-28T24:00:00Z',
      'now',
      '1619639400',
    ]) {
      expect(readRfc3339(value)).toBeUndefined();
      expect(readGitlabTime(value)).toBeUndefined();
    }
  });

  it('refuses what was sent longer ago than the window, a sender running up to 5 minutes ahead included', () => {
    const now = Date.parse('2030-01-08T00:00:00Z');
    const limit = RETAIN_MS - SENDER_CLOCK_AHEAD_MS;
    expect(tooOld(undefined, now)).toBeUndefined();
    expect(tooOld(now + DAY, now)).toBeUndefined();
    expect(tooOld(now - limit, now)).toBeUndefined();
    expect(tooOld(now - limit - 1, now)).toBe(
      'sent 2030-01-01T00:04:59.999Z, older than the 7-day retention window: a replay, or a delivery too late to tell from one; nothing is stored',
    );
  });
});

describe('the server, given a delivery older than the retention window', () => {
  const lines: string[] = [];
  const keep = (text: string | readonly string[] | (() => string | readonly string[])) => {
    const value = typeof text === 'function' ? text() : text;
    lines.push(...(typeof value === 'string' ? [value] : value));
  };
  const log: Log = { debug: keep, info: keep, warning: keep, clean: (line) => line };
  const metrics = new Metrics();
  let store: Store;
  let port: number;
  let server: ReturnType<typeof createReceiverServer>;
  beforeAll(async () => {
    store = openStore(':memory:');
    server = createReceiverServer({
      known: SOURCES,
      enabled: SOURCES.map((source) => ({ source, secrets: source.secrets(SOURCE_ENV) })),
      store,
      metrics,
      log,
      stored: () => undefined,
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await store.close();
  });

  const items = async () => (await store.list(['pending', 'skipped'], 10_000)).length;
  async function post(delivery: SourceDelivery) {
    const response = await fetch(`http://127.0.0.1:${port}${delivery.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...delivery.headers },
      body: delivery.body,
    });
    return { status: response.status, text: await response.text() };
  }

  it.each(['github', 'gitlab', 'argocd', 'flux'] as Name[])(
    '%s: answers 202 and why, stores nothing, and counts it ignored',
    async (name) => {
      const before = await items();
      const old = sentAt(name, Date.now() - 8 * DAY, 100);
      const answer = await post(old);
      expect(answer.status).toBe(202);
      expect(answer.text).toMatch(/^ignored: sent \S+Z, older than the 7-day retention window: a replay/);
      expect(await items()).toBe(before);
      expect(lines.at(-1)).toMatch(new RegExp(`^${name} delivery .*: ignored \\(sent .* older than the 7-day`));
      expect(metrics.text({ queueDepth: 0, oldestPendingSeconds: 0, held: 0, failed: 0 })).toContain(
        `report_deployment_deliveries_total{source="${name}",verdict="ignored"} 1`,
      );
      // The same, sent within the window: stored.
      expect(await post(sentAt(name, Date.now() - 6 * DAY, 100))).toEqual({ status: 202, text: 'stored\n' });
      expect(await items()).toBe(before + 1);
    },
  );

  it('stores a delivery of any source only where it was sent within the window', async () => {
    let n = 1000;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Name>('github', 'gitlab', 'argocd', 'flux'),
        fc.integer({ min: -DAY, max: 30 * DAY }),
        async (name, age) => {
          const before = await items();
          const answer = await post(sentAt(name, Math.floor((Date.now() - age) / 1000) * 1000, ++n));
          const fresh = age < RETAIN_MS - SENDER_CLOCK_AHEAD_MS - 60_000;
          const old = age > RETAIN_MS - SENDER_CLOCK_AHEAD_MS + 60_000;
          fc.pre(fresh || old);
          expect(answer.status).toBe(202);
          expect(answer.text.startsWith('ignored: ')).toBe(old);
          expect(await items()).toBe(old ? before : before + 1);
        },
      ),
      { numRuns: 60 },
    );
  });
});
