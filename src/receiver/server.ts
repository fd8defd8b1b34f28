// The receiver's HTTP face (node:http): `POST /webhooks/<source>` for each source whose secret is
// set, and `GET /healthz`, `/readyz`, `/metrics`. A delivery is read up to a bound, checked before a
// byte of it is parsed, committed to the store, and only then answered 2xx.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { showControls } from '../core/log.js';
import type { Log } from '../core/log.js';
import type { DeploymentEvent, SourceName } from './event.js';
import type { Metrics, Verdict } from './metrics.js';
import { createProbe, type Probe } from './probe.js';
import { tooOld } from './retention.js';
import type { Source } from './source.js';
import type { Store } from './store/store.js';
import { BodyBudget, limitConnections, readBody } from './edge.js';
import { RefusalLog } from './refusals.js';

/** The receiver's bounds; tests shorten the times, nothing else does. */
export interface ServerLimits {
  /** Bytes of a delivery's body: GitHub's deployment events are tens of KiB; see docs/receiver.md. */
  bodyBytes: number;
  /** A client's whole request (headers and body) must have come within this. */
  requestMs: number;
  /** Headers in one request. */
  headers: number;
  /** Connections served at once. */
  connections: number;
  /** Connections of one client address at once; past either bound, a new connection closes the oldest idle one. */
  perClientConnections?: number;
  /** Bytes of all bodies being read at once: what slow clients can make the receiver hold (256 MiB pods). */
  bodyBudgetBytes?: number;
  /** At most one log line per this many milliseconds says the requests refused (they are counted in /metrics). */
  refusalLogMs?: number;
}

export const DEFAULT_LIMITS: ServerLimits = {
  bodyBytes: 1024 * 1024,
  requestMs: 30_000,
  headers: 100,
  connections: 512,
  perClientConnections: 64,
  bodyBudgetBytes: 32 * 1024 * 1024,
  refusalLogMs: 60_000,
};

/** A mapping file's overrides of artifact and environment, per source object. */
export type MapEvents = (source: SourceName, events: readonly DeploymentEvent[]) => DeploymentEvent[];

export interface EnabledSource {
  source: Source;
  secrets: unknown;
}

interface ReceiverServerOptions {
  /** Every source the receiver knows; `enabled` are those whose secret is set. */
  known: readonly Source[];
  enabled: readonly EnabledSource[];
  store: Store;
  metrics: Metrics;
  log: Log;
  /** Called once a delivery is committed: the worker looks for work at once. */
  stored: () => void;
  /** The mapping file's overrides (`serve --mapping`), applied before an event is stored. */
  mapEvents?: MapEvents;
  limits?: ServerLimits;
}

/** The options, and what the server made of them once. */
type Served = ReceiverServerOptions & { probe: Probe };

/** What every request shares: the body budget and the refusals' log. */
interface Shared {
  limits: Required<ServerLimits>;
  budget: BodyBudget;
  refusals: RefusalLog;
}

export function createReceiverServer(receiverOptions: ReceiverServerOptions): Server {
  const options: Served = { ...receiverOptions, probe: createProbe(receiverOptions) };
  const limits = { ...DEFAULT_LIMITS, ...options.limits } as Required<ServerLimits>;
  const shared: Shared = {
    limits,
    budget: new BodyBudget(limits.bodyBudgetBytes),
    refusals: new RefusalLog(options.log, limits.refusalLogMs),
  };
  const server = createServer({
    // Checked this often: a client that trickles is cut off within requestMs plus this.
    connectionsCheckingInterval: Math.min(1000, limits.requestMs),
    headersTimeout: limits.requestMs,
    requestTimeout: limits.requestMs,
    keepAliveTimeout: 5000,
  });
  server.maxHeadersCount = limits.headers;
  limitConnections(server, limits.connections, limits.perClientConnections);
  server.on('close', () => shared.refusals.flush());
  // A socket silent for the whole of requestMs is closed, whatever stage it is at.
  server.setTimeout(limits.requestMs, (socket) => socket.destroy());
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    handle(request, response, options, shared).catch((error: unknown) => {
      options.log.warning(`a request failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`);
      answer(response, 500, 'the receiver failed unexpectedly; the delivery was not stored\n');
    });
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    // A client too slow with its headers or body is told so (408); anything else it sent is no HTTP.
    const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout' : '400 Bad Request';
    if (socket.writable) socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    else socket.destroy();
  });
  return server;
}

async function handle(
  request: IncomingMessage,
  response: ServerResponse,
  options: Served,
  shared: Shared,
): Promise<void> {
  const path = (request.url ?? '/').split('?')[0] ?? '/';
  if (path === '/healthz' || path === '/readyz' || path === '/metrics') {
    if (request.method !== 'GET' && request.method !== 'HEAD') return answer(response, 405, 'GET only\n');
    const { status, text, type } = await options.probe(path);
    return answer(response, status, text, type);
  }
  const route = /^\/webhooks\/([^/]+)$/.exec(path);
  if (!route) return answer(response, 404, 'no such route: deliveries go to POST /webhooks/<source>\n');
  const name = route[1] as string;
  const source = options.known.find((known) => known.name === name);
  const enabled = options.enabled.find((entry) => entry.source.name === name);
  if (!source) {
    const names = options.known.map((known) => known.name).join(', ');
    return answer(
      response,
      404,
      `no source named ${JSON.stringify(showControls(name.slice(0, 40)))}: the sources are ${names}\n`,
    );
  }
  if (!enabled) {
    return answer(
      response,
      404,
      `the ${name} source is not enabled on this receiver: set ${source.secretVariables.join(' or ')} where it runs\n`,
    );
  }
  if (request.method !== 'POST') return answer(response, 405, 'POST only\n');
  const { limits, budget } = shared;
  // Refused unread: what the headers can tell, a body too large, a body that would pass the budget.
  const head = source.checkHeaders({ headers: request.headers, now: Date.now() }, enabled.secrets);
  if (!head.ok)
    return refuse(request, response, options, shared, {
      source: source.name,
      verdict: 'unauthorized',
      reason: head.reason,
    });
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > limits.bodyBytes) return refuse(request, response, options, shared, tooLarge(source.name, limits));
  if (!budget.fits(declared)) return refuse(request, response, options, shared, busy(source.name));
  const body = await readBody(request, limits.bodyBytes, budget);
  if (body === 'too-large') return refuse(request, response, options, shared, tooLarge(source.name, limits));
  if (body === 'busy') return refuse(request, response, options, shared, busy(source.name));
  if (body === 'aborted') return;
  try {
    await deliver(request, response, options, shared, enabled, body);
  } finally {
    budget.release(body.length);
  }
}

async function deliver(
  request: IncomingMessage,
  response: ServerResponse,
  { store, metrics, log, stored, mapEvents }: ReceiverServerOptions,
  { refusals }: Shared,
  { source, secrets }: EnabledSource,
  body: Buffer,
): Promise<void> {
  const incoming = { headers: request.headers, body, now: Date.now() };
  const said = (verdict: Verdict, deliveryId: string | undefined, detail = '') => {
    metrics.delivery(source.name, verdict);
    log.info(`${source.name} delivery ${shown(deliveryId)}: ${verdict}${detail ? ` (${showControls(detail)})` : ''}`);
  };
  const verification = source.verify(incoming, secrets);
  if (!verification.ok) {
    // Anyone can send these: counted, and said in the refusals' summary, never a line each.
    metrics.delivery(source.name, 'unauthorized');
    refusals.note(`${source.name} unauthorized`, verification.reason);
    return answer(response, 401, `not authenticated: ${verification.reason}\n`);
  }
  const parsed = source.parse(incoming, verification);
  if (parsed.verdict === 'invalid') {
    said('invalid', headerId(request), parsed.reason);
    return answer(response, source.invalidStatus ?? 400, `not a delivery this receiver can record: ${parsed.reason}\n`);
  }
  if (parsed.verdict === 'ignored') {
    said('ignored', parsed.deliveryId, parsed.reason);
    return answer(response, 202, `ignored: ${parsed.reason}\n`);
  }
  const stale = tooOld(parsed.sentAt, incoming.now);
  if (stale) {
    said('ignored', parsed.deliveryId, stale);
    return answer(response, 202, `ignored: ${stale}\n`);
  }
  let result;
  try {
    const events = mapEvents ? mapEvents(source.name, parsed.events) : parsed.events;
    const { deliveryId, digestId } = parsed;
    result = await store.accept({ source: source.name, deliveryId, ...(digestId ? { digestId } : {}), events });
  } catch (error) {
    said(
      'error',
      parsed.deliveryId,
      `the store did not take it: ${error instanceof Error ? error.message : String(error)}`,
    );
    return answer(response, 503, 'the store could not take the delivery: send it again later\n');
  }
  if (result.kind === 'duplicate') {
    said('duplicate', parsed.deliveryId);
    return answer(response, 200, 'already stored\n');
  }
  const skipped = result.skipped.length ? `, ${result.skipped.length} skipped` : '';
  said('stored', parsed.deliveryId, `${parsed.events.length} event(s)${skipped}`);
  // Why nothing is sent for an event: said once, as it arrives.
  for (const { key, status, reason } of result.skipped) {
    log.info(
      `${source.name} delivery ${shown(parsed.deliveryId)}: skipped ${showControls(`${key} ${status}: ${reason}`)}`,
    );
  }
  stored();
  answer(response, 202, 'stored\n');
}

interface Refusal {
  source: SourceName;
  verdict: 'unauthorized' | 'too_large' | 'busy';
  reason: string;
  status?: number;
  headers?: Record<string, string>;
}

function tooLarge(source: SourceName, limits: ServerLimits): Refusal {
  return { source, verdict: 'too_large', reason: `the body is over ${limits.bodyBytes} bytes`, status: 413 };
}

function busy(source: SourceName): Refusal {
  const reason = 'the receiver is reading as many bodies as it holds at once: send it again shortly';
  return { source, verdict: 'busy', reason, status: 503, headers: { 'retry-after': '5' } };
}

/** Answered before (the rest of) the body is read: the connection closes once the answer is out. */
function refuse(
  request: IncomingMessage,
  response: ServerResponse,
  { metrics }: ReceiverServerOptions,
  { refusals }: Shared,
  refusal: Refusal,
): void {
  metrics.delivery(refusal.source, refusal.verdict);
  refusals.note(`${refusal.source} ${refusal.verdict}`, refusal.reason);
  response.setHeader('connection', 'close');
  for (const [name, value] of Object.entries(refusal.headers ?? {})) response.setHeader(name, value);
  const status = refusal.status ?? 401;
  answer(response, status, status === 401 ? `not authenticated: ${refusal.reason}\n` : `${refusal.reason}\n`);
  response.on('finish', () => request.destroy());
}

/** The delivery id a request claims, for the log only (it may be anything): GitHub's, GitLab's, Standard Webhooks'. */
function headerId(request: IncomingMessage): string | undefined {
  const value =
    request.headers['x-github-delivery'] ?? request.headers['idempotency-key'] ?? request.headers['webhook-id'];
  return Array.isArray(value) ? value[0] : value;
}

function shown(id: string | undefined): string {
  if (id === undefined) return '(no id)';
  return showControls(id.length > 100 ? `${id.slice(0, 100)}…` : id);
}

function answer(response: ServerResponse, status: number, text: string, type = 'text/plain; charset=utf-8'): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  response.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text) });
  response.end(text);
}
