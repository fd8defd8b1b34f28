// A fake of GitLab's webhook-events API on 127.0.0.1, for catch-up's tests, in the documented shape
// ("Project webhooks" / "Group webhooks", GitLab 17.4+): `GET /api/v4/projects/ID/hooks/HID/events`
// (newest first, at most 20 a page, `page` and `X-Next-Page`), each event with the headers and body
// GitLab sent and the status it got back. The token is checked (401 "401 Unauthorized"); scripted
// answers take the place of the next requests.
import { createServer, type ServerResponse } from 'node:http';
import { onLoopback } from './loopback.ts';

export interface FakeHookEvent {
  id: number;
  url: string;
  trigger: string;
  request_headers: Record<string, string>;
  request_data: object;
  response_headers: Record<string, string>;
  response_body: string;
  execution_duration: number;
  response_status: string;
  created_at: string;
}

export interface FakeGitLab {
  /** What GITLAB_URL is set to. */
  url: string;
  /** Each hook's events (`projects/42/hooks/7` → its events), in any order. */
  hooks: Map<string, FakeHookEvent[]>;
  requests: string[];
  script(...answers: Array<{ status: number; body?: unknown; headers?: Record<string, string> }>): void;
  close(): Promise<void>;
}

let nextId = 5_000;

/** A deployment event as GitLab logs it: answered 200 when `ok`, else 502 (the receiver was down). */
export function hookEvent(
  payload: object,
  { at = Date.now(), ok = false, key = `idem-${nextId}`, trigger = 'deployment_hooks' } = {},
): FakeHookEvent {
  return {
    id: nextId++,
    url: 'https://receiver.example.com/webhooks/gitlab',
    trigger,
    request_headers: {
      'Content-Type': 'application/json',
      'User-Agent': 'GitLab/17.6.0',
      'Idempotency-Key': key,
      'X-Gitlab-Event': 'Deployment Hook',
      'X-Gitlab-Instance': 'https://gitlab.example.com',
      'X-Gitlab-Token': '[REDACTED]',
    },
    request_data: payload,
    response_headers: {},
    response_body: ok ? 'stored' : '',
    execution_duration: 0.2,
    response_status: ok ? '202' : '502',
    created_at: new Date(at).toISOString(),
  };
}

export async function startFakeGitLab(token: string): Promise<FakeGitLab> {
  const scripted: Array<{ status: number; body?: unknown; headers?: Record<string, string> }> = [];
  const server = createServer((req, res) => {
    fake.requests.push(req.url ?? '');
    const answer = scripted.shift();
    if (answer) {
      for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
      return json(res, answer.status, answer.body ?? {});
    }
    if (req.headers.authorization !== `Bearer ${token}`) return json(res, 401, { message: '401 Unauthorized' });
    const url = new URL(req.url ?? '/', fake.url);
    const match = /^\/api\/v4\/((?:projects|groups)\/\d+\/hooks\/\d+)\/events$/.exec(url.pathname);
    const events = match ? fake.hooks.get(match[1] as string) : undefined;
    if (!events) return json(res, 404, { message: '404 Not found' });
    const perPage = Math.min(20, Number(url.searchParams.get('per_page') ?? 20));
    const page = Number(url.searchParams.get('page') ?? 1);
    const newestFirst = [...events].sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id);
    const more = page * perPage < newestFirst.length;
    res.setHeader('x-page', String(page));
    res.setHeader('x-next-page', more ? String(page + 1) : '');
    json(res, 200, newestFirst.slice((page - 1) * perPage, page * perPage));
  });
  const listening = onLoopback(server);
  const fake: FakeGitLab = {
    url: '',
    hooks: new Map(),
    requests: [],
    script: (...answers) => void scripted.push(...answers),
    close: () => listening.then(({ close }) => close()),
  };
  fake.url = (await listening).url;
  return fake;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
