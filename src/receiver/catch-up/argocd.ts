// Argo CD's catch-up pass: what Argo CD's own record holds that the receiver never heard (a sync
// notified while it was down: Argo CD tries a webhook three times in a few seconds, then marks it
// sent). One bounded `GET /api/v1/applications`; each sync since this Argo CD's mark (when catch-up
// first ran for it) goes into the store as a delivery of its own, through the same accept and key
// rules as a webhook, so that a sync is recorded once whichever arrives first. The runner
// (schedule, metrics, log line, locks) calls `argocdCatchUpPass` and says what it answers.
import { scrubber } from '../../core/secret.js';
import { clean, parseJson, text } from '../sources/fields.js';
import type { CatchUpMarks } from '../store/catch-up-marks.js';
import type { Store } from '../store/store.js';
import { type ArgoCdCatchUpConfig, SERVER_VARIABLE, TOKEN_VARIABLE } from './argocd-config.js';
import { caughtUpSyncs, NotAnApplicationList } from './argocd-events.js';
import { boundedGet, type GetOptions, MAX_ANSWER_BYTES, waitAsked } from './bounded-get.js';

type Env = Record<string, string | undefined>;

/** Only what a pass reads of each application (Argo CD's `fields` filter): a smaller answer. */
const FIELDS = [
  'items.metadata.uid',
  'items.metadata.name',
  'items.metadata.namespace',
  'items.metadata.annotations',
  'items.spec.project',
  'items.spec.source',
  'items.status.history',
  'items.status.operationState',
  'items.status.sync.revision',
].join(',');

/** Syncs offered to the store at once. */
const ACCEPT_CHUNK = 100;

export interface ArgoCdPassDeps {
  store: Pick<Store, 'accept'>;
  marks: CatchUpMarks;
  /** Where the proxy variables are read (HTTPS_PROXY, NO_PROXY). */
  env: Env;
  now?: () => number;
  /** Tests shorten them. */
  limits?: Pick<GetOptions, 'maxBytes' | 'timeoutMs'>;
}

/** Why a pass got nothing in; the next pass tries again. */
export type PassFailureKind =
  'refused' | 'not-found' | 'rate-limited' | 'unavailable' | 'too-large' | 'malformed' | 'store';

export interface ArgoCdPass {
  /** Syncs since the mark that the store did not hold. */
  found: number;
  /** Of those, the ones this pass got into the store. */
  fetched: number;
  /** Syncs Argo CD holds from before the mark, and past the retention window: not deployments to send. */
  baseline: number;
  expired: number;
  /** Records that made no event, and why (a few). */
  unreadable: string[];
  /** Where the pass stopped, in words that never hold the token; undefined when it ran to its end. */
  failure?: { kind: PassFailureKind; reason: string; retryAfterMs?: number };
}

export async function argocdCatchUpPass(config: ArgoCdCatchUpConfig, deps: ArgoCdPassDeps): Promise<ArgoCdPass> {
  const now = deps.now ?? Date.now;
  const pass: ArgoCdPass = { found: 0, fetched: 0, baseline: 0, expired: 0, unreadable: [] };
  // Whatever Argo CD answers, the token is never said back (a proxy or a server may echo it).
  const scrub = scrubber(config.token);
  const fail = (kind: PassFailureKind, reason: string, retryAfterMs?: number): ArgoCdPass => ({
    ...pass,
    unreadable: pass.unreadable.map(scrub),
    failure: { kind, reason: scrub(reason), retryAfterMs },
  });
  let mark: number;
  try {
    mark = await deps.marks.markOf('argocd', config.instance, now());
  } catch (error) {
    return fail('store', `the store could not give this Argo CD's catch-up mark: ${String(error)}`);
  }
  const list = await applications(config, deps, now());
  if ('failure' in list) return fail(list.failure.kind, list.failure.reason, list.failure.retryAfterMs);
  let found;
  try {
    found = caughtUpSyncs(list.value, { mark, now: now(), argocdUrl: config.base.href.replace(/\/+$/, '') });
  } catch (error) {
    if (!(error instanceof NotAnApplicationList)) throw error;
    return fail('malformed', `${where(config)} answered 200 with ${error.message}`);
  }
  Object.assign(pass, { baseline: found.baseline, expired: found.expired, unreadable: found.unreadable.map(scrub) });
  // Every sync since the mark is offered again at each pass while Argo CD keeps it (the store finds
  // the ones it holds): offered together, a chunk at a time, so that the store takes a chunk in one
  // commit rather than one commit each.
  for (let start = 0; start < found.syncs.length; start += ACCEPT_CHUNK) {
    const chunk = found.syncs.slice(start, start + ACCEPT_CHUNK);
    const results = await Promise.allSettled(chunk.map((sync) => deps.store.accept(sync.delivery)));
    for (const result of results) {
      // A duplicate: an earlier pass got it in. Its one event skipped: a webhook got the deployment in.
      if (result.status === 'fulfilled' && (result.value.kind === 'duplicate' || result.value.skipped.length > 0))
        continue;
      pass.found++;
      if (result.status === 'fulfilled') pass.fetched++;
    }
    const refused = results.find((result) => result.status === 'rejected');
    if (refused) return fail('store', `the store refused a caught-up sync: ${String(refused.reason)}`);
  }
  return pass;
}

type Listed = { value: unknown } | { failure: NonNullable<ArgoCdPass['failure']> };

/** The applications list, or why there is none. */
async function applications(config: ArgoCdCatchUpConfig, deps: ArgoCdPassDeps, now: number): Promise<Listed> {
  const url = new URL(`api/v1/applications?fields=${encodeURIComponent(FIELDS)}`, config.base);
  const answer = await boundedGet(url, {
    headers: { authorization: `Bearer ${config.token}` },
    env: deps.env,
    addressVariable: SERVER_VARIABLE,
    ...deps.limits,
  });
  const failure = (kind: PassFailureKind, reason: string, retryAfterMs?: number): Listed => ({
    failure: { kind, reason, retryAfterMs },
  });
  if (answer.kind === 'unreachable') return failure('unavailable', `${where(config)}: ${answer.reason}`);
  if (answer.kind === 'too-large') {
    const max = deps.limits?.maxBytes ?? MAX_ANSWER_BYTES;
    return failure(
      'too-large',
      `${where(config)} answered more than the ${max / 1024 / 1024} MiB a pass reads: nothing of it was used`,
    );
  }
  const { status } = answer;
  const said = saidBy(answer.body);
  if (status === 401) {
    return failure(
      'refused',
      `${where(config)} refused ${TOKEN_VARIABLE} (HTTP 401${said}): it is wrong, expired or revoked; generate a new one (argocd account generate-token)`,
    );
  }
  if (status === 403) {
    return failure(
      'refused',
      `${where(config)} does not let the account of ${TOKEN_VARIABLE} list applications (HTTP 403${said}): give it \`applications, get\` in argocd-rbac-cm`,
    );
  }
  if (status === 404) {
    return failure(
      'not-found',
      `${where(config)} has no /api/v1/applications (HTTP 404${said}): check ${SERVER_VARIABLE} (with the path of a server run with --rootpath)`,
    );
  }
  if (status !== 200) {
    const kind = status === 429 ? 'rate-limited' : 'unavailable';
    return failure(kind, `${where(config)} answered HTTP ${status}${said}`, waitAsked(answer.retryAfter, now));
  }
  const value = parseJson(answer.body);
  if (value === undefined) return failure('malformed', `${where(config)} answered 200 with a body that is no JSON`);
  return { value };
}

function where(config: ArgoCdCatchUpConfig): string {
  return `Argo CD at ${config.base.href}`;
}

/** Argo CD's own words for an error (`{"error": ..., "message": ...}`), short; '' where it gives none. */
function saidBy(body: Buffer): string {
  const json = parseJson(body.subarray(0, 64 * 1024));
  const message = text(json, 'message') || text(json, 'error');
  return message ? `: ${clean(message, 200)}` : '';
}

/** The pass in one line, for the log (what the runner prints beside its counts). */
export function describeArgoCdPass(config: ArgoCdCatchUpConfig, pass: ArgoCdPass): string {
  const parts = [`${pass.found} sync${pass.found === 1 ? '' : 's'} not held, ${pass.fetched} got in`];
  if (pass.baseline) parts.push(`${pass.baseline} from before catch-up began (not sent)`);
  if (pass.expired) parts.push(`${pass.expired} past the retention window (not sent)`);
  if (pass.unreadable.length) parts.push(`unreadable: ${pass.unreadable.join('; ')}`);
  if (pass.failure) parts.push(`stopped: ${pass.failure.reason}`);
  return scrubber(config.token)(`Argo CD catch-up (${config.instance}): ${parts.join('; ')}`);
}
