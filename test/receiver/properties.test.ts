// Hostile deliveries to the GitHub, GitLab, Argo CD and Flux sources: whatever the bytes and headers, no
// exception escapes, no wrong credential passes, and an accepted event holds only what the contract
// carries, as bounded one-line strings.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { DeploymentEvent, IncomingRequest } from '../../src/receiver/event.ts';
import { argocd } from '../../src/receiver/sources/argocd.ts';
import { clean, FIELD_LENGTH } from '../../src/receiver/sources/fields.ts';
import { flux } from '../../src/receiver/sources/flux.ts';
import { github } from '../../src/receiver/sources/github.ts';
import { gitlab } from '../../src/receiver/sources/gitlab.ts';
import type { Source } from '../../src/receiver/source.ts';
import { SOURCES } from '../../src/receiver/sources/index.ts';
import { hostileText } from '../helpers/hostile.ts';
import { ROOT } from '../helpers/run-action.ts';
import { fixture, fluxSignature, NOW, request, standardSignature } from './helpers/request.ts';

const RUNS = { numRuns: 200 };
const EVENT_KEYS = ['baseline', 'fields', 'key', 'labels', 'object', 'status'];
const FIELD_KEYS = [
  'artifactName',
  'branch',
  'changelog',
  'commitSha',
  'description',
  'environment',
  'link',
  'user',
  'version',
];
const UNSAFE = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

/** A value to put anywhere in a payload: hostile text, any JSON, or something of the wrong type. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileText(),
  fc.string({ unit: 'binary', maxLength: 50 }),
  fc.string({ minLength: 1100, maxLength: 1500 }),
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(null, 0, -1, 1.5, 2 ** 60, true, [], {}, '__proto__'),
);

/** The payload with some of its values, at the given paths, replaced by hostile ones. */
function hostilePayload(base: Record<string, unknown>, paths: string[][]): fc.Arbitrary<unknown> {
  return fc.array(fc.tuple(fc.constantFrom(...paths), hostileValue), { maxLength: 6 }).map((changes) => {
    const payload = structuredClone(base);
    for (const [path, value] of changes) {
      let target: Record<string, unknown> = payload;
      for (const name of path.slice(0, -1)) {
        const next = target[name];
        if (typeof next !== 'object' || next === null || Array.isArray(next)) target[name] = {};
        target = target[name] as Record<string, unknown>;
      }
      target[path.at(-1) as string] = value;
    }
    return payload;
  });
}

const githubBase = JSON.parse(
  readFileSync(join(ROOT, 'test/fixtures/deployment-status/queued.json'), 'utf8'),
) as Record<string, unknown>;
const githubPayload = hostilePayload(githubBase, [
  ['deployment', 'id'],
  ['deployment', 'sha'],
  ['deployment', 'ref'],
  ['deployment', 'environment'],
  ['deployment', 'description'],
  ['deployment', 'task'],
  ['deployment', 'creator', 'login'],
  ['deployment', 'payload', 'version'],
  ['deployment', 'payload'],
  ['deployment_status', 'state'],
  ['deployment_status', 'environment'],
  ['deployment_status', 'description'],
  ['deployment_status', 'log_url'],
  ['deployment_status', 'target_url'],
  ['deployment_status', 'environment_url'],
  ['deployment_status', 'performed_via_github_app', 'name'],
  ['repository', 'id'],
  ['repository', 'name'],
]);

const gitlabPayload = hostilePayload(fixture('gitlab', 'deployment-success.json'), [
  ['status'],
  ['object_kind'],
  ['deployment_id'],
  ['project', 'id'],
  ['project', 'name'],
  ['project', 'path_with_namespace'],
  ['environment'],
  ['user', 'username'],
  ['user', 'name'],
  ['user'],
  ['commit_url'],
  ['short_sha'],
  ['commit_title'],
  ['deployable_url'],
  ['status_changed_at'],
  ['project'],
]);

const argoBase = {
  trigger: 'on-deployed',
  app: {
    uid: '5b3f0e2c-8a41-4d6f-9c2e-7a1b0d3e4f56',
    name: 'guestbook',
    namespace: 'argocd',
    project: 'default',
    environment: 'Staging',
    artifact: '',
    repoURL: 'https://github.com/argoproj/argocd-example-apps.git',
    targetRevision: 'main',
  },
  operation: {
    phase: 'Succeeded',
    startedAt: '2026-03-02T10:15:03Z',
    finishedAt: '2026-03-02T10:15:40Z',
    initiatedBy: { username: 'alice' },
    revision: '53e28ff20cc530b9ada2173fbbd64d48338583ba',
    revisions: null,
    syncingRevision: '53e28ff20cc530b9ada2173fbbd64d48338583ba',
  },
  health: 'Healthy',
  syncRevision: '53e28ff20cc530b9ada2173fbbd64d48338583ba',
  argocdUrl: 'https://argocd.example.com',
};
const argoPayload = hostilePayload(argoBase, [
  ['trigger'],
  ['app', 'uid'],
  ['app', 'name'],
  ['app', 'namespace'],
  ['app', 'project'],
  ['app', 'environment'],
  ['app', 'artifact'],
  ['app', 'repoURL'],
  ['app', 'targetRevision'],
  ['operation', 'phase'],
  ['operation', 'startedAt'],
  ['operation', 'initiatedBy'],
  ['operation', 'initiatedBy', 'username'],
  ['operation', 'revision'],
  ['operation', 'revisions'],
  ['operation', 'syncingRevision'],
  ['health'],
  ['argocdUrl'],
  ['app'],
]);

const fluxPayload = fc.oneof(
  ...[
    'kustomization-progressing.json',
    'helmrelease-upgrade-succeeded.json',
    'kustomization-succeeded-prefixed.json',
  ].map((name) =>
    hostilePayload(fixture('flux', name), [
      ['involvedObject', 'kind'],
      ['involvedObject', 'name'],
      ['involvedObject', 'namespace'],
      ['involvedObject', 'uid'],
      ['reason'],
      ['message'],
      ['metadata'],
      ['metadata', 'revision'],
      ['metadata', 'kustomize.toolkit.fluxcd.io/revision'],
      ['metadata', 'originRevision'],
      ['metadata', 'env'],
      ['metadata', 'artifact'],
    ]),
  ),
);

/** Any bytes: hostile payloads as JSON, JSON of any shape, and no JSON at all. */
function bodies(payload: fc.Arbitrary<unknown>): fc.Arbitrary<Buffer> {
  return fc.oneof(
    { weight: 4, arbitrary: payload.map((value) => Buffer.from(JSON.stringify(value))) },
    { weight: 1, arbitrary: fc.jsonValue().map((value) => Buffer.from(JSON.stringify(value))) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)) },
  );
}

const headers = fc.dictionary(
  fc.constantFrom(
    'idempotency-key',
    'webhook-id',
    'webhook-timestamp',
    'webhook-signature',
    'x-gitlab-token',
    'authorization',
    'x-signature',
    'x-github-event',
    'x-github-delivery',
    'x-github-enterprise-host',
    'x-gitlab-instance',
  ),
  fc.oneof(hostileText(), fc.array(fc.string(), { maxLength: 2 })),
);

function checkEvent(event: DeploymentEvent): void {
  expect(Object.keys(event).every((key) => EVENT_KEYS.includes(key))).toBe(true);
  expect(Object.keys(event.fields).every((key) => FIELD_KEYS.includes(key))).toBe(true);
  expect(['STARTED', 'SUCCEEDED', 'FAILED']).toContain(event.status);
  const strings: string[] = [
    event.key,
    event.object,
    ...(Object.values(event.fields) as string[]),
    ...(event.baseline ? [event.baseline.object, event.baseline.revision] : []),
    ...Object.values(event.labels ?? {}),
  ];
  for (const value of strings) {
    expect(typeof value).toBe('string');
    expect(value.length).toBeGreaterThan(0);
    expect([...value].length).toBeLessThanOrEqual(FIELD_LENGTH);
    expect(value).not.toMatch(UNSAFE);
    expect(value.isWellFormed()).toBe(true);
  }
  for (const name of ['artifactName', 'version', 'environment', 'commitSha', 'user', 'branch'] as const) {
    expect(event.fields[name].trim()).not.toBe('');
  }
}

function checkParse(source: Source, request: IncomingRequest): void {
  const parsed = source.parse(request);
  expect(['accepted', 'ignored', 'invalid']).toContain(parsed.verdict);
  if (parsed.verdict !== 'invalid') {
    expect(parsed.deliveryId).toMatch(/^[\x21-\x7e]{1,200}$/);
  }
  if (parsed.verdict === 'accepted') parsed.events.forEach(checkEvent);
  else expect(parsed.reason).not.toMatch(UNSAFE);
}

/** The headers a GitHub delivery of a deployment_status event carries (the others need none to parse). */
const GITHUB_HEADERS = {
  'x-github-event': 'deployment_status',
  'x-github-delivery': 'a3c1e0f2-0d0c-11f0-9f0e-1d2c3b4a5f60',
};

describe.each([
  ['github', github as Source, githubPayload, GITHUB_HEADERS],
  ['gitlab', gitlab as Source, gitlabPayload, {}],
  ['argocd', argocd as Source, argoPayload, {}],
  ['flux', flux as Source, fluxPayload, {}],
])('the %s source, on hostile deliveries', (_name, source, payload, sent) => {
  it('never throws, and an event holds only bounded one-line strings of the contract', () => {
    fc.assert(
      fc.property(bodies(payload), headers, fc.boolean(), (body, given, withSent) => {
        checkParse(source, { headers: withSent ? { ...given, ...sent } : given, body, now: NOW });
      }),
      RUNS,
    );
  });

  it('accepts at least some of them, so that the invariants above are not vacuous', () => {
    const accepted = fc
      .sample(payload, 200)
      .filter((value) => source.parse(request(value as object, sent)).verdict === 'accepted');
    expect(accepted.length).toBeGreaterThan(20);
  });
});

describe('no wrong credential passes', () => {
  it('GitLab: neither a wrong token nor a signature made without the key', () => {
    const key = Buffer.from('the signing key, 32 bytes long..');
    const secrets = gitlab.secrets({
      GITLAB_WEBHOOK_TOKEN: 'tok-3f9a-5e1d7c20b4',
      GITLAB_WEBHOOK_SIGNING_TOKEN: `whsec_${key.toString('base64')}`,
    })!;
    fc.assert(
      fc.property(
        bodies(gitlabPayload),
        headers,
        fc.uint8Array({ minLength: 1, maxLength: 40 }),
        (body, given, otherKey) => {
          fc.pre(given['x-gitlab-token'] !== 'tok-3f9a-5e1d7c20b4');
          const id = 'msg_1';
          const timestamp = String(NOW / 1000);
          const forged = standardSignature(Buffer.from(otherKey), id, NOW / 1000, body);
          fc.pre(!Buffer.from(otherKey).equals(key));
          const withForgery = {
            ...given,
            'webhook-id': id,
            'webhook-timestamp': timestamp,
            'webhook-signature': forged,
          };
          expect(gitlab.verify({ headers: withForgery, body, now: NOW }, secrets).ok).toBe(false);
          expect(
            gitlab.verify({ headers: { ...given, 'webhook-signature': undefined }, body, now: NOW }, secrets).ok,
          ).toBe(false);
        },
      ),
      RUNS,
    );
  });

  it('Argo CD: any Authorization but the bearer token', () => {
    const token = argocd.secrets({ ARGOCD_WEBHOOK_TOKEN: 's3cr3t-argo-token-71' })!;
    fc.assert(
      fc.property(headers, (given) => {
        fc.pre(!/^bearer +s3cr3t-argo-token-71$/i.test(String(given.authorization ?? '')));
        expect(argocd.verify({ headers: given, body: Buffer.from('{}'), now: NOW }, token).ok).toBe(false);
      }),
      RUNS,
    );
  });

  it('Flux: any X-Signature but the HMAC of these bytes with the key', () => {
    const key = flux.secrets({ FLUX_WEBHOOK_KEY: 'flux-key-0c9d2e71a5' })!;
    fc.assert(
      fc.property(bodies(fluxPayload), headers, fc.string({ minLength: 1 }), (body, given, otherKey) => {
        fc.pre(otherKey !== 'flux-key-0c9d2e71a5');
        expect(flux.verify({ headers: given, body, now: NOW }, key).ok).toBe(false);
        expect(flux.verify({ headers: { 'x-signature': fluxSignature(otherKey, body) }, body, now: NOW }, key).ok).toBe(
          false,
        );
      }),
      RUNS,
    );
  });
});

describe('the cleaner every source shares', () => {
  /** clean() as it was first written: arrays of code points, which a 1 MiB field made a million long. */
  function cleanByArrays(value: string, max = FIELD_LENGTH): string {
    const text = value
      .toWellFormed()
      .replace(/[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]+/gu, ' ')
      .trim();
    return [...text].length > max ? [...text].slice(0, max).join('').trim() : text;
  }

  it('cleans and cuts as the definition by arrays of code points does', () => {
    const anyText = fc.oneof(
      hostileText(),
      fc.string({ unit: 'binary', maxLength: 80 }),
      fc.string({
        unit: fc.constantFrom('a', ' ', '\n', '\u{1f600}', '\ud800', '\udc00', '\u202e', 'é'),
        maxLength: 80,
      }),
    );
    fc.assert(
      fc.property(anyText, fc.integer({ min: 0, max: 90 }), (value, max) => {
        expect(clean(value, max)).toBe(cleanByArrays(value, max));
      }),
      { numRuns: 1000 },
    );
    expect(clean('a'.repeat(FIELD_LENGTH + 5))).toBe(cleanByArrays('a'.repeat(FIELD_LENGTH + 5)));
  });

  it('cuts a 1 MiB field without iterating over its code points', () => {
    const value = '\u{1f600}'.repeat(512 * 1024);
    // Spreading a string into code points goes through its iterator: counted here.
    const iterate = vi.spyOn(String.prototype, Symbol.iterator);
    try {
      expect(clean(value)).toBe('\u{1f600}'.repeat(FIELD_LENGTH));
      expect(iterate).not.toHaveBeenCalled();
    } finally {
      iterate.mockRestore();
    }
  });
});

describe('the check of the headers alone', () => {
  const SECRETS = {
    GITHUB_WEBHOOK_SECRET: 'github-secret-d41c7e09',
    GITLAB_WEBHOOK_TOKEN: 'gitlab-token-7a0f31cc',
    GITLAB_WEBHOOK_SIGNING_TOKEN: `whsec_${Buffer.from('the signing key, 32 bytes long..').toString('base64')}`,
    ARGOCD_WEBHOOK_TOKEN: 'argocd-token-52b9e6f1',
    FLUX_WEBHOOK_KEY: 'flux-key-0c9d2e71a5',
  };
  const anyHeaders = fc.dictionary(
    fc.constantFrom(
      'x-hub-signature-256',
      'x-signature',
      'x-gitlab-token',
      'authorization',
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ),
    fc.oneof(hostileText(), fc.string(), fc.array(fc.string(), { maxLength: 2 })),
  );

  it.each(SOURCES.map((source) => [source.name, source] as const))(
    '%s: never throws, lets nothing through verify that it refused, and never says a secret',
    (_name, source) => {
      const secrets = source.secrets(SECRETS);
      fc.assert(
        fc.property(anyHeaders, fc.uint8Array({ maxLength: 100 }), (headers, bytes) => {
          const body = Buffer.from(bytes);
          const head = source.checkHeaders({ headers, now: NOW }, secrets);
          const whole = source.verify({ headers, body, now: NOW }, secrets);
          if (!head.ok) expect(whole).toEqual(head);
          for (const checked of [head, whole]) {
            if (checked.ok) continue;
            for (const secret of Object.values(SECRETS)) expect(checked.reason).not.toContain(secret);
          }
        }),
        RUNS,
      );
    },
  );
});
