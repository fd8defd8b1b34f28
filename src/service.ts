// The Deployment Tracking Service: its wire types, create and update, and what its answers mean.
import { Limits, type DeploymentStatus } from './constants.js';
import type { HttpClient, HttpRequest, HttpResponse } from './http.js';
import { NetworkError } from './network-error.js';
import { idFromJson, idProblem, parseJsonLosslessly, type DeploymentId } from './ids.js';
import { secretForms } from './log.js';
import { settleAll } from './pool.js';
import { shorten, TRUNCATED } from './text.js';
import type { ArtifactRef, Connection } from './settings.js';

export interface DeploymentFields {
  version: string;
  environment: string;
  commitSha: string;
  user: string;
  branch: string;
  changelog?: string;
  description?: string;
  link?: string;
  type: 'SIMPLE';
}

/** The body of `POST /deployment`. */
export type CreateBody = ArtifactRef & DeploymentFields & { status: DeploymentStatus };

/** The service answered, but not with success; or its answer breaks the protocol. */
export class ServiceError extends Error {
  readonly lines: readonly string[];
  constructor(lines: readonly string[]) {
    super(lines.join('\n'));
    this.name = 'ServiceError';
    this.lines = lines;
  }
}

export interface Tracker {
  create(body: CreateBody): Promise<DeploymentId>;
  update(id: DeploymentId, status: DeploymentStatus): Promise<void>;
}

export type CreateResult = { body: CreateBody; id: DeploymentId } | { body: CreateBody; failure: readonly string[] };
export type UpdateResult = { id: DeploymentId; failure?: readonly string[] };

/** Creates every deployment, a few at a time; a failure on one does not stop the others. */
export async function createAll(tracker: Tracker, bodies: readonly CreateBody[]): Promise<CreateResult[]> {
  const settled = await settleAll(bodies, Limits.requestsInFlight, (body) => tracker.create(body));
  return settled.map((result, index) => {
    const body = bodies[index] as CreateBody;
    return result.status === 'fulfilled' ? { body, id: result.value } : { body, failure: failureLines(result.reason) };
  });
}

/** Sets every deployment to `status`, a few at a time; a failure on one does not stop the others. */
export async function setStatusAll(
  tracker: Tracker,
  ids: readonly DeploymentId[],
  status: DeploymentStatus,
): Promise<UpdateResult[]> {
  const settled = await settleAll(ids, Limits.requestsInFlight, (id) => tracker.update(id, status));
  return settled.map((result, index) => {
    const id = ids[index] as DeploymentId;
    return result.status === 'fulfilled' ? { id } : { id, failure: failureLines(result.reason) };
  });
}

/** What a failed call says, for the log; anything but the service's or the network's failure is a bug of ours. */
function failureLines(error: unknown): readonly string[] {
  if (error instanceof ServiceError) return error.lines;
  if (error instanceof NetworkError) return [error.message];
  throw error;
}

export function createTracker(http: HttpClient, connection: Connection): Tracker {
  const { baseUrl, apiKey } = connection;
  const secrets = secretForms(apiKey);
  return {
    async create(body) {
      const response = await http.send(createRequest(baseUrl, apiKey, body));
      const answer = successAnswer(response);
      const id = idFromJson(answer.id);
      const head = `HTTP ${response.status}, but`;
      if (!id || id.text === '') throw new ServiceError([`${head} the answer has no deployment \`id\``]);
      const why = secrets.some((secret) => id.text.includes(secret)) ? 'holds the API key' : idProblem(id.text);
      if (why) {
        throw new ServiceError([
          `${head} the deployment id it returned ${why}, so it is not kept (the service may have recorded a deployment this action cannot finish)`,
        ]);
      }
      return id;
    },
    async update(id, status) {
      successAnswer(await http.send(updateRequest(baseUrl, apiKey, id, status)));
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
    headers: { 'content-type': 'application/json', accept: 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify(body),
  };
}

/** The JSON answer of a successful write, or a ServiceError that says what went wrong. */
function successAnswer(response: HttpResponse): Record<string, unknown> {
  const { status } = response;
  const body = parseAnswer(response.text);
  if (status >= 300 && status < 400) {
    const where = response.location
      ? `it points to '${shorten(response.location, 200, TRUNCATED)}'`
      : 'it names no address';
    throw new ServiceError([
      `HTTP ${status}: a redirect, which is not followed (the API key would go along); ${where}. Set \`base-url\` to the service's own address.`,
    ]);
  }
  if (status < 200 || status >= 300) throw new ServiceError(describeFailure(response, body));
  if (!isObject(body)) {
    const why = response.truncated
      ? `is over ${Limits.answerBytes / 1024} KiB (only that much is read)`
      : 'is not a JSON object';
    throw new ServiceError([`HTTP ${status}, but the answer ${why}, so it is not taken as a success`]);
  }
  if (body.success !== true) throw new ServiceError([`HTTP ${status}, but the answer does not say \`success: true\``]);
  return body;
}

/** "HTTP 404: Deployment not found"; a validation array one line per entry. */
export function describeFailure(
  response: Pick<HttpResponse, 'status' | 'contentType' | 'truncated'>,
  body: unknown,
): string[] {
  const head = `HTTP ${response.status}`;
  if (body === undefined) {
    if (response.truncated)
      return [`${head} (the answer is over ${Limits.answerBytes / 1024} KiB; it was not read whole)`];
    const type = response.contentType.split(';')[0]?.trim();
    return [`${head} (the answer is not JSON${type ? `: ${shorten(type, 100, TRUNCATED)}` : ''})`];
  }
  const detail = isObject(body) ? body.detail : undefined;
  if (detail === undefined || detail === null) return [`${head} (no \`detail\` in the answer)`];
  if (typeof detail === 'string') return [`${head}: ${shorten(detail, Limits.detailLength, TRUNCATED)}`];
  if (Array.isArray(detail)) {
    const shown = detail.slice(0, Limits.detailEntries).map((entry) => `  ${describeValidationEntry(entry)}`);
    const more = detail.length - shown.length;
    return [`${head}:`, ...shown, ...(more > 0 ? [`  (and ${more} more)`] : [])];
  }
  return [`${head}: ${shorten(JSON.stringify(detail), Limits.detailLength, TRUNCATED)}`];
}

function describeValidationEntry(entry: unknown): string {
  if (!isObject(entry)) return shorten(JSON.stringify(entry) ?? String(entry), 300, TRUNCATED);
  const location = Array.isArray(entry.loc) ? entry.loc.map(String).join('.') : '';
  const message = typeof entry.msg === 'string' ? entry.msg : JSON.stringify(entry);
  return shorten(location ? `${location}: ${message}` : message, 300, TRUNCATED);
}

function parseAnswer(text: string): unknown {
  try {
    return parseJsonLosslessly(text);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
