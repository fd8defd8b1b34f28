// Argo CD: the shipped notifications ConfigMap, its template rendered as Argo CD renders it with a
// real Application in each state, and what the argocd source makes of each rendering.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigMap } from 'kubernetes-models/v1';
import { ConfigError } from '../../src/core/config-error.ts';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { argocd } from '../../src/receiver/sources/argocd.ts';
import { ROOT } from '../helpers/run-action.ts';
import { renderGoTemplate } from './helpers/go-template.ts';
import { fixture, request } from './helpers/request.ts';

const configMap = parseYaml(
  readFileSync(join(ROOT, 'examples', 'receiver', 'argocd-notifications-cm.yaml'), 'utf8'),
) as {
  data: Record<string, string>;
};
const TRIGGERS = ['on-sync-running', 'on-deployed', 'on-sync-failed', 'on-health-degraded'];
const context = { argocdUrl: 'https://argocd.example.com' };
const running = fixture('argocd', 'application.json');
const UID = '5b3f0e2c-8a41-4d6f-9c2e-7a1b0d3e4f56';
const SHA = '53e28ff20cc530b9ada2173fbbd64d48338583ba';

/** The Application once its sync has ended, as Argo CD writes it. */
function ended(phase: string, health: string): Record<string, unknown> {
  const app = structuredClone(running) as { status: Record<string, Record<string, unknown>> };
  app.status.operationState = {
    ...app.status.operationState,
    phase,
    finishedAt: '2026-03-02T10:15:40Z',
    syncResult: { revision: SHA, source: { repoURL: 'https://github.com/argoproj/argocd-example-apps.git' } },
  };
  app.status.health = { status: health, lastTransitionTime: '2026-03-02T10:15:41Z' };
  app.status.sync = { ...app.status.sync, status: phase === 'Succeeded' ? 'Synced' : 'OutOfSync' };
  return app;
}

/** The body Argo CD posts for a trigger: its template's webhook body, rendered with the application. */
function body(trigger: string, app: Record<string, unknown>): string {
  const triggerDefinition = parseYaml(configMap.data[`trigger.${trigger}`] as string) as { send: string[] }[];
  const template = parseYaml(configMap.data[`template.${triggerDefinition[0]!.send[0]}`] as string) as {
    webhook: { 'report-deployment': { method: string; body: string } };
  };
  expect(template.webhook['report-deployment'].method).toBe('POST');
  return renderGoTemplate(template.webhook['report-deployment'].body, { app, context });
}

describe('the Argo CD notifications ConfigMap', () => {
  it('is a valid ConfigMap whose service takes the token from the notifications secret, never inline', () => {
    expect(() => new ConfigMap(configMap as never).validate()).not.toThrow();
    const service = parseYaml(configMap.data['service.webhook.report-deployment'] as string) as {
      url: string;
      headers: { name: string; value: string }[];
    };
    expect(service.url).toMatch(/^https:\/\/.+\/webhooks\/argocd$/);
    expect(service.headers).toContainEqual({ name: 'Authorization', value: 'Bearer $report-deployment-token' });
    expect(service.headers).toContainEqual({ name: 'Content-Type', value: 'application/json' });
  });

  it("defines the catalog's triggers by their catalog names, each sending a template of its own", () => {
    for (const trigger of TRIGGERS) {
      const [condition] = parseYaml(configMap.data[`trigger.${trigger}`] as string) as {
        send: string[];
        when: string;
      }[];
      expect(condition!.send).toHaveLength(1);
      expect(configMap.data[`template.${condition!.send[0]}`]).toContain(`"trigger": "${trigger}"`);
    }
    // The templates differ in their trigger alone.
    const bodies = TRIGGERS.map((trigger) => body(trigger, running).replace(trigger, 'T'));
    expect(new Set(bodies).size).toBe(1);
  });

  it('subscribes every application to the four triggers by default', () => {
    expect(parseYaml(configMap.data.subscriptions as string)).toEqual([
      { recipients: ['report-deployment'], triggers: TRIGGERS },
    ]);
  });

  it('renders JSON whatever the application lacks: a missing field is null, never <no value>', () => {
    const bare = { metadata: { name: 'bare', uid: UID }, spec: {}, status: {} };
    const rendered = JSON.parse(body('on-deployed', bare)) as Record<string, unknown>;
    expect(rendered).toMatchObject({
      app: { name: 'bare', environment: '', namespace: null },
      operation: { phase: null },
    });
    expect(body('on-deployed', bare)).not.toContain('<no value>');
  });
});

describe('Argo CD: the events of each trigger', () => {
  const fields = {
    artifactName: 'guestbook',
    version: SHA,
    environment: 'Staging',
    commitSha: SHA,
    user: 'alice',
    branch: 'main',
    changelog: 'https://github.com/argoproj/argocd-example-apps.git',
    link: 'https://argocd.example.com/applications/argocd/guestbook?operation=true',
  };

  it.each([
    ['on-sync-running', running, 'STARTED'],
    ['on-deployed', ended('Succeeded', 'Healthy'), 'SUCCEEDED'],
    ['on-sync-failed', ended('Failed', 'Progressing'), 'FAILED'],
    ['on-sync-failed', ended('Error', 'Missing'), 'FAILED'],
    ['on-health-degraded', ended('Succeeded', 'Degraded'), 'FAILED'],
  ])('%s records %s', (trigger, app, status) => {
    const parsed = argocd.parse(request(body(trigger, app)));
    expect(parsed).toMatchObject({
      verdict: 'accepted',
      events: [{ key: `argocd:${UID}:2026-03-02T10:15:03Z`, status, object: 'argocd/guestbook', fields }],
    });
  });

  it('records nothing more for a sync that succeeded before the application is healthy', () => {
    const parsed = argocd.parse(request(body('on-deployed', ended('Succeeded', 'Progressing'))));
    expect(parsed).toMatchObject({ verdict: 'ignored', reason: expect.stringMatching(/not healthy yet/) as string });
  });

  it('names Argo CD as the user of an automated sync, and Production where no annotation names one', () => {
    type App = {
      metadata: { annotations: Record<string, string> };
      status: { operationState: { operation: { initiatedBy: object } } };
    };
    const app = structuredClone(running) as unknown as App & Record<string, unknown>;
    app.status.operationState.operation.initiatedBy = { automated: true };
    app.metadata.annotations = {};
    expect(argocd.parse(request(body('on-sync-running', app)))).toMatchObject({
      events: [{ fields: { user: 'Argo CD', environment: 'Production', artifactName: 'guestbook' } }],
    });
    app.metadata.annotations = { 'report-deployment/artifact': 'guestbook-ui' };
    expect(argocd.parse(request(body('on-sync-running', app)))).toMatchObject({
      events: [{ fields: { artifactName: 'guestbook-ui' } }],
    });
  });

  it('deduplicates a retry, and keeps each trigger of an operation apart', () => {
    const id = (text: string) => {
      const parsed = argocd.parse(request(text));
      return parsed.verdict === 'invalid' ? undefined : parsed.deliveryId;
    };
    const start = body('on-sync-running', running);
    expect(id(start)).toBe(id(start));
    expect(id(start)).not.toBe(id(body('on-deployed', ended('Succeeded', 'Healthy'))));
  });

  it('takes a bearer token equal to ARGOCD_WEBHOOK_TOKEN, and nothing else', () => {
    const token = argocd.secrets({ ARGOCD_WEBHOOK_TOKEN: 's3cr3t-argo-token-71' })!;
    expect(argocd.secrets({})).toBeUndefined();
    const with_ = (value: string) => argocd.verify(request('{}', { authorization: value }), token).ok;
    expect(with_('Bearer s3cr3t-argo-token-71')).toBe(true);
    expect(with_('Bearer s3cr3t-argO')).toBe(false);
    expect(with_('Bearer s3cr3t-arg')).toBe(false);
    // The scheme is case-insensitive (RFC 7235): `bearer` and `BEARER` are Bearer.
    expect(with_('bearer s3cr3t-argo-token-71')).toBe(true);
    expect(with_('BEARER s3cr3t-argo-token-71')).toBe(true);
    expect(with_('Basic s3cr3t-argo-token-71')).toBe(false);
    expect(argocd.verify(request('{}'), token).ok).toBe(false);
  });

  it('says whether the Authorization header is missing, not a bearer token, or the wrong token', () => {
    const token = argocd.secrets({ ARGOCD_WEBHOOK_TOKEN: 's3cr3t-argo-token-71' })!;
    const reason = (headers: Record<string, string>) => {
      const verified = argocd.checkHeaders({ headers, now: 0 }, token);
      return verified.ok ? 'ok' : verified.reason;
    };
    expect(reason({})).toBe('no Authorization header');
    expect(reason({ authorization: 'Basic czNjcjN0' })).toBe('Authorization is not Bearer <token>');
    expect(reason({ authorization: 'Bearer' })).toBe('Authorization is not Bearer <token>');
    expect(reason({ authorization: 'Bearer nope' })).toBe('the bearer token does not match ARGOCD_WEBHOOK_TOKEN');
    expect(reason({ authorization: 'Bearer s3cr3t-argo-token-71' })).toBe('ok');
  });

  it('takes a token of any UTF-8 characters as the client sent its bytes (Node reads them as Latin-1)', () => {
    const secret = 'jeton-sécurisé-ü-★-4f1e';
    const token = argocd.secrets({ ARGOCD_WEBHOOK_TOKEN: secret })!;
    const asNodeReadsIt = Buffer.from(`Bearer ${secret}`, 'utf8').toString('latin1');
    expect(argocd.verify(request('{}', { authorization: asNodeReadsIt }), token).ok).toBe(true);
    expect(argocd.verify(request('{}', { authorization: `Bearer ${secret}` }), token).ok).toBe(false);
  });

  it('refuses at start a token of white space, padded, or under 16 characters, naming the variable', () => {
    for (const value of ['   ', '\t\n', 'short-token', ' s3cr3t-argo-token-71', 's3cr3t-argo-token-71\n']) {
      expect(() => argocd.secrets({ ARGOCD_WEBHOOK_TOKEN: value })).toThrow(ConfigError);
      expect(() => argocd.secrets({ ARGOCD_WEBHOOK_TOKEN: value })).toThrow(
        /^Environment variable ARGOCD_WEBHOOK_TOKEN /,
      );
    }
    expect(() => argocd.secrets({ ARGOCD_WEBHOOK_TOKEN: 'short-token' })).not.toThrow(/short-token/);
    expect(argocd.secrets({ ARGOCD_WEBHOOK_TOKEN: '' })).toBeUndefined();
    // Sixteen characters, counted as characters: four of them outside ASCII.
    expect(argocd.secrets({ ARGOCD_WEBHOOK_TOKEN: 'ééééabcdefghijkl' })).toBeDefined();
  });
});
