// `report-deployment serve`: the store opened, the worker started, the server listening; and on
// SIGTERM or SIGINT, a stop within STOP_MS: no new delivery, those under way answered, the worker's
// requests written back (or left for the next start to find), the store closed.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { ConfigError } from '../core/config-error.js';
import { createHttpClient } from '../core/http.js';
import type { Log } from '../core/log.js';
import type { Connection } from '../core/settings.js';
import type { Words } from '../core/words.js';
import { readCatchUp, startCatchUp } from './catch-up/index.js';
import { DEFAULT_RETRY, type RetryPolicy } from './failure.js';
import { Metrics } from './metrics.js';
import {
  createReceiverServer,
  DEFAULT_LIMITS,
  type EnabledSource,
  type MapEvents,
  type ServerLimits,
} from './server.js';
import { SOURCES } from './sources/index.js';
import { openStore, shownStore } from './store/index.js';
import { startWorker } from './worker.js';

type Env = Record<string, string | undefined>;

/** The whole stop, from the signal to the exit. */
const STOP_MS = 10_000;

/** How often catch-up asks each sender, where --catch-up-seconds is not given. */
export const DEFAULT_CATCH_UP_MS = 300_000;

interface ServeOptions {
  listen: { host: string; port: number };
  /** An SQLite file's path, or a PostgreSQL URL. */
  store: string;
  /** `--mapping FILE`, read by `readMapping` before anything listens. */
  mappingFile: string | undefined;
  /** Reads a mapping file into its overrides; where none is given, `--mapping` is refused, never ignored. */
  readMapping?: (file: string) => Promise<MapEvents>;
  connection: Connection;
  /** How messages name the settings and the tool (the face's words, core/words.ts). */
  words: Words;
  env: Env;
  log: Log & { error(text: string): void };
  retry?: RetryPolicy;
  /** `--catch-up-seconds`: how often each sender whose API variables are set is asked what was missed. */
  catchUpEveryMs?: number;
  limits?: ServerLimits;
  /** Resolves to the signal that stops the receiver (SIGTERM, SIGINT). */
  stopSignal: Promise<string>;
}

/** Runs until the stop signal; resolves with the exit code. */
export async function serve(options: ServeOptions): Promise<number> {
  const { log } = options;
  const enabled: EnabledSource[] = [];
  for (const source of SOURCES) {
    const secrets = source.secrets(options.env);
    if (secrets !== undefined) enabled.push({ source, secrets });
  }
  if (enabled.length === 0) {
    const variables = SOURCES.flatMap((source) => source.secretVariables).join(', ');
    throw new ConfigError('serve', `has no source enabled: set the secret of at least one (${variables}).`);
  }
  const mapEvents = await mappingOf(options);
  const catchUpSources = readCatchUp(options.env);
  const store = openStore(options.store, { sole: true });
  const metrics = new Metrics();
  const http = await createHttpClient({
    ...options.connection,
    retries: 0,
    log,
    serviceAddress: options.words.serviceAddress,
  });
  const worker = startWorker({
    store,
    http,
    connection: options.connection,
    words: options.words,
    log,
    metrics,
    retry: options.retry ?? DEFAULT_RETRY,
  });
  const server = createReceiverServer({
    known: SOURCES,
    enabled,
    store,
    metrics,
    log,
    stored: () => worker.wake(),
    limits: options.limits ?? DEFAULT_LIMITS,
    ...(mapEvents ? { mapEvents } : {}),
  });
  try {
    server.listen(options.listen.port, options.listen.host);
    await Promise.race([
      once(server, 'listening'),
      once(server, 'error').then(([error]) => Promise.reject(error as Error)),
    ]);
  } catch (error) {
    await worker.stop(0);
    await store.close();
    await http.close();
    const why = error instanceof Error ? error.message : String(error);
    throw new ConfigError('--listen', `cannot be listened on (${options.listen.host}:${options.listen.port}): ${why}.`);
  }
  const address = server.address() as AddressInfo;
  log.info(
    `listening on ${address.address}:${address.port} (${enabled.map((entry) => `/webhooks/${entry.source.name}`).join(', ')}); store ${store.engine} ${shownStore(options.store)}`,
  );
  const catchUp = startCatchUp({
    sources: catchUpSources({ store, mapEvents, stored: () => worker.wake() }),
    everyMs: options.catchUpEveryMs ?? DEFAULT_CATCH_UP_MS,
    log,
    metrics,
  });
  const signal = await options.stopSignal;
  const started = Date.now();
  log.info(`${signal}: taking no more deliveries; finishing those under way`);
  // No catch-up pass starts now; one under way is left (what it got in is committed).
  catchUp.stop();
  // No new connection; idle keep-alive ones closed now, busy ones once their answer is out.
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const left = () => Math.max(0, STOP_MS - 1000 - (Date.now() - started));
  await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, left() / 2).unref())]);
  server.closeAllConnections();
  await worker.stop(left());
  await store.close();
  await http.close();
  log.info('stopped');
  return 0;
}

async function mappingOf(options: ServeOptions): Promise<MapEvents | undefined> {
  if (options.mappingFile === undefined) return undefined;
  if (!options.readMapping) {
    throw new ConfigError(
      '--mapping',
      'cannot be read by this build (no mapping reader is connected). Leave --mapping out.',
    );
  }
  return options.readMapping(options.mappingFile);
}
