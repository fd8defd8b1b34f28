// GitLab's catch-up pass: GitLab never retries a failed delivery (and disables a hook that keeps
// failing), but it keeps each webhook's events of the last 7 days, each with what it sent and the
// status our end answered (`GET .../hooks/HID/events`, GitLab 17.4 and later, 20 a page). Every
// deployment event that no attempt got a 2xx for, and that the store does not hold, is taken from
// the listed request (its headers and body) as the webhook would have been: the same parse, keys and
// store, under the same delivery id (its Idempotency-Key, or its signed webhook-id), so a late or
// resent webhook of it is a duplicate, and vice versa. Taken from the listing rather than resent:
// a resend must reach the receiver from GitLab, which is what failed, and GitLab allows 5 a minute.
import type { IncomingRequest } from '../event.js';
import { parseGitLab } from '../sources/gitlab.js';
import { clean, parseJson, text } from '../sources/fields.js';
import { boundedGet, type GetAnswer, waitAsked } from './bounded-get.js';
import { type GitLabCatchUpConfig, TOKEN_VARIABLE, URL_VARIABLE } from './gitlab-config.js';
import { hookPass, type HookPassDeps, MAX_PAGES, type Refusal, unreadable } from './hook-pass.js';
import type { PassReport } from './runner.js';

/** How far back GitLab keeps a hook's events. */
export const GITLAB_WINDOW_MS = 7 * 24 * 3600_000;
/** A listed deployment event, as the webhook brought it. */
interface Sent {
  deliveryId: string;
  request: IncomingRequest;
  /** Whether the receiver was signed for: the signed webhook-id is then the delivery's id, as live. */
  signed: boolean;
  at: number;
}

export async function gitlabCatchUpPass(config: GitLabCatchUpConfig, deps: HookPassDeps): Promise<PassReport> {
  return hookPass({
    sender: 'GitLab',
    source: 'gitlab',
    config,
    deps,
    list: async (hook, now) => {
      const listed = await list(config, deps, hook, now);
      if (!Array.isArray(listed)) return listed;
      return listed.map((sent) => ({ deliveryId: sent.deliveryId, at: sent.at, take: () => take(sent, deps) }));
    },
  });
}

/** A listed event taken from what GitLab sent, through GitLab's own parse. */
async function take(sent: Sent, deps: HookPassDeps): Promise<boolean> {
  const parsed = parseGitLab(sent.request, sent.signed ? { ok: true, signedId: sent.deliveryId } : undefined);
  if (parsed.verdict !== 'accepted') return false;
  const result = await deps.accept({ source: 'gitlab', deliveryId: parsed.deliveryId, events: parsed.events });
  return result.kind === 'stored';
}

/** The hook's deployment events of the last 7 days that no attempt got a 2xx for, or why there are none. */
async function list(
  config: GitLabCatchUpConfig,
  deps: HookPassDeps,
  hook: string,
  now: number,
): Promise<Sent[] | Refusal> {
  const received = new Set<string>();
  const failed = new Map<string, Sent>();
  let page: string | undefined = '1';
  for (let pages = 0; page; pages++) {
    if (pages === MAX_PAGES)
      return { failure: `${hook}: more than ${MAX_PAGES} pages of events; read the first ${MAX_PAGES}` };
    const answer = await get(config, deps, new URL(`${hook}/events?per_page=20&page=${page}`, config.api));
    const refused = refusal(answer, hook, now);
    if (refused) return refused;
    const { body, headers } = answer as Extract<GetAnswer, { kind: 'answer' }>;
    const events = parseJson(body);
    if (!Array.isArray(events)) return { failure: `${hook}: the events are not a JSON array` };
    let older = false;
    for (const event of events as unknown[]) {
      const sent = sentOf(event);
      if (!sent || sent.at < now - GITLAB_WINDOW_MS) {
        older ||= sent !== undefined;
        continue;
      }
      if (sent.ok) received.add(sent.deliveryId);
      else failed.set(sent.deliveryId, sent);
    }
    page = older || !/^\d{1,6}$/.test(headers['x-next-page'] ?? '') ? undefined : headers['x-next-page'];
  }
  return [...failed.values()].filter((sent) => !received.has(sent.deliveryId));
}

/** A listed event that is a deployment's, with its delivery id and what it sent; undefined for any other. */
function sentOf(value: unknown): (Sent & { ok: boolean }) | undefined {
  if (text(value, 'trigger') !== 'deployment_hooks') return undefined;
  const record = value as { request_headers?: unknown; request_data?: unknown };
  const headers: Record<string, string> = {};
  if (typeof record.request_headers === 'object' && record.request_headers !== null) {
    for (const [name, given] of Object.entries(record.request_headers))
      if (typeof given === 'string') headers[name.toLowerCase()] = given;
  }
  const signedId = headers['webhook-id'];
  const deliveryId = signedId ?? headers['idempotency-key'];
  if (!deliveryId || !/^[\x21-\x7e]{1,200}$/.test(deliveryId)) return undefined;
  const data = record.request_data;
  const body = Buffer.from(typeof data === 'string' ? data : JSON.stringify(data ?? null));
  const status = Number(text(value, 'response_status'));
  return {
    deliveryId,
    request: { headers, body, now: Date.now() },
    signed: signedId !== undefined,
    at: Date.parse(text(value, 'created_at')) || 0,
    ok: status >= 200 && status < 300,
  };
}

function get(config: GitLabCatchUpConfig, deps: HookPassDeps, url: URL): Promise<GetAnswer> {
  return boundedGet(url, {
    headers: { authorization: `Bearer ${config.token}`, accept: 'application/json' },
    env: deps.env,
    addressVariable: URL_VARIABLE,
    ...deps.limits,
  });
}

/** Why an answer gives nothing to read; undefined for a 200. */
function refusal(answer: GetAnswer, hook: string, now: number): Refusal | undefined {
  if (answer.kind !== 'answer') return unreadable(answer, hook);
  if (answer.status === 200) return undefined;
  const json = parseJson(answer.body.subarray(0, 64 * 1024));
  const said = clean(text(json, 'message') || text(json, 'error'), 200);
  const why = `${hook}: HTTP ${answer.status}${said ? ` (${said})` : ''}`;
  if (answer.status === 429) {
    const wait = waitAsked(answer.retryAfter, now);
    return { failure: `${why}: rate-limited`, ...(wait !== undefined ? { retryAfterMs: wait } : {}) };
  }
  if (answer.status === 401) return { failure: `${why}: ${TOKEN_VARIABLE} is wrong, expired or revoked` };
  if (answer.status === 403)
    return { failure: `${why}: ${TOKEN_VARIABLE} may not read the hook (it needs a maintainer's read_api)` };
  if (answer.status === 404)
    return { failure: `${why}: no such hook, or a GitLab before 17.4, which lists no hook events` };
  return { failure: why };
}
