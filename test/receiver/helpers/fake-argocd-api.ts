// A fake of Argo CD's API server on 127.0.0.1, for catch-up's tests: `GET /api/v1/applications` as
// argocd-server answers it (`{ "items": [Application...] }`, `items` left out when there is none,
// the `fields` filter of its gateway applied), the Bearer token checked (401 with Argo CD's error
// body when it is missing or wrong), and scripted faults: any status and body, 403, a 50 MB answer,
// an answer that never ends. Applications are built with the helpers below, in the shapes of
// Argo CD's types (pkg/apis/application/v1alpha1: RevisionHistory, OperationState).
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { onLoopback } from './loopback.ts';

/** RFC 3339 in whole seconds, UTC: how metav1.Time is written. */
export const metav1Time = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export type FakeAnswer =
  | { status: number; body?: string; headers?: Record<string, string> }
  /** A 200 whose body is `megabytes` MB of JSON-looking bytes, streamed as the client reads it. */
  | { huge: number }
  /** Headers, then a body that never ends (until the server closes). */
  | { hang: true };

export interface FakeArgoCd {
  /** `http://127.0.0.1:PORT` (`https://` with `tls`): what ARGOCD_SERVER is set to. */
  url: string;
  /** The applications it lists: tests change them between passes. */
  applications: Record<string, unknown>[];
  /** Each request: its path with query, and its Authorization header. */
  requests: { path: string; authorization: string | undefined }[];
  /** Answers for the next requests, in order, in place of the list. */
  script(...answers: FakeAnswer[]): void;
  close(): Promise<void>;
}

/** `tls`: served over HTTPS with this key and certificate (test/helpers/tls-fixtures.ts). */
export async function startFakeArgoCd(token: string, tls?: { key: string; cert: string }): Promise<FakeArgoCd> {
  const scripted: FakeAnswer[] = [];
  const listener: RequestListener = (req, res) => {
    fake.requests.push({ path: req.url ?? '', authorization: req.headers.authorization });
    const answer = scripted.shift();
    if (answer) return play(answer, res);
    answerList(req, res, token, fake.applications);
  };
  const server = tls ? createTlsServer(tls, listener) : createServer(listener);
  const listening = onLoopback(server, tls ? 'https' : 'http');
  const fake: FakeArgoCd = {
    url: '',
    applications: [],
    requests: [],
    script: (...answers) => void scripted.push(...answers),
    close: () => listening.then(({ close }) => close()),
  };
  fake.url = (await listening).url;
  return fake;
}

function answerList(req: IncomingMessage, res: ServerResponse, token: string, apps: Record<string, unknown>[]): void {
  const url = new URL(req.url ?? '/', 'http://fake');
  if (req.method !== 'GET' || url.pathname !== '/api/v1/applications') {
    return json(res, 404, { error: 'Not Found', code: 5, message: 'Not Found' });
  }
  // argocd-server: no token or a wrong one is "Unauthenticated" (gRPC code 16), HTTP 401.
  if (req.headers.authorization !== `Bearer ${token}`) {
    return json(res, 401, {
      error: 'invalid session: token signature is invalid',
      code: 16,
      message: 'invalid session: token signature is invalid',
    });
  }
  const list = apps.length ? { metadata: { resourceVersion: '998877' }, items: apps } : { metadata: {} };
  const fields = url.searchParams.get('fields');
  json(res, 200, fields ? only(list, fields.split(',')) : list);
}

/** Argo CD's `fields` filter: only the named paths are kept (`items.status.history`), through the lists. */
function only(value: unknown, paths: string[]): unknown {
  const keep = (node: unknown, path: string[]): unknown => {
    if (Array.isArray(node)) return node.map((item) => keep(item, path));
    if (path.length === 0 || typeof node !== 'object' || node === null) return node;
    const [head, ...rest] = path as [string, ...string[]];
    return head in node ? { [head]: keep((node as Record<string, unknown>)[head], rest) } : {};
  };
  return paths.map((path) => keep(value, path.split('.'))).reduce(merge, {});
}

function merge(a: unknown, b: unknown): unknown {
  if (Array.isArray(a) && Array.isArray(b)) return a.map((item, index) => merge(item, b[index]));
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return b ?? a;
  const out: Record<string, unknown> = { ...(a as Record<string, unknown>) };
  for (const [key, value] of Object.entries(b)) out[key] = key in out ? merge(out[key], value) : value;
  return out;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function play(answer: FakeAnswer, res: ServerResponse): void {
  if ('huge' in answer) {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, ' ');
    let left = Math.ceil((answer.huge * 1024 * 1024) / chunk.length);
    res.write('{"items":[');
    const more = () => {
      while (left > 0) {
        left--;
        if (!res.write(chunk)) return void res.once('drain', more);
      }
      res.end(']}');
    };
    res.once('close', () => (left = 0));
    return more();
  }
  if ('hang' in answer) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"items":[');
    return;
  }
  res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
  res.end(answer.body ?? '');
}

/** A sync as `status.history` keeps it (RevisionHistory): its operation's start and end. */
export function historyEntry(
  id: number,
  startedAt: number,
  revision: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    id,
    revision,
    deployStartedAt: metav1Time(startedAt),
    deployedAt: metav1Time(startedAt + 20_000),
    source: {
      repoURL: 'https://github.com/argoproj/argocd-example-apps.git',
      targetRevision: 'main',
      path: 'guestbook',
    },
    initiatedBy: { automated: true },
    ...extra,
  };
}

/** An Application as the list gives it: `history` its syncs, `operationState` its last operation. */
export function application(
  uid: string,
  name: string,
  {
    history = [],
    operationState,
  }: { history?: Record<string, unknown>[]; operationState?: Record<string, unknown> } = {},
): Record<string, unknown> {
  return {
    metadata: {
      name,
      namespace: 'argocd',
      uid,
      resourceVersion: '998877',
      annotations: { 'report-deployment/environment': 'Staging' },
    },
    spec: {
      project: 'default',
      source: {
        repoURL: 'https://github.com/argoproj/argocd-example-apps.git',
        targetRevision: 'main',
        path: 'guestbook',
      },
      destination: { server: 'https://kubernetes.default.svc', namespace: 'guestbook' },
    },
    status: {
      sync: { status: 'Synced', revision: (history.at(-1)?.revision as string | undefined) ?? '' },
      health: { status: 'Healthy' },
      history,
      ...(operationState ? { operationState } : {}),
    },
  };
}
