// What GitHub's and GitLab's catch-up passes share: each hook's record listed (or why not), each
// failed delivery the store does not hold taken, oldest first, and the pass said in one line with
// no token in it. Each sender says how to list its hooks and how to take one delivery.
import { scrubber } from '../../core/secret.js';
import type { SourceName } from '../event.js';
import type { AcceptResult, NewDelivery } from '../store/store.js';
import type { GetAnswer, GetOptions } from './bounded-get.js';
import type { PassReport } from './runner.js';

/** The most pages one pass reads of a hook. */
export const MAX_PAGES = 100;

export interface HookPassDeps {
  /** Whether the store holds the delivery `deliveryId` of `source`. */
  holds(source: SourceName, deliveryId: string): Promise<boolean>;
  /** Takes a delivery as the webhook route does (its mapping applied, the worker woken). */
  accept(delivery: NewDelivery): Promise<AcceptResult>;
  env: Record<string, string | undefined>;
  now?: () => number;
  limits?: Pick<GetOptions, 'maxBytes' | 'timeoutMs'>;
}

/** Why a hook gave nothing this pass, and how long its sender asked to be left alone. */
export interface Refusal {
  failure: string;
  retryAfterMs?: number;
}

/** A delivery the sender failed to deliver: its id, when it was first sent, and how to take it in. */
export interface Missed {
  deliveryId: string;
  at: number;
  /** True when stored, false when there was nothing to store, else why it could not be taken. */
  take: () => Promise<boolean | string>;
}

interface HookPass {
  /** The sender as the log names it: `GitHub`. */
  sender: string;
  source: SourceName;
  config: { instance: string; hooks: readonly string[]; token: string };
  deps: HookPassDeps;
  /** The hook's failed deliveries within the sender's window, or why there are none. */
  list: (hook: string, now: number) => Promise<Missed[] | Refusal>;
}

export async function hookPass({ sender, source, config, deps, list }: HookPass): Promise<PassReport> {
  const now = deps.now ?? Date.now;
  const counts = { found: 0, fetched: 0 };
  const failures: string[] = [];
  let retryAfterMs: number | undefined;
  for (const hook of config.hooks) {
    const listed = await list(hook, now());
    if (!Array.isArray(listed)) {
      failures.push(listed.failure);
      retryAfterMs = Math.max(retryAfterMs ?? 0, listed.retryAfterMs ?? 0) || undefined;
      continue;
    }
    // Oldest first, as the sender sent them: a deployment's start before its end.
    for (const missed of [...listed].sort((a, b) => a.at - b.at)) {
      if (await deps.holds(source, missed.deliveryId)) continue;
      counts.found++;
      const taken = await missed.take();
      if (taken === true) counts.fetched++;
      else if (taken !== false) failures.push(taken);
    }
  }
  const scrub = scrubber(config.token);
  const plural = counts.found === 1 ? 'y' : 'ies';
  const parts = [`${counts.found} failed deliver${plural} not held, ${counts.fetched} got in`];
  if (failures.length) parts.push(`stopped: ${failures.slice(0, 3).join('; ')}`);
  const hooks = `${config.hooks.length} hook${config.hooks.length === 1 ? '' : 's'}`;
  return {
    ...counts,
    line: scrub(`${sender} catch-up (${config.instance}, ${hooks}): ${parts.join('; ')}`),
    ...(failures.length
      ? { failure: { reason: scrub(failures.join('; ')), ...(retryAfterMs ? { retryAfterMs } : {}) } }
      : {}),
  };
}

/** Why an answer has nothing to read (no answer, or one too large); undefined where it came whole. */
export function unreadable(answer: GetAnswer, hook: string): Refusal | undefined {
  if (answer.kind === 'unreachable') return { failure: `${hook}: ${answer.reason}` };
  if (answer.kind === 'too-large') return { failure: `${hook}: an answer over the size a pass reads` };
  return undefined;
}
