// Every input read and validated once, before any request is sent. A bad value throws a
// ConfigError that names the input and says how to fix it.
import { DeploymentType, Inputs, type DeploymentStatus } from './constants.js';

/** Reads one input as the runner passed it; '' when it is not set. */
export type InputReader = (name: string) => string;

export class ConfigError extends Error {
  readonly input: string;
  constructor(input: string, problem: string) {
    super(`Input '${input}' ${problem}`);
    this.name = 'ConfigError';
    this.input = input;
  }
}

/** How to reach the service: what both the main and the post step need. */
export interface Connection {
  apiKey: string;
  /** Always ends with '/', so that `new URL('deployment', baseUrl)` keeps its path. */
  baseUrl: URL;
  timeoutMs: number;
  retries: number;
  failOnError: boolean;
  dryRun: boolean;
}

export type ArtifactRef = { artifactId: number | string } | { artifactName: string };

const MAX_TIMEOUT_SECONDS = 600;
const MAX_RETRIES = 10;

export function readConnection(read: InputReader): Connection {
  const apiKey = read(Inputs.ApiKey);
  if (!apiKey) {
    throw new ConfigError(
      Inputs.ApiKey,
      'is empty. Set it from a secret, e.g. `api-key: ${{ secrets.DEPLOY_TRACKER_API_KEY }}`, and check that the secret exists for this repository and environment.',
    );
  }
  const allowInsecureHttp = readBoolean(read, Inputs.AllowInsecureHttp);
  return {
    apiKey,
    baseUrl: readBaseUrl(read, allowInsecureHttp),
    timeoutMs:
      readNumber(read, Inputs.TimeoutSeconds, {
        accepts: /^\d+(\.\d+)?$/,
        min: 0.001,
        max: MAX_TIMEOUT_SECONDS,
        expected: `a number of seconds above 0 and at most ${MAX_TIMEOUT_SECONDS}`,
      }) * 1000,
    retries: readNumber(read, Inputs.Retries, {
      accepts: /^\d+$/,
      min: 0,
      max: MAX_RETRIES,
      expected: `a whole number from 0 to ${MAX_RETRIES}`,
    }),
    failOnError: readBoolean(read, Inputs.FailOnError),
    dryRun: readBoolean(read, Inputs.DryRun),
  };
}

function readBaseUrl(read: InputReader, allowInsecureHttp: boolean): URL {
  const raw = read(Inputs.BaseUrl);
  const example = 'e.g. `https://tracker.example.com/api`';
  if (!raw) throw new ConfigError(Inputs.BaseUrl, `is empty. Set it to the service's address, ${example}.`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(Inputs.BaseUrl, `is not a URL: '${raw}'. Set it to the service's address, ${example}.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ConfigError(Inputs.BaseUrl, `must be an http(s) URL, got '${raw}'. Use ${example}.`);
  }
  if (url.username || url.password) {
    throw new ConfigError(Inputs.BaseUrl, 'must not carry credentials; the key goes in `api-key`.');
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname) && !allowInsecureHttp) {
    throw new ConfigError(
      Inputs.BaseUrl,
      `uses plain http to '${url.hostname}', which would send the API key in clear. Use https, or set \`${Inputs.AllowInsecureHttp}: true\` if the network path is trusted.`,
    );
  }
  url.search = '';
  url.hash = '';
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

export function readBoolean(read: InputReader, name: string): boolean {
  const raw = read(name);
  if (raw === '') return false;
  const value = raw.toLowerCase();
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new ConfigError(name, `must be \`true\` or \`false\`, got '${raw}'.`);
}

export function readNumber(
  read: InputReader,
  name: string,
  rule: { accepts: RegExp; min: number; max: number; expected: string },
): number {
  const raw = read(name);
  const value = rule.accepts.test(raw) ? Number(raw) : NaN;
  if (!(value >= rule.min && value <= rule.max)) {
    throw new ConfigError(name, `must be ${rule.expected}, got '${raw}'.`);
  }
  return value;
}

/** Splits a list input on newlines and commas, dropping blanks. */
export function splitList(raw: string): string[] {
  return raw
    .split(/[\n,]/)
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/**
 * A whole number goes out as a JSON number (what the service's own clients send); anything else,
 * including a number with leading zeros or one too large to be exact, as a string.
 */
export function artifactIdValue(raw: string): number | string {
  return /^(0|[1-9]\d*)$/.test(raw) && Number.isSafeInteger(Number(raw)) ? Number(raw) : raw;
}

export function readArtifacts(read: InputReader): ArtifactRef[] {
  const byId = splitList(read(Inputs.ArtifactId)).map((id) => ({ artifactId: artifactIdValue(id) }));
  const byName = splitList(read(Inputs.ArtifactName)).map((name) => ({ artifactName: name }));
  return [...byId, ...byName];
}

/**
 * The `status` input: '' for the main flow. Accepts the service's values in any case and the
 * values of `job.status`, so that `status: ${{ job.status }}` works.
 */
export function readRequestedStatus(read: InputReader): DeploymentStatus | undefined {
  const raw = read(Inputs.Status);
  if (raw === '') return undefined;
  const status = statusFromWord(raw);
  if (!status) {
    throw new ConfigError(
      Inputs.Status,
      `must be one of STARTED, SUCCEEDED, FAILED (or success, failure, cancelled), got '${raw}'. Leave it empty to start the deployment here and finish it when the job ends.`,
    );
  }
  return status;
}

export function statusFromWord(word: string): DeploymentStatus | undefined {
  switch (word.trim().toLowerCase()) {
    case 'started':
      return 'STARTED';
    case 'succeeded':
    case 'success':
      return 'SUCCEEDED';
    case 'failed':
    case 'failure':
    case 'cancelled':
      return 'FAILED';
    default:
      return undefined;
  }
}

export function readType(read: InputReader): typeof DeploymentType {
  const raw = read(Inputs.Type);
  if (raw === '' || raw.toUpperCase() === DeploymentType) return DeploymentType;
  throw new ConfigError(Inputs.Type, `must be ${DeploymentType} (the only type the service accepts), got '${raw}'.`);
}

/**
 * `deployment-id`: one id, a comma/newline list, or the JSON array that the `deployment-ids`
 * output of an earlier job holds.
 */
export function readDeploymentIds(read: InputReader): string[] {
  const raw = read(Inputs.DeploymentId);
  if (!raw.startsWith('[')) return splitList(raw);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError(Inputs.DeploymentId, `looks like a JSON array but is not one: '${raw}'.`);
  }
  const ids = Array.isArray(parsed) ? parsed : [];
  if (!ids.every((id) => (typeof id === 'string' && id.trim() !== '') || typeof id === 'number')) {
    throw new ConfigError(Inputs.DeploymentId, `must be an id, a list of ids or a JSON array of ids, got '${raw}'.`);
  }
  return ids.map((id) => String(id).trim());
}
