// One real delivery of each source, signed as its sender signs it, for the receiver's end-to-end
// test and the demo: GitHub's from test/receiver/helpers/github-delivery.ts; GitLab's documented event with
// its secret token; Argo CD's body rendered from the shipped ConfigMap's template with a real
// Application; Flux's event with its generic-hmac signature.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ROOT } from '../../helpers/run-action.ts';
import { deploymentStatus, SECRET, type Delivery } from './github-delivery.ts';
import { renderGoTemplate } from './go-template.ts';
import { fixture, fluxSignature, gitlabTime, rfc3339, SENT_AT } from './request.ts';

/** Each source's secret, as the receiver's environment holds it. */
export const SOURCE_ENV = {
  GITHUB_WEBHOOK_SECRET: SECRET,
  GITLAB_WEBHOOK_TOKEN: 'gitlab-token-5f1c',
  ARGOCD_WEBHOOK_TOKEN: 'argocd-token-9e07',
  FLUX_WEBHOOK_KEY: 'flux-hmac-key-8d21',
} as const;

/** The commit each fixture deploys. */
export const ARGOCD_SHA = '53e28ff20cc530b9ada2173fbbd64d48338583ba';

export interface SourceDelivery extends Delivery {
  path: string;
}

export function githubDelivery(state: string, deploymentId: number): SourceDelivery {
  return { ...deploymentStatus(state, deploymentId), path: '/webhooks/github' };
}

/** GitLab's documented deployment event with `status` set, authenticated by its secret token. */
export function gitlabDelivery(status: string, deploymentId = 15): SourceDelivery {
  const event = {
    ...fixture('gitlab', 'deployment-success.json'),
    status,
    deployment_id: deploymentId,
    status_changed_at: gitlabTime(SENT_AT),
  };
  return {
    path: '/webhooks/gitlab',
    headers: {
      'content-type': 'application/json',
      'x-gitlab-event': 'Deployment Hook',
      'x-gitlab-token': SOURCE_ENV.GITLAB_WEBHOOK_TOKEN,
    },
    body: Buffer.from(JSON.stringify(event)),
  };
}

const configMap = () =>
  parseYaml(readFileSync(join(ROOT, 'examples', 'receiver', 'argocd-notifications-cm.yaml'), 'utf8')) as {
    data: Record<string, string>;
  };

/** The Application mid-sync (`running`), or once its sync succeeded and it is healthy (`deployed`). */
function application(state: 'running' | 'deployed'): Record<string, unknown> {
  const app = structuredClone(fixture('argocd', 'application.json')) as {
    status: Record<string, Record<string, unknown>>;
  };
  app.status.operationState = { ...app.status.operationState, startedAt: rfc3339(SENT_AT - 37_000) };
  if (state === 'deployed') {
    app.status.operationState = {
      ...app.status.operationState,
      phase: 'Succeeded',
      finishedAt: rfc3339(SENT_AT),
      syncResult: { revision: ARGOCD_SHA, source: { repoURL: 'https://github.com/argoproj/argocd-example-apps.git' } },
    };
    app.status.health = { status: 'Healthy', lastTransitionTime: rfc3339(SENT_AT + 1000) };
    app.status.sync = { ...app.status.sync, status: 'Synced' };
  }
  return app;
}

/** What Argo CD posts for `on-sync-running` or `on-deployed`: the shipped template, rendered. */
export function argocdDelivery(state: 'running' | 'deployed'): SourceDelivery {
  const cm = configMap();
  const trigger = parseYaml(
    cm.data[state === 'running' ? 'trigger.on-sync-running' : 'trigger.on-deployed'] as string,
  ) as {
    send: string[];
  }[];
  const template = parseYaml(cm.data[`template.${trigger[0]?.send[0] as string}`] as string) as {
    webhook: { 'report-deployment': { body: string } };
  };
  const body = renderGoTemplate(template.webhook['report-deployment'].body, {
    app: application(state),
    context: { argocdUrl: 'https://argocd.example.com' },
  });
  return {
    path: '/webhooks/argocd',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${SOURCE_ENV.ARGOCD_WEBHOOK_TOKEN}` },
    body: Buffer.from(body),
  };
}

/** A Kustomization's event as notification-controller forwards it, signed with generic-hmac. */
export function fluxDelivery(
  reason: 'progressing' | 'succeeded',
  /** Another revision (a commit's sha) and time than the fixture's. */
  { sha, at }: { sha?: string; at?: number } = {},
): SourceDelivery {
  const fields = fixture('flux', `kustomization-${reason}.json`);
  const metadata = fields.metadata as Record<string, string>;
  const event = {
    ...fields,
    // The progressing event first, the success 27 seconds later.
    timestamp: rfc3339(at ?? SENT_AT - (reason === 'progressing' ? 27_000 : 0)),
    metadata: sha ? { ...metadata, revision: `main@sha1:${sha}` } : metadata,
  };
  const body = Buffer.from(JSON.stringify(event));
  return {
    path: '/webhooks/flux',
    headers: { 'content-type': 'application/json', 'x-signature': fluxSignature(SOURCE_ENV.FLUX_WEBHOOK_KEY, body) },
    body,
  };
}
