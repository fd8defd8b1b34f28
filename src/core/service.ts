// The Deployment Tracking Service: its requests, what its answers mean, and create / update of many
// deployments at once. A tracker sends (or, in a dry run, prints: dry-run.ts); both answer alike.
import { Limits, type DeploymentStatus } from './constants.js';
import type { CreateBody } from './deployment.js';
import type { HttpClient, HttpRequest, HttpResponse } from './http.js';
import { idFromJson, idProblem, type DeploymentId } from './ids.js';
import { isObject, jsonText, parseJsonLosslessly } from './json.js';
import { NetworkError } from './network-error.js';
import { settleAll } from './pool.js';
import { cutter, holdsSecret, type Cut } from './secret.js';
import type { Connection } from './settings.js';
import { bugLines, shorten, TRUNCATED } from './text.js';
import type { Words } from './words.js';

/** The service answered, but not with success; or its answer breaks the protocol. */
export class ServiceError extends Error {
  readonly lines: readonly string[];
  /** The answer's HTTP status, for the retry policy (retry.ts); undefined where no answer is behind it. */
  readonly status: number | undefined;
  constructor(lines: readonly string[], status?: number) {
    super(lines.join('\n'));
    this.name = 'ServiceError';
    this.lines = lines;
    this.status = status;
  }
}

export interface Tracker {
  /** Once `signal` is aborted, a create under way is not tried again. */
  create(body: CreateBody, signal?: AbortSignal): Promise<DeploymentId>;
  /** Once `signal` is aborted (a run told to stop), an update under way is not tried again. */
  update(id: DeploymentId, status: DeploymentStatus, signal?: AbortSignal): Promise<void>;
}

/** A deployment created, one that could not be, or one never asked for (the run was cancelled first). */
export type CreateResult =
  Created | { body: CreateBody; failure: readonly string[] } | { body: CreateBody; notSent: true };
export type Created = { body: CreateBody; id: DeploymentId };
export type UpdateResult = { id: DeploymentId; failure?: readonly string[] };

export interface CreateAllOptions {
  /**
   * Aborted when the run is cancelled: no further create starts, and none is tried again; those
   * under way finish (each bounded by its timeout). The bodies never sent come back `notSent`.
   */
  signal?: AbortSignal;
  /** Each deployment as soon as it is created (answers come in any order): to hand it on at once. */
  onCreated?: (created: Created) => void;
}

/** Creates every deployment, a few at a time; a failure on one does not stop the others. */
export async function createAll(
  tracker: Tracker,
  bodies: readonly CreateBody[],
  { signal, onCreated }: CreateAllOptions = {},
): Promise<CreateResult[]> {
  const create = async (body: CreateBody): Promise<DeploymentId> => {
    const id = await tracker.create(body, signal);
    onCreated?.({ body, id });
    return id;
  };
  const settled = await settleAll(bodies, Limits.requestsInFlight, create, signal);
  return settled.map((result, index): CreateResult => {
    const body = bodies[index] as CreateBody;
    if (result.status === 'not-started') return { body, notSent: true };
    return result.status === 'fulfilled' ? { body, id: result.value } : { body, failure: failureLines(result.reason) };
  });
}

/**
 * Sets every deployment to `status`, a few at a time; a failure on one does not stop the others.
 * Every update is sent; once `signal` is aborted, none is tried again.
 */
export async function setStatusAll(
  tracker: Tracker,
  ids: readonly DeploymentId[],
  status: DeploymentStatus,
  signal?: AbortSignal,
): Promise<UpdateResult[]> {
  const settled = await settleAll(ids, Limits.requestsInFlight, (id) => tracker.update(id, status, signal));
  return settled.map((result, index) => {
    const id = ids[index] as DeploymentId;
    if (result.status === 'rejected') return { id, failure: failureLines(result.reason) };
    // Fulfilled: without a signal, every update is started.
    return { id };
  });
}

/**
 * What a failed call says, for the log. Anything but the service's or the network's failure is a
 * bug of ours: said as one, for this deployment alone, so that the others are still reported.
 */
function failureLines(error: unknown): readonly string[] {
  if (error instanceof ServiceError) return error.lines;
  if (error instanceof NetworkError) return [error.message];
  return bugLines('unexpected error', error);
}

/** `words`: the face's, for what its messages name (the tool, the setting of the service's address). */
export function createTracker(
  http: HttpClient,
  connection: Connection,
  { tool, serviceAddress }: Pick<Words, 'tool' | 'serviceAddress'>,
): Tracker {
  const { baseUrl, apiKey } = connection;
  // What the service says is cleaned as the log shows it (the key scrubbed, control characters
  // escaped) before it is cut short, or a cut could show part of the key.
  const cut = cutter(apiKey);
  return {
    async create(body, signal) {
      const response = await http.send(createRequest(baseUrl, apiKey, body), signal);
      const answer = successAnswer(response, cut, serviceAddress);
      const head = `HTTP ${response.status}, but`;
      const id = answerId(response, answer.id, head, tool);
      if (!id || id.text === '')
        throw new ServiceError([`${head} the answer has no deployment \`id\``], response.status);
      const why = holdsSecret(id.text, apiKey) ? 'holds the API key' : idProblem(id.text);
      if (why) {
        throw new ServiceError(
          [
            `${head} the deployment id it returned ${why}, so it is not kept (the service may have recorded a deployment ${tool} cannot finish)`,
          ],
          response.status,
        );
      }
      return id;
    },
    async update(id, status, signal) {
      successAnswer(await http.send(updateRequest(baseUrl, apiKey, id, status), signal), cut, serviceAddress);
    },
  };
}

export function createRequest(baseUrl: URL, apiKey: string, body: CreateBody): HttpRequest {
  return jsonRequest('POST', new URL('deployment', baseUrl), apiKey, body);
}

export function updateRequest(baseUrl: URL, apiKey: string, id: DeploymentId, status: DeploymentStatus): HttpRequest {
  return jsonRequest('PATCH', deploymentUrl(baseUrl, id), apiKey, { status });
}

/** `{base}/deployment/{id}`, the id one path segment whatever it holds. */
export function deploymentUrl(baseUrl: URL, id: DeploymentId): URL {
  const segment = encodeURIComponent(id.text);
  const url = new URL(`deployment/${segment}`, baseUrl);
  if (url.href !== `${baseUrl.href}deployment/${segment}`)
    throw new Error(`Deployment id '${id.text}' leaves the deployment path`);
  return url;
}

function jsonRequest(method: HttpRequest['method'], url: URL, apiKey: string, body: object): HttpRequest {
  return {
    method,
    url,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      // Uncompressed: the answer is read as it comes (undici's request API inflates nothing).
      'accept-encoding': 'identity',
      'x-api-key': apiKey,
    },
    body: JSON.stringify(body),
  };
}

/** The JSON answer of a successful write, or a ServiceError that says what went wrong. */
function successAnswer(response: HttpResponse, cut: Cut, serviceAddress: string): Record<string, unknown> {
  const { status } = response;
  const body = parseAnswer(response.text);
  if (status >= 300 && status < 400) {
    const where = response.location
      ? `it points to '${cut(response.location, Limits.detailEntryLength, TRUNCATED)}'`
      : 'it names no address';
    throw new ServiceError(
      [
        `HTTP ${status}: a redirect, which is not followed (the API key would go along); ${where}. Set ${serviceAddress} to the service's own address.`,
      ],
      status,
    );
  }
  if (status < 200 || status >= 300) throw new ServiceError(describeFailure(response, body, cut), status);
  const encoding = compressed(response, cut);
  if (encoding) {
    throw new ServiceError(
      [
        `HTTP ${status}, but the answer is ${encoding}, so it is not read nor taken as a success (the service may have acted on the request)`,
      ],
      status,
    );
  }
  if (!isObject(body)) {
    const why = response.truncated
      ? `is over ${Limits.answerBytes / 1024} KiB (only that much is read)`
      : 'is not a JSON object';
    throw new ServiceError([`HTTP ${status}, but the answer ${why}, so it is not taken as a success`], status);
  }
  if (body.success !== true)
    throw new ServiceError([`HTTP ${status}, but the answer does not say \`success: true\``], status);
  return body;
}

/**
 * "compressed (content-encoding: gzip) although it was asked for none (accept-encoding: identity)";
 * undefined for an answer as it was asked for.
 */
function compressed(response: Pick<HttpResponse, 'contentEncoding'>, cut: Cut) {
  const encoding = response.contentEncoding?.trim() ?? '';
  if (encoding === '' || encoding.toLowerCase() === 'identity') return undefined;
  const shown = cut(encoding, Limits.quotedValueLength, TRUNCATED);
  return `compressed (content-encoding: ${shown}) although it was asked for none (accept-encoding: identity)`;
}

/** "HTTP 404: Deployment not found"; a validation array one line per entry. `cut` hides the key before anything is cut. */
export function describeFailure(
  response: Pick<HttpResponse, 'status' | 'contentType' | 'truncated' | 'contentEncoding'>,
  body: unknown,
  cut: Cut = shorten,
): string[] {
  const head = `HTTP ${response.status}`;
  const shown = (text: string, max: number) => cut(text, max, TRUNCATED);
  const encoding = compressed(response, cut);
  if (encoding) return [`${head} (the answer is ${encoding}, so it is not read)`];
  if (body === undefined) {
    if (response.truncated)
      return [`${head} (the answer is over ${Limits.answerBytes / 1024} KiB; it was not read whole)`];
    const type = response.contentType.split(';')[0]?.trim();
    return [`${head} (the answer is not JSON${type ? `: ${shown(type, Limits.quotedValueLength)}` : ''})`];
  }
  const detail = isObject(body) ? body.detail : undefined;
  if (detail === undefined || detail === null) return [`${head} (no \`detail\` in the answer)`];
  if (typeof detail === 'string') return [`${head}: ${shown(detail, Limits.detailLength)}`];
  if (Array.isArray(detail)) {
    const entries = detail.slice(0, Limits.detailEntries);
    const lines = entries.map((entry) => `  ${shown(describeValidationEntry(entry), Limits.detailEntryLength)}`);
    const more = detail.length - lines.length;
    return [`${head}:`, ...lines, ...(more > 0 ? [`  (and ${more} more)`] : [])];
  }
  return [`${head}: ${shown(json(detail), Limits.detailLength)}`];
}

/**
 * A value of the answer as JSON text: enough of it that scrubbing the key before the cut sees every
 * form of the key the cut could reach, and never recursion (a deep answer is the service's, not a
 * bug of ours).
 */
function json(value: unknown): string {
  return jsonText(value, 2 * Limits.answerBytes);
}

function describeValidationEntry(entry: unknown): string {
  if (!isObject(entry)) return json(entry);
  const location = Array.isArray(entry.loc) ? entry.loc.map(locationPart).join('.') : '';
  const message = typeof entry.msg === 'string' ? entry.msg : json(entry);
  return location ? `${location}: ${message}` : message;
}

/** A part of `loc`: a field name or an index, as text; anything else as JSON (never String(), which runs the answer's own toString). */
function locationPart(part: unknown): string {
  if (typeof part === 'string' || typeof part === 'number') return String(part);
  return json(part);
}

/** The answer as JSON (undefined when it is none). Plain JSON.parse: it takes deep nesting, and a large answer of numbers costs no object per number. */
function parseAnswer(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The created deployment's id; a number with every digit, read again from the answer's text. */
function answerId(
  { text, status }: Pick<HttpResponse, 'text' | 'status'>,
  value: unknown,
  head: string,
  tool: string,
): DeploymentId | undefined {
  if (typeof value !== 'number') return idFromJson(value);
  try {
    return idFromJson((parseJsonLosslessly(text) as Record<string, unknown>).id);
  } catch {
    // Too deep for a second reading: exact only where JavaScript's number is.
    if (Number.isSafeInteger(value)) return { text: String(value), numeric: true };
    throw new ServiceError(
      [
        `${head} the answer nests too deep for its numeric id to be read exactly (the service may have recorded a deployment ${tool} cannot finish)`,
      ],
      status,
    );
  }
}
