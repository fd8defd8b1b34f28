// Receivers as they run in production, for the end-to-end and chaos tests: real `serve` processes of
// the packed CLI (or the executable) on one store, each on a port of its own on 127.0.0.1, killed
// and started again by the tests; and each source's deliveries, authenticated as its sender does:
// GitHub's and Flux's signed, GitLab's and Argo CD's with their tokens.
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { renderGoTemplate } from './go-template.ts';
import { gitlabTime, rfc3339, SENT_AT } from './request.ts';
import { installedCli, installedSea } from '../../helpers/run-cli.ts';

export const WEBHOOK_SECRET = 'replicas-webhook-secret';
export const GITLAB_TOKEN = 'replicas-gitlab-token';
export const ARGOCD_TOKEN = 'replicas-argocd-token';
export const FLUX_KEY = 'replicas-flux-key';

export interface ReplicaOptions {
  store: string;
  service: { url: string; apiKey: string };
  /** Each request's timeout: the lease is twice it and 5 s more. */
  timeoutSeconds?: number;
  subject?: 'npm' | 'sea';
  env?: Record<string, string>;
}

export interface Replica {
  port: number;
  pid: number;
  /** Everything it said on stderr so far. */
  readonly log: string;
  /** Resolves with its exit code (or 128 + signal) once it has ended. */
  ended: Promise<number>;
  kill(signal: NodeJS.Signals): void;
}

/** Starts `serve` and resolves once it listens; rejects with its log if it ends or stays silent 30 s. */
export async function startReplica(options: ReplicaOptions): Promise<Replica> {
  // Port 0: the kernel's choice, read back from the log (a port found free and then freed could be
  // taken by another test's process before serve binds it).
  let port = 0;
  const bin = options.subject === 'sea' ? installedSea().bin : installedCli().bin;
  const child: ChildProcess = spawn(
    bin,
    [
      'serve',
      '--listen',
      '127.0.0.1:0',
      '--store',
      options.store,
      '--base-url',
      options.service.url,
      '--timeout-seconds',
      String(options.timeoutSeconds ?? 2),
    ],
    {
      env: {
        PATH: options.subject === 'sea' ? installedSea().path : (process.env.PATH ?? ''),
        HOME: process.env.HOME ?? '/',
        DEPLOY_TRACKER_API_KEY: options.service.apiKey,
        GITHUB_WEBHOOK_SECRET: WEBHOOK_SECRET,
        GITLAB_WEBHOOK_TOKEN: GITLAB_TOKEN,
        ARGOCD_WEBHOOK_TOKEN: ARGOCD_TOKEN,
        FLUX_WEBHOOK_KEY: FLUX_KEY,
        ...options.env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let log = '';
  const ended = new Promise<number>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ? 128 + (signalNumbers[signal] ?? 0) : (code ?? 0))),
  );
  const listening = new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 30_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const listened = /listening on 127\.0\.0\.1:(\d+) /.exec(log);
      if (listened) {
        port = Number(listened[1]);
        clearTimeout(timer);
        resolve(true);
      }
    });
    void ended.then(() => {
      clearTimeout(timer);
      resolve(false);
    });
  });
  if (!(await listening)) {
    child.kill('SIGKILL');
    throw new Error(`serve did not start:\n${log}`);
  }
  return {
    port,
    pid: child.pid ?? 0,
    get log() {
      return log;
    },
    ended,
    kill: (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
  };
}

const signalNumbers: Partial<Record<NodeJS.Signals, number>> = { SIGKILL: 9, SIGTERM: 15, SIGINT: 2 };

const TEMPLATE = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'deployment-status', 'in_progress.json'), 'utf8'),
) as { deployment: Record<string, unknown>; deployment_status: Record<string, unknown> };

/** One GitHub deployment: its ids, and the commit that names it in the service (unique per deployment). */
export interface GithubDeployment {
  id: number;
  sha: string;
}

/**
 * One deployment of any source: its number (GitHub's and GitLab's deployment id; Argo CD's
 * application and Flux's object are named after it), the commit it deploys, and for Flux the commit
 * the object was at before it (its baseline).
 */
export interface Deployment extends GithubDeployment {
  baseline?: string;
}

/** A `deployment_status` payload for `deployment` in `state` (queued, in_progress, success, failure...). */
export function githubPayload(deployment: GithubDeployment, state: string): Buffer {
  const payload = structuredClone(TEMPLATE);
  payload.deployment = { ...payload.deployment, id: deployment.id, sha: deployment.sha };
  payload.deployment_status = { ...payload.deployment_status, state, updated_at: rfc3339(SENT_AT) };
  return Buffer.from(JSON.stringify(payload));
}

/** The key the GitHub source files the deployment under (the fixture's repository). */
export const githubKey = (deployment: GithubDeployment) => `github:github.com:742519063:${deployment.id}`;

const GITLAB_TEMPLATE = JSON.parse(
  readFileSync(
    join(import.meta.dirname, '..', '..', 'fixtures', 'receiver', 'gitlab', 'deployment-success.json'),
    'utf8',
  ),
) as Record<string, unknown> & { project: { id: number } };

/** A GitLab deployment event for `deployment` in `status` (running, success, failed, canceled). */
export function gitlabPayload(deployment: GithubDeployment, status: string): Buffer {
  const base = 'http://gitlab.example.com/root/test-deployment-webhooks/-/commit/';
  return Buffer.from(
    JSON.stringify({
      ...GITLAB_TEMPLATE,
      status,
      status_changed_at: gitlabTime(SENT_AT),
      deployment_id: deployment.id,
      short_sha: deployment.sha.slice(0, 8),
      commit_url: `${base}${deployment.sha}`,
    }),
  );
}

/** The key the GitLab source files the deployment under (the fixture's project). */
export const gitlabKey = (deployment: GithubDeployment) =>
  `gitlab:10.126.0.2:3000:${GITLAB_TEMPLATE.project.id}:${deployment.id}`;

const fixtures = join(import.meta.dirname, '..', '..', 'fixtures', 'receiver');
const ARGOCD_APPLICATION = JSON.parse(readFileSync(join(fixtures, 'argocd', 'application.json'), 'utf8')) as {
  metadata: Record<string, unknown>;
  status: Record<string, Record<string, unknown>>;
};
const ARGOCD_CONFIG = (
  parseYaml(
    readFileSync(
      join(import.meta.dirname, '..', '..', '..', 'examples', 'receiver', 'argocd-notifications-cm.yaml'),
      'utf8',
    ),
  ) as { data: Record<string, string> }
).data;

/** A Kubernetes uid of the deployment's own (Argo CD's application, Flux's object). */
const uidOf = (deployment: Deployment) => `00000000-0000-4000-8000-${deployment.id.toString(16).padStart(12, '0')}`;
/** When the deployment's sync started: what ties Argo CD's notifications of one sync together. */
const startedAtOf = (deployment: Deployment) => rfc3339(SENT_AT - 86_400_000 + deployment.id * 1000);

/** The Argo CD notifications the shipped ConfigMap sends, and `terminating`: a sync-running body that records nothing. */
export type ArgocdTrigger = 'on-sync-running' | 'on-deployed' | 'on-sync-failed' | 'on-health-degraded' | 'terminating';

/**
 * What Argo CD posts when `trigger` fires for the deployment's application (one application per
 * deployment, one sync each): the shipped ConfigMap's template for the trigger, rendered with the
 * Application as it stands then. `terminating` renders the sync-running template with the sync being
 * stopped, a phase no trigger of its own fires on.
 */
export function argocdPayload(deployment: Deployment, trigger: ArgocdTrigger): Buffer {
  const app = structuredClone(ARGOCD_APPLICATION);
  app.metadata = { ...app.metadata, uid: uidOf(deployment), name: `app-${deployment.id}` };
  const operation = app.status.operationState as Record<string, unknown>;
  app.status.operationState = {
    ...operation,
    operation: { ...(operation.operation as object), sync: { revision: deployment.sha } },
    startedAt: startedAtOf(deployment),
  };
  if (trigger === 'terminating') app.status.operationState.phase = 'Terminating';
  else if (trigger !== 'on-sync-running') {
    const failed = trigger === 'on-sync-failed';
    app.status.operationState = {
      ...app.status.operationState,
      phase: failed ? 'Failed' : 'Succeeded',
      finishedAt: startedAtOf({ ...deployment, id: deployment.id + 30 }),
      syncResult: { revision: deployment.sha },
    };
    app.status.health = { status: trigger === 'on-deployed' ? 'Healthy' : failed ? 'Progressing' : 'Degraded' };
    app.status.sync = { ...app.status.sync, status: failed ? 'OutOfSync' : 'Synced', revision: deployment.sha };
  }
  const fired = trigger === 'terminating' ? 'on-sync-running' : trigger;
  const send = (parseYaml(ARGOCD_CONFIG[`trigger.${fired}`] as string) as { send: string[] }[])[0]?.send[0];
  const template = parseYaml(ARGOCD_CONFIG[`template.${send as string}`] as string) as {
    webhook: { 'report-deployment': { body: string } };
  };
  const body = renderGoTemplate(template.webhook['report-deployment'].body, {
    app,
    context: { argocdUrl: 'https://argocd.example.com' },
  });
  return Buffer.from(body);
}

/** The key the Argo CD source files the deployment under: its application and its sync. */
export const argocdKey = (deployment: Deployment) => `argocd:${uidOf(deployment)}:${startedAtOf(deployment)}`;

const FLUX_TEMPLATE = JSON.parse(readFileSync(join(fixtures, 'flux', 'kustomization-succeeded.json'), 'utf8')) as {
  involvedObject: Record<string, unknown>;
  metadata: Record<string, unknown>;
};

/**
 * An event of the deployment's Kustomization (one per deployment) with `reason` (Progressing,
 * ReconciliationSucceeded, HealthCheckFailed...), at the deployment's commit, or at its baseline.
 */
export function fluxPayload(
  deployment: Deployment,
  reason: string,
  at: 'deployment' | 'baseline' = 'deployment',
): Buffer {
  const sha = at === 'baseline' ? (deployment.baseline as string) : deployment.sha;
  return Buffer.from(
    JSON.stringify({
      ...FLUX_TEMPLATE,
      involvedObject: { ...FLUX_TEMPLATE.involvedObject, name: `apps-${deployment.id}`, uid: uidOf(deployment) },
      reason,
      // The baseline a minute before the deployment, as Flux's own clock would have it: in one second, the
      // revision seen first keeps its place.
      timestamp: rfc3339(at === 'baseline' ? SENT_AT - 60_000 : SENT_AT),
      message: `${reason} at ${sha}`,
      metadata: { ...FLUX_TEMPLATE.metadata, revision: `main@sha1:${sha}` },
    }),
  );
}

/** The key the Flux source files the deployment under: its object and the revision it deploys. */
export const fluxKey = (deployment: Deployment) => `flux:${uidOf(deployment)}:main@sha1:${deployment.sha}`;

export type DeliveryAnswer = { status: number; body: string } | { error: string };

/** POSTs a GitLab delivery (GitLab 17.4+: its Idempotency-Key) with the secret token to a replica. */
export function deliverGitlab(port: number, deliveryId: string, body: Buffer): Promise<DeliveryAnswer> {
  return post(port, '/webhooks/gitlab', body, {
    'x-gitlab-event': 'Deployment Hook',
    'x-gitlab-instance': 'http://10.126.0.2:3000',
    'x-gitlab-token': GITLAB_TOKEN,
    'idempotency-key': deliveryId,
  });
}

/** POSTs an Argo CD notification with its bearer token to a replica (Argo CD sends no delivery id). */
export function deliverArgocd(port: number, body: Buffer): Promise<DeliveryAnswer> {
  return post(port, '/webhooks/argocd', body, { authorization: `Bearer ${ARGOCD_TOKEN}` });
}

/** POSTs a Flux event signed as a `generic-hmac` Provider signs it to a replica (Flux sends no delivery id). */
export function deliverFlux(port: number, body: Buffer): Promise<DeliveryAnswer> {
  const signature = `sha256=${createHmac('sha256', FLUX_KEY).update(body).digest('hex')}`;
  return post(port, '/webhooks/flux', body, { 'x-signature': signature });
}

/** POSTs a signed GitHub delivery to a replica; resolves with its answer, or the error that cut it. */
export function deliverGithub(port: number, deliveryId: string, body: Buffer): Promise<DeliveryAnswer> {
  const signature = `sha256=${createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex')}`;
  return post(port, '/webhooks/github', body, {
    'x-github-event': 'deployment_status',
    'x-github-delivery': deliveryId,
    'x-hub-signature-256': signature,
  });
}

function post(port: number, path: string, body: Buffer, headers: Record<string, string>): Promise<DeliveryAnswer> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path,
        headers: { 'content-type': 'application/json', 'content-length': body.length, ...headers },
        timeout: 10_000,
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on('error', (error) => resolve({ error: error.message }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (error) => resolve({ error: error.message }));
    req.end(body);
  });
}

/** GET a replica's path (/metrics, /readyz): its status and text. */
export function getFrom(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, timeout: 10_000 }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end();
  });
}
