// The worker: takes the store's due work, a few keys at a time, and records each item in the
// service with the core's tracker. A create is marked sent in the store before it is sent; what
// became of each request is written back before the key is let go.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { HttpClient } from '../core/http.js';
import { type Log, showControls } from '../core/log.js';
import { NetworkError } from '../core/network-error.js';
import type { Attempt } from '../core/retry.js';
import { createTracker, ServiceError, type Tracker } from '../core/service.js';
import type { Connection } from '../core/settings.js';
import type { Words } from '../core/words.js';
import { DefaultEnvironment, DeploymentType, Limits, Settings } from '../core/constants.js';
import { failureOutcome, keyAccepted, keyRefused, type RetryPolicy } from './failure.js';
import { keyState } from './key-state.js';
import type { Metrics } from './metrics.js';
import { outageLog } from './outage.js';
import { RETAIN_MS } from './retention.js';
import { nextStep } from './rules.js';
import type { ItemRecord, Outcome, Store, Work } from './store/store.js';

interface WorkerOptions {
  store: Store;
  http: HttpClient;
  connection: Connection;
  words: Pick<Words, 'tool' | 'serviceAddress' | 'setting'>;
  log: Log & { error(text: string): void };
  metrics: Metrics;
  retry: RetryPolicy;
  /** Keys worked on at once. */
  concurrency?: number;
  /** How often the store is asked for due work when nothing wakes the worker. */
  pollMs?: number;
  /** Finished items and deliveries' deduplication rows older than this are deleted (docs/receiver.md, Retention). */
  retainMs?: number;
  /** How often they are looked for (and once at the start). */
  pruneEveryMs?: number;
  now?: () => number;
}

export interface Worker {
  /** New work was stored: look now rather than at the next poll. */
  wake(): void;
  /**
   * Takes no more work and waits for the requests under way to be written back, at most `graceMs`:
   * a create still unanswered then is found `sending` by the next claim, and held.
   */
  stop(graceMs: number): Promise<void>;
}

export function startWorker(options: WorkerOptions): Worker {
  const { store, connection, log, metrics, retry, concurrency = Limits.requestsInFlight, pollMs = 1000 } = options;
  const now = options.now ?? Date.now;
  const tracker: Tracker = createTracker(options.http, connection, options.words);
  const key = keyState(log, metrics, options.words.setting(Settings.ApiKey));
  const claims = outageLog(
    log,
    { down: 'the store does not answer the worker', back: 'the store answers the worker again' },
    now,
  );
  const owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  // Long enough for one request and its answer to be written back; short enough that another
  // replica finishes a killed one's work soon (25 s at the default 10 s timeout, plus one poll).
  const leaseMs = leaseFor(connection.timeoutMs);
  const inFlight = new Set<Promise<void>>();
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let looking = false;
  let again = false;
  let current: Promise<void> = Promise.resolve();

  function look(): Promise<void> {
    if (looking) {
      again = true;
      return current;
    }
    looking = true;
    current = claimAndStart();
    return current;
  }

  async function claimAndStart(): Promise<void> {
    try {
      do {
        again = false;
        const free = concurrency - inFlight.size;
        if (stopping || free <= 0) break;
        const { work: claimed, held } = await store.claim(owner, free, leaseMs);
        claims.answered();
        // The worker logs the holds it decides; these the store decided at the claim (a create left `sending`).
        for (const record of held) sayHeld(record);
        if (stopping) {
          await store.release(claimed);
          break;
        }
        for (const work of claimed) {
          const job = carryOut(work).finally(() => {
            inFlight.delete(job);
            if (!stopping) void look();
          });
          inFlight.add(job);
        }
        if (claimed.length === free) again = true;
      } while (again);
    } catch (error) {
      claims.failed(error instanceof Error ? error.message : String(error));
    } finally {
      looking = false;
    }
  }

  async function carryOut(work: Work): Promise<void> {
    try {
      const outcome = await attemptItem(work);
      if (!(await store.finish(work, outcome))) {
        log.warning(`${work.key}: another worker took it over; what this one did is not written back`);
      }
      say(work, outcome);
    } catch (error) {
      log.warning(
        `${work.key}: could not be written back (${error instanceof Error ? error.message : String(error)}); it is tried again once its lease ends`,
      );
    }
  }

  async function attemptItem(work: Work): Promise<Outcome> {
    const { item } = work;
    const step = nextStep(item.status, work.recorded, work.serviceId !== undefined);
    if (step.kind === 'skip') return { kind: 'skipped', reason: step.reason };
    if (step.kind === 'update') {
      const sent = key.sending();
      try {
        await tracker.update(work.serviceId as NonNullable<Work['serviceId']>, step.status);
        key.accepted(sent);
        return { kind: 'updated' };
      } catch (error) {
        return failed('PATCH', work, error, sent);
      }
    }
    // Committed before it is sent: after a crash from here on, the create is held, not sent again.
    if (!(await store.markSending(work)))
      return { kind: 'skipped', reason: 'its lease was lost before the create was sent' };
    const sent = key.sending();
    try {
      const { artifactName, ...fields } = item.fields;
      const serviceId = await tracker.create({
        artifactName,
        ...fields,
        environment: fields.environment || DefaultEnvironment,
        type: DeploymentType,
        status: step.status,
      });
      key.accepted(sent);
      return { kind: 'created', serviceId };
    } catch (error) {
      return failed('POST', work, error, sent);
    }
  }

  function failed(method: 'POST' | 'PATCH', work: Work, error: unknown, sent: number): Outcome {
    const attempt = attemptOf(error);
    let refusal: 'key' | 'item' = 'key';
    if (attempt?.kind === 'response' && keyRefused(attempt))
      refusal = key.refused(work.item.id, sent, attempt.status, errorText(error));
    else if (keyAccepted(attempt)) key.accepted(sent);
    return failureOutcome(method, attempt, errorText(error), work.item, now(), retry, refusal);
  }

  function say(work: Work, outcome: Outcome): void {
    const what = `${work.key} ${work.item.status} (item ${work.item.id}, delivery ${work.item.deliveryId})`;
    switch (outcome.kind) {
      case 'created':
        metrics.call('created');
        return log.info(`recorded ${what} as deployment ${outcome.serviceId.text}`);
      case 'updated':
        metrics.call('updated');
        return log.info(`recorded ${what} on deployment ${work.serviceId?.text ?? ''}`);
      case 'skipped':
        return log.info(`skipped ${what}: ${outcome.reason}`);
      case 'retry': {
        metrics.call('retry');
        const line = `${what}: ${outcome.error}; trying again in ${Math.max(0, Math.round((outcome.at - now()) / 1000))} s`;
        // A refused key is said once for all (keyState): each item's retry only with debug logging on.
        return outcome.notItsFault ? log.debug(line) : log.info(line);
      }
      case 'held':
        metrics.call('held');
        return log.warning(`held ${what}: ${outcome.error}. See \`report-deployment deliveries\`.`);
      case 'failed':
        metrics.call('failed');
        return log.warning(`failed ${what}: ${outcome.error}. See \`report-deployment deliveries\`.`);
    }
  }

  /** A create the claim found left `sending` by a stopped receiver, and held: it may have reached the service. */
  function sayHeld(record: ItemRecord): void {
    log.warning(
      `held ${record.key} ${record.status} (item ${record.id}, delivery ${showControls(record.deliveryId)}): ${record.error ?? ''}. See \`report-deployment deliveries\`.`,
    );
  }

  const tick = () => {
    void look();
    if (!stopping) timer = setTimeout(tick, pollMs).unref();
  };
  tick();

  const { retainMs = RETAIN_MS, pruneEveryMs = 3600_000 } = options;
  let pruneTimer: NodeJS.Timeout | undefined;
  let pruning: Promise<void> = Promise.resolve();
  const retention = outageLog(
    log,
    { down: 'retention: the store does not prune', back: 'retention: the store prunes again' },
    now,
  );
  const prune = () => {
    pruning = store.prune(retainMs).then(
      (deleted) => {
        retention.answered();
        if (deleted > 0) log.info(`retention: deleted ${deleted} finished row(s) older than ${days(retainMs)}`);
      },
      (error: unknown) => retention.failed(error instanceof Error ? error.message : String(error)),
    );
    if (!stopping) pruneTimer = setTimeout(prune, pruneEveryMs).unref();
  };
  prune();

  return {
    wake: () => void look(),
    async stop(graceMs) {
      stopping = true;
      clearTimeout(timer);
      clearTimeout(pruneTimer);
      let timeUp: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => (timeUp = setTimeout(resolve, graceMs)));
      const settled = (async () => {
        await current;
        await pruning;
        while (inFlight.size) await Promise.allSettled([...inFlight]);
      })();
      await Promise.race([settled, deadline]);
      clearTimeout(timeUp);
    },
  };
}

/** A claim's lease: the request's timeout twice over (its answer written back within it), and 5 s more. */
const leaseFor = (timeoutMs: number) => 2 * timeoutMs + 5_000;

function days(ms: number): string {
  return ms >= 24 * 3600_000 ? `${Number((ms / (24 * 3600_000)).toFixed(1))} days` : `${Math.round(ms / 1000)} s`;
}

/** What the failed attempt came to, as the core's error says it; undefined for a bug of ours. */
function attemptOf(error: unknown): Attempt | undefined {
  if (error instanceof ServiceError && error.status !== undefined) return { kind: 'response', status: error.status };
  if (error instanceof NetworkError) return { kind: 'network', cause: error.category };
  return undefined;
}

/** One line for the store and the log: the service's words, or the network's. */
function errorText(error: unknown): string {
  if (error instanceof ServiceError) return error.lines.join(' ');
  if (error instanceof NetworkError) return error.message;
  return `unexpected error (a bug of report-deployment: please report it): ${error instanceof Error ? error.message : String(error)}`;
}
