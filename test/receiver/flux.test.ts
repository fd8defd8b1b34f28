// Flux: the shipped Provider and Alert (the Secret is the user's), which requests are Flux's own, and what each event records.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Alert, Provider } from '@kubernetes-models/flux-cd/notification.toolkit.fluxcd.io/v1beta3';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { flux } from '../../src/receiver/sources/flux.ts';
import { revisionFacts } from '../../src/receiver/sources/flux-revision.ts';
import { ROOT } from '../helpers/run-action.ts';
import { fixture, fluxSignature, request } from './helpers/request.ts';

const KEY = 'flux-hmac-key-8d21';
const UID = '7d0cdc51-ddcd-4954-b5e4-cfa3a0d4d7a1';
const SHA = '8b2e5e4a7d9f3c1b0a6e4d2c8f7a9b1c3d5e7f90';

describe('the Flux example', () => {
  const documents = parseAllDocuments(readFileSync(join(ROOT, 'examples', 'receiver', 'flux.yaml'), 'utf8')).map(
    (document) => document.toJS() as { kind: string; metadata: object; spec?: Record<string, unknown> },
  );
  const of = (kind: string) => documents.find((document) => document.kind === kind) as never;

  it('holds a generic-hmac Provider and an Alert, each valid against its schema, in no namespace of its own', () => {
    // No Secret: applied after the real one (as the docs say), a placeholder would overwrite the key.
    expect(documents.map((document) => document.kind)).toEqual(['Provider', 'Alert']);
    // No namespace: `kubectl -n <namespace> apply -f flux.yaml` works in each namespace.
    for (const document of documents) expect(document.metadata).not.toHaveProperty('namespace');
    expect(() => new Provider(of('Provider')).validate()).not.toThrow();
    expect(() => new Alert(of('Alert')).validate()).not.toThrow();
    // The schemas do catch a mistake: an Alert with no provider is refused.
    expect(() => new Alert({ ...(of('Alert') as object), spec: { eventSources: [] } } as never).validate()).toThrow();
  });

  it('sends every Kustomization and HelmRelease event, info and above, with the environment', () => {
    const provider = new Provider(of('Provider'));
    expect(provider.spec).toMatchObject({ type: 'generic-hmac', secretRef: { name: 'report-deployment-webhook' } });
    expect(provider.spec?.address).toMatch(/^https:\/\/.+\/webhooks\/flux$/);
    const alert = new Alert(of('Alert'));
    expect(alert.spec).toMatchObject({
      providerRef: { name: 'report-deployment' },
      eventSeverity: 'info',
      eventSources: [
        { kind: 'Kustomization', name: '*' },
        { kind: 'HelmRelease', name: '*' },
      ],
      eventMetadata: { env: 'Production' },
    });
  });
});

describe('Flux: verify', () => {
  const key = flux.secrets({ FLUX_WEBHOOK_KEY: KEY })!;
  const body = Buffer.from(JSON.stringify(fixture('flux', 'kustomization-progressing.json')));

  it('takes X-Signature sha256=<hex> over the body, and nothing else', () => {
    expect(flux.secrets({})).toBeUndefined();
    expect(flux.verify(request(body, { 'x-signature': fluxSignature(KEY, body) }), key)).toEqual({ ok: true });
    expect(flux.verify(request(body, { 'x-signature': fluxSignature(`${KEY}x`, body) }), key).ok).toBe(false);
    const other = Buffer.concat([body, Buffer.from('\n')]);
    expect(flux.verify(request(other, { 'x-signature': fluxSignature(KEY, body) }), key).ok).toBe(false);
    expect(flux.verify(request(body, { 'x-signature': fluxSignature(KEY, body).slice(7) }), key).ok).toBe(false);
    expect(flux.verify(request(body), key).ok).toBe(false);
  });

  it('says whether X-Signature is missing or malformed, from the headers alone', () => {
    const reason = (headers: Record<string, string>) => {
      const checked = flux.checkHeaders({ headers, now: 0 }, key);
      return checked.ok ? 'ok' : checked.reason;
    };
    expect(reason({})).toBe('no X-Signature header');
    expect(reason({ 'x-signature': 'sha256=' })).toBe('X-Signature is not sha256=<64 hex digits>');
    expect(reason({ 'x-signature': fluxSignature(KEY, body) })).toBe('ok');
  });

  it('refuses at start a key of white space or under 16 characters, naming FLUX_WEBHOOK_KEY', () => {
    for (const value of ['   ', 'flux-key']) {
      expect(() => flux.secrets({ FLUX_WEBHOOK_KEY: value })).toThrow(/^Environment variable FLUX_WEBHOOK_KEY /);
    }
  });
});

describe('Flux: the events', () => {
  const fields = {
    artifactName: 'apps',
    version: SHA,
    environment: 'Production',
    commitSha: SHA,
    user: 'Flux',
    branch: 'main',
  };
  const object = 'Kustomization/flux-system/apps';
  const identity = `${object}@env=Production@uid=${UID}`;
  const baseline = { object: identity, revision: `main@sha1:${SHA}`, repeats: true };

  it.each([
    ['kustomization-progressing.json', 'STARTED'],
    ['kustomization-succeeded.json', 'SUCCEEDED'],
    ['kustomization-health-failed.json', 'FAILED'],
  ])('%s records %s, with the baseline', (name, status) => {
    expect(flux.parse(request(fixture('flux', name)))).toMatchObject({
      verdict: 'accepted',
      events: [
        {
          key: `flux:${UID}:main@sha1:${SHA}`,
          status,
          object,
          labels: { env: 'Production', uid: UID },
          fields,
          baseline,
        },
      ],
    });
  });

  it('reads the metadata keys of older controllers, with their group prefix', () => {
    expect(flux.parse(request(fixture('flux', 'kustomization-succeeded-prefixed.json')))).toMatchObject({
      events: [
        {
          key: `flux:${UID}:main/${SHA}`,
          status: 'SUCCEEDED',
          fields: { ...fields, environment: 'Production' },
          labels: { uid: UID },
          baseline: { object: `${object}@uid=${UID}`, revision: `main/${SHA}`, at: Date.parse('2026-03-02T10:15:31Z') },
        },
      ],
    });
  });

  it("records a HelmRelease's upgrade under its chart version, a deployment whatever the baseline", () => {
    const uid = '3f9c2a10-5b7e-4e21-9d3a-0c6b8e1f2a47';
    expect(flux.parse(request(fixture('flux', 'helmrelease-upgrade-succeeded.json')))).toMatchObject({
      events: [
        {
          key: `flux:${uid}:6.7.1:v7`,
          status: 'SUCCEEDED',
          object: 'HelmRelease/podinfo/podinfo',
          fields: { artifactName: 'podinfo', version: '6.7.1', commitSha: '6.7.1', branch: '6.7.1' },
          baseline: {
            object: `HelmRelease/podinfo/podinfo@env=Production@uid=${uid}`,
            revision: '6.7.1',
            at: Date.parse('2026-03-02T11:02:45Z'),
            repeats: false,
          },
        },
      ],
    });
  });

  it("tells one Helm action from another at one chart version by the Helm release its message names, else by the values' token", () => {
    const uid = '3f9c2a10-5b7e-4e21-9d3a-0c6b8e1f2a47';
    const upgrade = fixture('flux', 'helmrelease-upgrade-succeeded.json');
    const parse = (reason: string, message: string, metadata: object = {}) => {
      const parsed = flux.parse(
        request({ ...upgrade, reason, message, metadata: { ...(upgrade.metadata as object), ...metadata } }),
      );
      if (parsed.verdict !== 'accepted') throw new Error(JSON.stringify(parsed));
      return [parsed.events[0]?.key, parsed.deliveryId];
    };
    const release = (n: number) => `release podinfo/podinfo.v${n} with chart podinfo@6.7.1`;
    const cases = [
      // A values-only upgrade (v8), a rollback to v7: each its own deployment.
      parse('UpgradeSucceeded', `Helm upgrade succeeded for ${release(7)}`),
      parse('UpgradeSucceeded', `Helm upgrade succeeded for ${release(8)}`),
      parse('RollbackSucceeded', `Helm rollback to previous ${release(7)} succeeded`),
      // A test is of the release it tests: its upgrade's key.
      parse('TestFailed', `Helm test failed for ${release(8)}: pod podinfo-grpc-test failed`),
      // A failed upgrade names no release: the values' token, where notification-controller forwards it (before v1.2.3).
      parse('UpgradeFailed', 'Helm upgrade failed for release podinfo/podinfo with chart podinfo@6.7.1: timed out', {
        'helm.toolkit.fluxcd.io/token': 'sha256:1f0e2d3c',
      }),
      // Neither: the chart version alone (docs/receiver.md says what that loses).
      parse('UpgradeFailed', 'Helm upgrade failed for release podinfo/podinfo with chart podinfo@6.7.1: timed out'),
      // A failure's release name that merely ends like a version is no release version.
      parse('UpgradeFailed', 'Helm upgrade failed for release podinfo/podinfo.v2 with chart'),
    ];
    expect(cases.map(([key]) => key)).toEqual([
      `flux:${uid}:6.7.1:v7`,
      `flux:${uid}:6.7.1:v8`,
      `flux:${uid}:6.7.1:rollback-to-v7`,
      `flux:${uid}:6.7.1:v8`,
      `flux:${uid}:6.7.1:sha256:1f0e2d3c`,
      `flux:${uid}:6.7.1`,
      `flux:${uid}:6.7.1`,
    ]);
    // Each action its own delivery: a values-only upgrade is no duplicate of the one before it.
    // Two failed upgrades that name nothing are one delivery: the second is a duplicate (the limit the docs say).
    const ids = cases.map(([, deliveryId]) => deliveryId);
    expect(new Set(ids.slice(0, 6)).size).toBe(6);
    expect(ids[6]).toBe(ids[5]);
    // A Kustomization's key is its revision alone, whatever its message or metadata say.
    const kustomization = { ...fixture('flux', 'kustomization-succeeded.json'), message: `x ${release(3)}` };
    const parsed = flux.parse(request({ ...kustomization, metadata: { revision: `main@sha1:${SHA}`, token: 't' } }));
    expect(parsed).toMatchObject({ events: [{ key: `flux:${UID}:main@sha1:${SHA}` }] });
  });

  it.each([
    ['InstallSucceeded', false],
    ['UpgradeSucceeded', false],
    ['RollbackSucceeded', false],
    ['InstallFailed', false],
    ['UpgradeFailed', false],
    ['RollbackFailed', false],
    ['ReconciliationSucceeded', true],
    ['ReconciliationFailed', true],
    ['HealthCheckFailed', true],
  ])('takes %s for a reason Flux repeats at every interval: %s', (reason, repeats) => {
    const event = { ...fixture('flux', 'helmrelease-upgrade-succeeded.json'), reason };
    expect(flux.parse(request(event))).toMatchObject({ verdict: 'accepted', events: [{ baseline: { repeats } }] });
  });

  it("knows an object by its uid and its Alert's cluster and environment: one per cluster", () => {
    const succeeded = fixture('flux', 'kustomization-succeeded.json');
    const staging = {
      ...succeeded,
      involvedObject: { ...(succeeded.involvedObject as object), uid: '0b6f3c2e-1d4a-4e5f-8a9b-7c6d5e4f3a21' },
      metadata: { revision: `main@sha1:${SHA}`, cluster: 'staging-eu', env: 'Staging' },
    };
    expect(flux.parse(request(staging))).toMatchObject({
      events: [
        {
          key: `flux:0b6f3c2e-1d4a-4e5f-8a9b-7c6d5e4f3a21:main@sha1:${SHA}`,
          object,
          labels: { cluster: 'staging-eu', env: 'Staging', uid: '0b6f3c2e-1d4a-4e5f-8a9b-7c6d5e4f3a21' },
          baseline: { object: `${object}@cluster=staging-eu@env=Staging@uid=0b6f3c2e-1d4a-4e5f-8a9b-7c6d5e4f3a21` },
        },
      ],
    });
    // Older controllers' prefixed keys, and `environment`, count too; a label is cleaned like any value.
    const prefixed = {
      ...succeeded,
      metadata: {
        'kustomize.toolkit.fluxcd.io/revision': `main@sha1:${SHA}`,
        'kustomize.toolkit.fluxcd.io/cluster': 'prod\u202e-eu',
        environment: 'prod',
      },
    };
    expect(flux.parse(request(prefixed))).toMatchObject({
      events: [
        {
          labels: { cluster: 'prod -eu', environment: 'prod', uid: UID },
          baseline: { object: `${object}@cluster=prod -eu@environment=prod@uid=${UID}` },
        },
      ],
    });
  });

  it('keeps a label to 150 characters, so that the identity keeps its uid whole', () => {
    const succeeded = fixture('flux', 'kustomization-succeeded.json');
    const long = { ...succeeded, metadata: { revision: `main@sha1:${SHA}`, cluster: 'c'.repeat(400) } };
    expect(flux.parse(request(long))).toMatchObject({
      events: [
        {
          labels: { cluster: 'c'.repeat(150) },
          baseline: { object: `${object}@cluster=${'c'.repeat(150)}@uid=${UID}` },
        },
      ],
    });
  });

  it('requires the time Flux gives every event, RFC 3339, and reads it to the millisecond', () => {
    const succeeded = fixture('flux', 'kustomization-succeeded.json');
    for (const timestamp of [undefined, '', '2026-03-02 10:15:31', 'yesterday', 1772446531, '2026-13-02T10:15:31Z']) {
      expect(flux.parse(request({ ...succeeded, timestamp }))).toEqual({
        verdict: 'invalid',
        reason: 'timestamp (RFC 3339, as notification-controller sends it) is required',
      });
    }
    // An event that records nothing is ignored, with a time or without.
    expect(flux.parse(request({ ...succeeded, reason: 'DependencyNotReady', timestamp: undefined }))).toMatchObject({
      verdict: 'ignored',
    });
    for (const [timestamp, at] of [
      ['2026-03-02T10:15:31.123456789Z', Date.parse('2026-03-02T10:15:31.123Z')],
      ['2026-03-02T11:15:31+01:00', Date.parse('2026-03-02T10:15:31Z')],
      ['2026-03-02t10:15:31.5z', Date.parse('2026-03-02T10:15:31.500Z')],
    ] as const) {
      expect(flux.parse(request({ ...succeeded, timestamp }))).toMatchObject({ events: [{ baseline: { at } }] });
    }
  });

  it.each([
    ['InstallSucceeded', 'SUCCEEDED'],
    ['RollbackSucceeded', 'SUCCEEDED'],
    ['UpgradeFailed', 'FAILED'],
    ['ReconciliationFailed', 'FAILED'],
    ['ArtifactFailed', 'FAILED'],
  ])('records %s as %s', (reason, status) => {
    const event = { ...fixture('flux', 'kustomization-succeeded.json'), reason };
    expect(flux.parse(request(event))).toMatchObject({ verdict: 'accepted', events: [{ status }] });
  });

  it('ignores other reasons, other kinds and events with no revision', () => {
    const succeeded = fixture('flux', 'kustomization-succeeded.json');
    for (const event of [
      { ...succeeded, reason: 'TestSucceeded' },
      { ...succeeded, reason: 'DependencyNotReady' },
      { ...succeeded, involvedObject: { ...(succeeded.involvedObject as object), kind: 'GitRepository' } },
      { ...succeeded, metadata: { env: 'Production' } },
    ]) {
      expect(flux.parse(request(event))).toMatchObject({ verdict: 'ignored' });
    }
    expect(
      flux.parse(request({ ...succeeded, involvedObject: { kind: 'Kustomization', name: 'apps' } })),
    ).toMatchObject({
      verdict: 'invalid',
    });
  });

  it('takes a repeat of the same success (every interval) for a duplicate, and a new revision for none', () => {
    const id = (event: object) => {
      const parsed = flux.parse(request(event));
      return parsed.verdict === 'invalid' ? undefined : parsed.deliveryId;
    };
    const succeeded = fixture('flux', 'kustomization-succeeded.json');
    expect(id(succeeded)).toBe(id({ ...succeeded, timestamp: '2026-03-02T10:25:31Z', message: 'next run in 10m0s' }));
    expect(id(succeeded)).not.toBe(id({ ...succeeded, metadata: { revision: `main@sha1:${'1'.repeat(40)}` } }));
    expect(id(succeeded)).not.toBe(id(fixture('flux', 'kustomization-progressing.json')));
  });
});

describe('Flux revisions', () => {
  it.each([
    [`main@sha1:${SHA}`, '', { commitSha: SHA, branch: 'main', version: SHA }],
    [`refs/heads/feature/x@sha1:${SHA}`, '', { commitSha: SHA, branch: 'feature/x', version: SHA }],
    [`v1.4.0@sha1:${SHA}`, '', { commitSha: SHA, branch: 'v1.4.0', version: 'v1.4.0' }],
    [`sha1:${SHA}`, '', { commitSha: SHA, branch: SHA, version: SHA }],
    [`main/${SHA}`, '', { commitSha: SHA, branch: 'main', version: SHA }],
    [
      `latest@sha256:${'a'.repeat(64)}`,
      '',
      {
        commitSha: `sha256:${'a'.repeat(64)}`,
        branch: `sha256:${'a'.repeat(64)}`,
        version: `sha256:${'a'.repeat(64)}`,
      },
    ],
    [`1.2.0@sha256:${'a'.repeat(64)}`, `main@sha1:${SHA}`, { commitSha: SHA, branch: 'main', version: '1.2.0' }],
    ['6.7.1', '', { commitSha: '6.7.1', branch: '6.7.1', version: '6.7.1' }],
  ])('%s (origin %s)', (revision, origin, facts) => {
    expect(revisionFacts(revision, origin)).toEqual(facts);
  });
});
