// Flux: the shipped Provider and Alert (the Secret is the user's), which requests are Flux's own, and what each event records.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Alert, Provider } from '@kubernetes-models/flux-cd/notification.toolkit.fluxcd.io/v1beta3';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { flux } from '../../src/receiver/sources/flux.ts';
import { revisionFacts } from '../../src/receiver/sources/flux-revision.ts';
import { ROOT } from '../helpers/run-action.ts';
import { fixture, fluxSignature, request } from '../helpers/receiver/request.ts';

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
  const baseline = { object: 'Kustomization/flux-system/apps', revision: `main@sha1:${SHA}` };

  it.each([
    ['kustomization-progressing.json', 'STARTED'],
    ['kustomization-succeeded.json', 'SUCCEEDED'],
    ['kustomization-health-failed.json', 'FAILED'],
  ])('%s records %s, with the baseline', (name, status) => {
    expect(flux.parse(request(fixture('flux', name)))).toMatchObject({
      verdict: 'accepted',
      events: [{ key: `flux:${UID}:main@sha1:${SHA}`, status, object: baseline.object, fields, baseline }],
    });
  });

  it('reads the metadata keys of older controllers, with their group prefix', () => {
    expect(flux.parse(request(fixture('flux', 'kustomization-succeeded-prefixed.json')))).toMatchObject({
      events: [
        {
          key: `flux:${UID}:main/${SHA}`,
          status: 'SUCCEEDED',
          fields: { ...fields, environment: 'Production' },
          baseline: { object: baseline.object, revision: `main/${SHA}` },
        },
      ],
    });
  });

  it("records a HelmRelease's upgrade under its chart version", () => {
    expect(flux.parse(request(fixture('flux', 'helmrelease-upgrade-succeeded.json')))).toMatchObject({
      events: [
        {
          key: 'flux:3f9c2a10-5b7e-4e21-9d3a-0c6b8e1f2a47:6.7.1',
          status: 'SUCCEEDED',
          object: 'HelmRelease/podinfo/podinfo',
          fields: { artifactName: 'podinfo', version: '6.7.1', commitSha: '6.7.1', branch: '6.7.1' },
          baseline: { object: 'HelmRelease/podinfo/podinfo', revision: '6.7.1' },
        },
      ],
    });
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
