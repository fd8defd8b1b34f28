// A fake of the Deployment Tracking Service (../shared/seed) on 127.0.0.1. It enforces the contract
// the seed states (X-Api-Key, JSON bodies, required fields, `{success, id}`, `detail` errors) and
// plays scripted faults. Used by the tests and by `npm start`; runs on Node 24 as plain TypeScript.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

export interface RecordedRequest {
  method: string;
  /** Path and query as received, e.g. `/api/deployment/7`. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The body parsed as JSON, or the raw text when it is not JSON. */
  body: unknown;
  /** When it arrived (performance.now()), to check waits between attempts. */
  at: number;
  /** Whether its whole answer was written (false where the connection was cut or the answer lost). */
  answered?: boolean;
  /** When its connection stopped carrying it (answered, cut, or its client gone): performance.now(). */
  closedAt?: number;
}

/** What the next matching request gets instead of the contract's answer. */
export type Fault =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  /** An answer of `stream` bytes, written as fast as the client reads, until it stops reading. */
  | { status: number; stream: number }
  /** Close the connection without an answer. */
  | { drop: true }
  /** Accept and never answer. */
  | { hang: true }
  /** The contract's answer, after these bytes written raw (e.g. an unsolicited `HTTP/1.1 100 Continue`). */
  | { interim: string }
  /** The contract's answer, gzipped, with `content-encoding: gzip`, whatever the request accepts. */
  | { gzip: true }
  /** These bytes written raw as the whole answer (no valid HTTP), then the connection closed. */
  | { raw: string }
  /** The contract's answer, this long after the request (a slow service). */
  | { delayMs: number }
  /** Acted on as the contract says (a create creates), but its answer lost: the connection cut instead. */
  | { lost: true };

export interface Deployment {
  id: string | number;
  body: Record<string, unknown>;
  /** Every status the deployment has had, in order. */
  statuses: string[];
}

export interface FakeServiceOptions {
  apiKey?: string;
  /** Path the API lives under, e.g. `/api/v1`. */
  prefix?: string;
  /** Ids as the service might return them; a function gives the n-th id's JSON text (e.g. a number beyond 2^53). */
  ids?: 'number' | 'uuid' | ((n: number) => string);
  /** Loopback port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Called after each request is answered (for the CLI's state file). */
  onChange?: () => void;
  /** Answer every request this much later, so that concurrent requests overlap. */
  answerDelayMs?: number;
  /**
   * Called with each request as it arrives (recorded, `index` counting from 0); its answer waits for
   * the promise returned, if any: to hold answers until a test has done something (signalled a step).
   */
  gate?: (request: RecordedRequest, index: number) => Promise<void> | void;
  /** The fault for a request when none is queued for it (a chaos test's random faults); none where undefined. */
  faultFor?: (request: RecordedRequest) => Fault | undefined;
  /** Serve HTTPS with this key and certificate (PEM), e.g. tlsFixture('server') from test/helpers/tls-fixtures.ts. */
  tls?: { key: string | Buffer; cert: string | Buffer };
}

export interface FakeService {
  /** The base URL to give the action, prefix included, without a trailing slash (https:// with `tls`). */
  url: string;
  port: number;
  apiKey: string;
  requests: RecordedRequest[];
  deployments: Map<string, Deployment>;
  /** The most requests it was answering at once. */
  readonly maxInFlight: number;
  /** Queues faults for the next requests with this method, in order. */
  fail(method: 'POST' | 'PATCH', ...faults: Fault[]): void;
  close(): Promise<void>;
}

const DEPLOYMENT_FIELDS = new Set([
  'artifactId',
  'artifactName',
  'version',
  'environment',
  'commitSha',
  'user',
  'branch',
  'status',
  'changelog',
  'description',
  'link',
  'type',
]);
const REQUIRED_FIELDS = ['version', 'environment', 'commitSha', 'user', 'branch'];
const NULLABLE_FIELDS = new Set(['version', 'environment']);
const OPTIONAL_STRINGS = ['changelog', 'description', 'link', 'artifactName'];
const STATUSES = ['STARTED', 'SUCCEEDED', 'FAILED'];

interface ValidationEntry {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

export async function startFakeService(options: FakeServiceOptions = {}): Promise<FakeService> {
  const apiKey = options.apiKey ?? 'test-key-5f2b9c';
  const prefix = (options.prefix ?? '').replace(/\/+$/, '');
  const requests: RecordedRequest[] = [];
  const deployments = new Map<string, Deployment>();
  const faults: Record<string, Fault[]> = { POST: [], PATCH: [] };
  let nextId = 1;
  let inFlight = 0;
  let maxInFlight = 0;

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    maxInFlight = Math.max(maxInFlight, ++inFlight);
    res.on('close', () => inFlight--);
    res.on('finish', () => options.onChange?.());
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = parseJson(text);
      const method = req.method ?? '';
      const recorded: RecordedRequest = {
        method,
        path: req.url ?? '',
        headers: req.headers,
        body: body === undefined ? text : body,
        at: performance.now(),
      };
      requests.push(recorded);
      res.on('finish', () => (recorded.answered = true));
      res.on('close', () => (recorded.closedAt = performance.now()));

      const fault = faults[method]?.shift() ?? options.faultFor?.(recorded);
      const contract = () => answer(method, req.url ?? '', req.headers, text, body, res);
      const reply = () => {
        if (fault && 'interim' in fault) res.socket?.write(fault.interim);
        if (fault && 'gzip' in fault) gzipped.add(res);
        if (fault && 'delayMs' in fault) return void setTimeout(contract, fault.delayMs);
        if (fault && 'lost' in fault) {
          // The service acts on it; the answer never reaches the client.
          res.writeHead = () => res;
          res.end = () => (res.socket?.destroy(), res);
          return contract();
        }
        if (!fault || 'interim' in fault || 'gzip' in fault) return contract();
        playFault(fault, res);
      };
      const delayed = () => (options.answerDelayMs ? void setTimeout(reply, options.answerDelayMs) : reply());
      const gate = options.gate?.(recorded, requests.length - 1);
      if (gate) void gate.then(delayed);
      else delayed();
    });
  };
  const server = options.tls
    ? createHttpsServer({ key: options.tls.key, cert: options.tls.cert }, handle)
    : createServer(handle);

  function answer(
    method: string,
    url: string,
    headers: IncomingHttpHeaders,
    text: string,
    body: unknown,
    res: ServerResponse,
  ): void {
    // Routing first, as a web framework does: an unknown path or a method the path does not take is
    // answered before the key or the body are looked at.
    const path = url.split('?')[0] ?? '';
    const route = path.startsWith(`${prefix}/`) ? path.slice(prefix.length) : undefined;
    const id = /^\/deployment\/([^/]+)$/.exec(route ?? '')?.[1];
    const allowed = route === '/deployment' ? 'POST' : id ? 'PATCH' : undefined;
    if (!allowed) return send(res, 404, { detail: 'Not Found' });
    if (method !== allowed) return send(res, 405, { detail: 'Method Not Allowed' }, { allow: allowed });
    if (headers['x-api-key'] !== apiKey) return send(res, 401, { detail: 'Invalid or missing API key' });
    if (!String(headers['content-type'] ?? '').startsWith('application/json')) {
      return send(res, 415, { detail: 'Requests with a body must send Content-Type: application/json' });
    }
    if (body === undefined) {
      return send(res, 422, {
        detail: [{ type: 'json_invalid', loc: ['body'], msg: 'JSON decode error', input: text }],
      });
    }
    if (id) return update(decodeURIComponent(id), body, res);
    return create(body, res);
  }

  function create(body: unknown, res: ServerResponse): void {
    const errors = validateCreate(body);
    if (errors.length) return send(res, 422, { detail: errors });
    const record = body as Record<string, unknown>;
    // The seed: a deployment created without a status is tracked as successful.
    const status = typeof record.status === 'string' ? record.status : 'SUCCEEDED';
    if (typeof options.ids === 'function') {
      // The id's JSON text as is (no digit lost); a PATCH names it decoded from the path.
      const idText = options.ids(nextId++);
      const key = idText.startsWith('"') ? (JSON.parse(idText) as string) : idText;
      deployments.set(key, { id: idText, body: record, statuses: [status] });
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(`{"success":true,"id":${idText}}`);
    }
    const id = options.ids === 'uuid' ? randomUUID() : nextId++;
    deployments.set(String(id), { id, body: record, statuses: [status] });
    send(res, 200, { success: true, id });
  }

  function update(id: string, body: unknown, res: ServerResponse): void {
    const deployment = deployments.get(id);
    if (!deployment) return send(res, 404, { detail: `Deployment ${id} not found` });
    const errors = validateUpdate(body);
    if (errors.length) return send(res, 422, { detail: errors });
    deployment.statuses.push(String((body as Record<string, unknown>).status));
    send(res, 200, { success: true });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}${prefix}`,
    port,
    apiKey,
    requests,
    deployments,
    get maxInFlight() {
      return maxInFlight;
    },
    fail: (method, ...queued) => faults[method]?.push(...queued),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers sent gzipped ({ gzip: true }). */
const gzipped = new WeakSet<ServerResponse>();

function playFault(
  fault: Exclude<Fault, { interim: string } | { gzip: true } | { delayMs: number } | { lost: true }>,
  res: ServerResponse,
): void {
  if ('drop' in fault) {
    res.socket?.destroy();
    return;
  }
  if ('hang' in fault) return;
  if ('raw' in fault) {
    res.socket?.end(fault.raw);
    return;
  }
  if ('stream' in fault) return streamAnswer(fault.status, fault.stream, res);
  const raw = typeof fault.body === 'string';
  const contentType = raw ? 'text/html' : 'application/json';
  res.writeHead(fault.status, { 'content-type': contentType, ...fault.headers });
  res.end(raw ? fault.body : JSON.stringify(fault.body ?? { detail: `Scripted ${fault.status}` }));
}

function streamAnswer(status: number, bytes: number, res: ServerResponse): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  const chunk = Buffer.alloc(64 * 1024, 'x');
  let written = 0;
  const pump = () => {
    while (written < bytes && !res.destroyed) {
      written += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    res.end();
  };
  res.on('close', () => res.removeAllListeners('drain'));
  pump();
}

/** What the seed requires of `POST /deployment`, in the service's own error shape. */
export function validateCreate(body: unknown): ValidationEntry[] {
  if (!isObject(body)) return [{ type: 'model_type', loc: ['body'], msg: 'Input should be an object', input: body }];
  const errors: ValidationEntry[] = [];
  if (!('artifactId' in body) && !('artifactName' in body)) {
    errors.push({
      type: 'value_error',
      loc: ['body'],
      msg: 'Value error, Either artifactId or artifactName must be provided',
      input: body,
      ctx: { error: {} },
    });
  }
  if ('artifactId' in body && !(typeof body.artifactId === 'string' || Number.isInteger(body.artifactId))) {
    errors.push({
      type: 'string_type',
      loc: ['body', 'artifactId'],
      msg: 'Input should be a valid string',
      input: body.artifactId,
    });
  }
  for (const field of REQUIRED_FIELDS) {
    if (!(field in body)) {
      errors.push({ type: 'missing', loc: ['body', field], msg: 'Field required', input: body });
    } else if (!(typeof body[field] === 'string' || (body[field] === null && NULLABLE_FIELDS.has(field)))) {
      errors.push({
        type: 'string_type',
        loc: ['body', field],
        msg: 'Input should be a valid string',
        input: body[field],
      });
    }
  }
  for (const field of OPTIONAL_STRINGS) {
    if (field in body && typeof body[field] !== 'string') {
      errors.push({
        type: 'string_type',
        loc: ['body', field],
        msg: 'Input should be a valid string',
        input: body[field],
      });
    }
  }
  if ('status' in body && !STATUSES.includes(body.status as string))
    errors.push(enumError('status', body.status, STATUSES));
  if ('type' in body && body.type !== 'SIMPLE') errors.push(enumError('type', body.type, ['SIMPLE']));
  return [...errors, ...extraFieldErrors(body, DEPLOYMENT_FIELDS)];
}

export function validateUpdate(body: unknown): ValidationEntry[] {
  if (!isObject(body)) return [{ type: 'model_type', loc: ['body'], msg: 'Input should be an object', input: body }];
  const errors: ValidationEntry[] = [];
  if (!('status' in body))
    errors.push({ type: 'missing', loc: ['body', 'status'], msg: 'Field required', input: body });
  else if (!STATUSES.includes(body.status as string)) errors.push(enumError('status', body.status, STATUSES));
  return [...errors, ...extraFieldErrors(body, new Set(['status']))];
}

/** Stricter than the seed says: an unknown field is a client bug worth catching in tests. */
function extraFieldErrors(body: Record<string, unknown>, allowed: Set<string>): ValidationEntry[] {
  return Object.keys(body)
    .filter((field) => !allowed.has(field))
    .map((field) => ({
      type: 'extra_forbidden',
      loc: ['body', field],
      msg: 'Extra inputs are not permitted',
      input: body[field],
    }));
}

function enumError(field: string, input: unknown, allowed: string[]): ValidationEntry {
  const expected = allowed.map((value) => `'${value}'`).join(', ');
  return { type: 'enum', loc: ['body', field], msg: `Input should be ${expected}`, input, ctx: { expected } };
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (gzipped.has(res)) {
    res.writeHead(status, { 'content-type': 'application/json', 'content-encoding': 'gzip', ...headers });
    return void res.end(gzipSync(JSON.stringify(body)));
  }
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
