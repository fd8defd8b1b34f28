// GitHub's catch-up pass: GitHub never sends a failed delivery again by itself, but it keeps each
// webhook's deliveries for 3 days. Each pass lists them (newest first, following the cursor in
// `Link`), and every `deployment_status` delivery that no attempt got a 2xx for, and that the store
// does not hold, is read back over the authenticated API (`GET .../deliveries/{id}`: its headers and
// payload) and taken as the webhook would have been: the same parse, keys and store, under the same
// delivery id (its `guid`), so a late or redelivered webhook of it is a duplicate, and vice versa.
// Read rather than redelivered: a redelivery needs the receiver reachable from GitHub, which is
// what failed in the first place.
import type { IncomingRequest } from '../event.js';
import { parseGithub } from '../sources/github.js';
import { clean, parseJson, text } from '../sources/fields.js';
import { boundedGet, type GetAnswer, waitAsked } from './bounded-get.js';
import { appJwt } from './github-app-jwt.js';
import { API_VARIABLE, APP_HOOK, type GithubCatchUpConfig, TOKEN_VARIABLE } from './github-config.js';
import { hookPass, type HookPassDeps, MAX_PAGES, type Refusal, unreadable } from './hook-pass.js';
import type { PassReport } from './runner.js';

/** How far back GitHub keeps a hook's deliveries. */
export const GITHUB_WINDOW_MS = 3 * 24 * 3600_000;

export async function githubCatchUpPass(config: GithubCatchUpConfig, deps: HookPassDeps): Promise<PassReport> {
  return hookPass({
    sender: 'GitHub',
    source: 'github',
    config,
    deps,
    list: async (hook, now) => {
      const listed = await list(config, deps, hook, now);
      if (!(listed instanceof Map)) return listed;
      return [...listed].map(([guid, { id, at }]) => ({
        deliveryId: guid,
        at,
        take: () => fetchOne(config, deps, hook, guid, id),
      }));
    },
  });
}

/** The hook's deliveries of the last 3 days that no attempt got a 2xx for, or why there are none. */
async function list(
  config: GithubCatchUpConfig,
  deps: HookPassDeps,
  hook: string,
  now: number,
): Promise<Map<string, { id: number; at: number }> | Refusal> {
  const received = new Set<string>();
  const failed = new Map<string, { id: number; at: number }>();
  let url: URL | undefined = new URL(`${hook}/deliveries?per_page=100`, config.api);
  for (let page = 0; url; page++) {
    if (page === MAX_PAGES)
      return { failure: `${hook}: more than ${MAX_PAGES} pages of deliveries; read the first ${MAX_PAGES}` };
    const answer = await get(config, deps, url, hook);
    const refused = refusal(answer, hook, now);
    if (refused) return refused;
    const deliveries = parseJson((answer as Extract<GetAnswer, { kind: 'answer' }>).body);
    if (!Array.isArray(deliveries)) return { failure: `${hook}: the deliveries are not a JSON array` };
    let older = false;
    for (const delivery of deliveries as unknown[]) {
      const { guid, id, event, statusCode, at } = deliveryOf(delivery);
      if (at < now - GITHUB_WINDOW_MS) older = true;
      if (!guid || event !== 'deployment_status' || at < now - GITHUB_WINDOW_MS) continue;
      if (statusCode >= 200 && statusCode < 300) received.add(guid);
      // Newest first: the first seen of a guid is its newest attempt, the last its first.
      else failed.set(guid, { id: failed.get(guid)?.id ?? id, at });
    }
    url = older ? undefined : nextPage((answer as Extract<GetAnswer, { kind: 'answer' }>).headers.link, config.api);
  }
  for (const guid of received) failed.delete(guid);
  return failed;
}

/** One failed delivery read back and taken; true when stored, false when there was nothing to store, else why not. */
async function fetchOne(
  config: GithubCatchUpConfig,
  deps: HookPassDeps,
  hook: string,
  guid: string,
  id: number,
): Promise<boolean | string> {
  const answer = await get(config, deps, new URL(`${hook}/deliveries/${id}`, config.api), hook);
  const refused = refusal(answer, hook, deps.now?.() ?? Date.now());
  if (refused) return refused.failure;
  const detail = parseJson((answer as Extract<GetAnswer, { kind: 'answer' }>).body) as {
    request?: { headers?: unknown; payload?: unknown };
  };
  if (typeof detail?.request?.payload !== 'object' || detail.request.payload === null)
    return `${hook}: delivery ${id} has no request payload`;
  const parsed = parseGithub(requestOf(config, guid, detail.request.payload));
  if (parsed.verdict !== 'accepted') return false;
  const result = await deps.accept({ source: 'github', deliveryId: guid, events: parsed.events });
  return result.kind === 'stored';
}

/** The delivery as the webhook would have brought it: its id, its event, the GitHub it came from, its payload. */
function requestOf(config: GithubCatchUpConfig, guid: string, payload: object): IncomingRequest {
  const headers: Record<string, string> = { 'x-github-delivery': guid, 'x-github-event': 'deployment_status' };
  if (config.instance !== 'github.com') headers['x-github-enterprise-host'] = config.instance;
  return { headers, body: Buffer.from(JSON.stringify(payload)), now: Date.now() };
}

function get(config: GithubCatchUpConfig, deps: HookPassDeps, url: URL, hook: string): Promise<GetAnswer> {
  // An App's own webhook is read with the App's JWT; the others with the token.
  const bearer = hook === APP_HOOK && config.app ? appJwt(config.app, Date.now()) : config.token;
  return boundedGet(url, {
    headers: {
      authorization: `Bearer ${bearer}`,
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
      'user-agent': 'report-deployment',
    },
    env: deps.env,
    addressVariable: API_VARIABLE,
    ...deps.limits,
  });
}

/** Why an answer gives nothing to read (refused, rate-limited, too large, unreachable); undefined for a 200. */
function refusal(answer: GetAnswer, hook: string, now: number): Refusal | undefined {
  if (answer.kind !== 'answer') return unreadable(answer, hook);
  const { status, headers } = answer;
  if (status === 200) return undefined;
  // GitHub's own words for an error (`{"message": ...}`), short; nothing where it gives none.
  const said = clean(text(parseJson(answer.body.subarray(0, 64 * 1024)), 'message'), 200);
  const why = `${hook}: HTTP ${status}${said ? ` (${said})` : ''}`;
  if (status === 429 || (status === 403 && headers['x-ratelimit-remaining'] === '0')) {
    // Retry-After where GitHub gives it, else the time its limit resets (seconds since the epoch).
    const reset = headers['x-ratelimit-reset'];
    const wait = waitAsked(
      answer.retryAfter ?? (reset ? new Date(Number(reset) * 1000).toUTCString() : undefined),
      now,
    );
    return { failure: `${why}: rate-limited`, ...(wait !== undefined ? { retryAfterMs: wait } : {}) };
  }
  if (status === 401) return { failure: `${why}: ${TOKEN_VARIABLE} is wrong, expired or revoked` };
  if (status === 403 || status === 404)
    return {
      failure: `${why}: no such webhook, or ${TOKEN_VARIABLE} may not read it (it needs admin:repo_hook or admin:org_hook, or the fine-grained "Webhooks: read")`,
    };
  return { failure: why };
}

function deliveryOf(value: unknown): { guid: string; id: number; event: string; statusCode: number; at: number } {
  const record = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const guid = typeof record.guid === 'string' && /^[\w.-]{1,100}$/.test(record.guid) ? record.guid : '';
  const id = Number.isSafeInteger(record.id) ? (record.id as number) : 0;
  return {
    guid: id > 0 ? guid : '',
    id,
    event: typeof record.event === 'string' ? record.event : '',
    statusCode: typeof record.status_code === 'number' ? record.status_code : 0,
    at: typeof record.delivered_at === 'string' ? Date.parse(record.delivered_at) || 0 : 0,
  };
}

/** The `rel="next"` page of a `Link` header, on the API's own origin only. */
function nextPage(link: string | undefined, api: URL): URL | undefined {
  const next = /<([^>]+)>\s*;\s*rel="next"/.exec(link ?? '')?.[1];
  const url = next ? URL.parse(next) : null;
  return url && url.origin === api.origin ? url : undefined;
}
