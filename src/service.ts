// The Deployment Tracking Service: create and update a deployment, and decode what it answers.
import type { DeploymentStatus } from './constants.js';
import type { HttpClient, HttpRequest, HttpResponse } from './http.js';
import type { CreateBody } from './plan.js';

export type DeploymentId = string | number;

/** The service answered, but not with success. */
export class ServiceError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'ServiceError';
    this.status = status;
  }
}

export interface Tracker {
  create(body: CreateBody): Promise<DeploymentId>;
  update(id: DeploymentId, status: DeploymentStatus): Promise<void>;
}

/** Sets each deployment to `status`; a failure on one does not stop the others. */
export async function updateAll(
  tracker: Tracker,
  ids: DeploymentId[],
  status: DeploymentStatus,
): Promise<{ updated: DeploymentId[]; failures: string[] }> {
  const results = await Promise.allSettled(ids.map((id) => tracker.update(id, status)));
  const updated = ids.filter((_, index) => results[index]?.status === 'fulfilled');
  const failures = results.flatMap((result, index) =>
    result.status === 'rejected'
      ? [`Could not set deployment ${ids[index]} to ${status}: ${errorText(result.reason)}`]
      : [],
  );
  return { updated, failures };
}

/** What a failed call to the service says, for a log line. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function createRequest(baseUrl: URL, apiKey: string, body: CreateBody): HttpRequest {
  return jsonRequest('POST', new URL('deployment', baseUrl), apiKey, body);
}

export function updateRequest(baseUrl: URL, apiKey: string, id: DeploymentId, status: DeploymentStatus): HttpRequest {
  return jsonRequest('PATCH', deploymentUrl(baseUrl, id), apiKey, { status });
}

export function deploymentUrl(baseUrl: URL, id: DeploymentId): URL {
  return new URL(`deployment/${encodeURIComponent(String(id))}`, baseUrl);
}

function jsonRequest(method: HttpRequest['method'], url: URL, apiKey: string, body: object): HttpRequest {
  return {
    method,
    url,
    headers: { 'content-type': 'application/json', accept: 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify(body),
  };
}

export function createTracker(http: HttpClient, baseUrl: URL, apiKey: string): Tracker {
  return {
    async create(body) {
      const answer = successBody(await http.send(createRequest(baseUrl, apiKey, body)));
      const id = answer.id;
      if ((typeof id === 'string' && id !== '') || typeof id === 'number') return id;
      throw new ServiceError(200, 'HTTP 200, but the answer has no deployment `id`');
    },
    async update(id, status) {
      successBody(await http.send(updateRequest(baseUrl, apiKey, id, status)));
    },
  };
}

/** The JSON answer of a successful write, or a ServiceError that says what went wrong. */
function successBody(response: HttpResponse): Record<string, unknown> {
  const body = parseJson(response.text);
  if (response.status < 200 || response.status >= 300) {
    throw new ServiceError(response.status, describeFailure(response.status, body, response.contentType));
  }
  if (!isObject(body) || body.success !== true) {
    throw new ServiceError(response.status, `HTTP ${response.status}, but the answer does not say \`success: true\``);
  }
  return body;
}

/** "HTTP 404: Deployment not found", or for a validation array one line per entry. */
export function describeFailure(status: number, body: unknown, contentType: string): string {
  const head = `HTTP ${status}`;
  if (body === undefined)
    return `${head} (the answer is not JSON${contentType ? `: ${contentType.split(';')[0]}` : ''})`;
  const detail = isObject(body) ? body.detail : undefined;
  if (typeof detail === 'string') return `${head}: ${detail}`;
  if (Array.isArray(detail))
    return [`${head}:`, ...detail.map((entry) => `  ${describeValidationEntry(entry)}`)].join('\n');
  return `${head} (no \`detail\` in the answer)`;
}

function describeValidationEntry(entry: unknown): string {
  if (!isObject(entry)) return String(entry);
  const location = Array.isArray(entry.loc) ? entry.loc.join('.') : '';
  const message = typeof entry.msg === 'string' ? entry.msg : JSON.stringify(entry);
  return location ? `${location}: ${message}` : message;
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
