// Receivers as they run in production, for the end-to-end and chaos tests: real `serve` processes of
// the packed CLI (or the executable) on one store, each on a port of its own on 127.0.0.1, killed
// and started again by the tests; and GitHub's deliveries, signed as GitHub signs them.
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { freePort } from './postgres.ts';
import { installedCli, installedSea } from './run-cli.ts';

export const WEBHOOK_SECRET = 'replicas-webhook-secret';
export const GITLAB_TOKEN = 'replicas-gitlab-token';

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
  const port = await freePort();
  const bin = options.subject === 'sea' ? installedSea().bin : installedCli().bin;
  const child: ChildProcess = spawn(
    bin,
    [
      'serve',
      '--listen',
      `127.0.0.1:${port}`,
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
      if (log.includes(`listening on 127.0.0.1:${port}`)) {
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
    throw new Error(`serve did not start on 127.0.0.1:${port}:\n${log}`);
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
  readFileSync(join(import.meta.dirname, '..', 'fixtures', 'deployment-status', 'in_progress.json'), 'utf8'),
) as { deployment: Record<string, unknown>; deployment_status: Record<string, unknown> };

/** One GitHub deployment: its ids, and the commit that names it in the service (unique per deployment). */
export interface GithubDeployment {
  id: number;
  sha: string;
}

/** A `deployment_status` payload for `deployment` in `state` (queued, in_progress, success, failure...). */
export function githubPayload(deployment: GithubDeployment, state: string): Buffer {
  const payload = structuredClone(TEMPLATE);
  payload.deployment = { ...payload.deployment, id: deployment.id, sha: deployment.sha };
  payload.deployment_status = { ...payload.deployment_status, state };
  return Buffer.from(JSON.stringify(payload));
}

/** The key the GitHub source files the deployment under (the fixture's repository). */
export const githubKey = (deployment: GithubDeployment) => `github:742519063:${deployment.id}`;

const GITLAB_TEMPLATE = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', 'fixtures', 'receiver', 'gitlab', 'deployment-success.json'), 'utf8'),
) as Record<string, unknown> & { project: { id: number } };

/** A GitLab deployment event for `deployment` in `status` (running, success, failed, canceled). */
export function gitlabPayload(deployment: GithubDeployment, status: string): Buffer {
  const base = 'http://gitlab.example.com/root/test-deployment-webhooks/-/commit/';
  return Buffer.from(
    JSON.stringify({
      ...GITLAB_TEMPLATE,
      status,
      deployment_id: deployment.id,
      short_sha: deployment.sha.slice(0, 8),
      commit_url: `${base}${deployment.sha}`,
    }),
  );
}

/** The key the GitLab source files the deployment under (the fixture's project). */
export const gitlabKey = (deployment: GithubDeployment) => `gitlab:${GITLAB_TEMPLATE.project.id}:${deployment.id}`;

export type DeliveryAnswer = { status: number; body: string } | { error: string };

/** POSTs a GitLab delivery (GitLab 17.4+: its Idempotency-Key) with the secret token to a replica. */
export function deliverGitlab(port: number, deliveryId: string, body: Buffer): Promise<DeliveryAnswer> {
  return post(port, '/webhooks/gitlab', body, {
    'x-gitlab-event': 'Deployment Hook',
    'x-gitlab-token': GITLAB_TOKEN,
    'idempotency-key': deliveryId,
  });
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
