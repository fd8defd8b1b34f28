// Every input read and validated once, before any request is sent, into one typed Settings. A bad
// value is a ConfigError that names the input and says how to fix it; every bad input is named at
// once.
import { DeploymentType, Inputs, Limits, type DeploymentStatus } from './constants.js';
import { ConfigError, ProblemCollector } from './config-error.js';
import { idFromJson, idProblem, parseJsonLosslessly, textId, type DeploymentId } from './ids.js';
import { isLoopback, proxyFor, withoutCredentials, type Env, type Proxy } from './proxy.js';
import type { ArtifactRef } from './service.js';
import { holdsSecret } from './log.js';
import { quote } from './text.js';

/** Reads one input as the runner passed it; '' when it is not set. */
export type InputReader = (name: string) => string;

/** How to reach the service. */
export interface Connection {
  apiKey: string;
  /** Always ends with '/', so that `new URL('deployment', baseUrl)` keeps its path. */
  baseUrl: URL;
  timeoutMs: number;
  retries: number;
  /** The proxy that carries the requests; undefined for a direct connection. */
  proxy: Proxy | undefined;
}

/** What `status` asks for: a deployment status, or SKIPPED (a step's outcome: nothing was deployed). */
export type RequestedStatus = DeploymentStatus | 'SKIPPED';

/** The deployment's fields as the user set them; '' takes the default from the GitHub context. */
export interface FieldInputs {
  version: string;
  environment: string;
  commitSha: string;
  user: string;
  branch: string;
  changelog: string;
  description: string;
  link: string;
}

export interface Settings {
  connection: Connection;
  failOnError: boolean;
  dryRun: boolean;
  /** `status`; undefined when empty (the main flow). */
  status: RequestedStatus | undefined;
  /** `deployment-id`; undefined when not set, [] for an empty list (an earlier job recorded none). */
  deploymentIds: DeploymentId[] | undefined;
  /** The artifacts to create deployments for; [] when `deployment-id` is set. */
  artifacts: ArtifactRef[];
  fields: FieldInputs;
  /** `job.status` as the runner evaluated it for this step. */
  jobStatus: string;
  /** `job.check_run_id` as the runner evaluated it; '' where the runner has none. */
  checkRunId: string;
}

export function readSettings(read: InputReader, env: Env): Settings {
  const problems = new ProblemCollector();
  const apiKey = problems.read(() => readApiKey(read), '');
  const allowInsecureHttp = problems.read(() => readBoolean(read, Inputs.AllowInsecureHttp), false);
  const baseUrl = problems.read(() => readBaseUrl(read, allowInsecureHttp), undefined);
  const proxy = baseUrl && problems.read(() => proxyFor(baseUrl, env), undefined);
  const timeoutSeconds = problems.read(
    () =>
      readNumber(
        read,
        Inputs.TimeoutSeconds,
        /^\d+(\.\d+)?$/,
        0.001,
        Limits.timeoutSeconds,
        'a number of seconds above 0 and at most',
      ),
    0,
  );
  const retries = problems.read(
    () => readNumber(read, Inputs.Retries, /^\d+$/, 0, Limits.retries, 'a whole number from 0 to'),
    0,
  );
  const failOnError = problems.read(() => readBoolean(read, Inputs.FailOnError), false);
  const dryRun = problems.read(() => readBoolean(read, Inputs.DryRun), false);
  const status = problems.read(() => readStatus(read), undefined);
  const rawDeploymentIds = read(Inputs.DeploymentId);
  const deploymentIds = problems.read(() => readDeploymentIds(rawDeploymentIds, apiKey), undefined);
  const artifacts = rawDeploymentIds ? [] : problems.read(() => readArtifacts(read), []);
  problems.read(() => readType(read), DeploymentType);
  problems.throwIfAny();

  return {
    connection: { apiKey, baseUrl: baseUrl as URL, timeoutMs: timeoutSeconds * 1000, retries, proxy },
    failOnError,
    dryRun,
    status,
    deploymentIds,
    artifacts,
    fields: {
      version: read(Inputs.Version),
      environment: read(Inputs.Environment),
      commitSha: read(Inputs.CommitSha),
      user: read(Inputs.User),
      branch: read(Inputs.Branch),
      changelog: read(Inputs.Changelog),
      description: read(Inputs.Description),
      link: read(Inputs.Link),
    },
    jobStatus: read(Inputs.JobStatus),
    checkRunId: read(Inputs.JobCheckRunId),
  };
}

// What an HTTP header value may hold (RFC 9110 field-value: visible characters, obs-text, space, tab).
const HEADER_SAFE = /^[\t\x20-\x7e\x80-\xff]*$/;

function readApiKey(read: InputReader): string {
  const apiKey = read(Inputs.ApiKey);
  if (!apiKey) {
    throw new ConfigError(
      { input: Inputs.ApiKey },
      'is empty. Set it from a secret, e.g. `api-key: ${{ secrets.DEPLOY_TRACKER_API_KEY }}`, and check that the secret exists for this repository and environment.',
    );
  }
  if (!HEADER_SAFE.test(apiKey)) {
    throw new ConfigError(
      { input: Inputs.ApiKey },
      'holds a character no HTTP header can carry (a line break, another control character, or one outside Latin-1). Copy the key again from the service into the secret.',
    );
  }
  return apiKey;
}

function readBaseUrl(read: InputReader, allowInsecureHttp: boolean): URL {
  const raw = read(Inputs.BaseUrl);
  const shown = quote(withoutCredentials(raw));
  const example = 'e.g. `https://tracker.example.com/api`';
  const problem = (text: string) => new ConfigError({ input: Inputs.BaseUrl }, text);
  if (!raw) throw problem(`is empty. Set it to the service's address, ${example}.`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw problem(`is not a URL: ${shown}. Set it to the service's address, ${example}.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw problem(`must be an http(s) URL, got ${shown}. Use ${example}.`);
  }
  if (url.username || url.password) throw problem('must not carry credentials; the key goes in `api-key`.');
  if (url.protocol === 'http:' && !isLoopback(url.hostname) && !allowInsecureHttp) {
    throw problem(
      `uses plain http to '${url.hostname}', which would send the API key in clear. Use https, or set \`${Inputs.AllowInsecureHttp}: true\` if the network path is trusted.`,
    );
  }
  url.search = '';
  url.hash = '';
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

export function readBoolean(read: InputReader, name: string): boolean {
  const raw = read(name);
  const value = raw.toLowerCase();
  if (value === 'true') return true;
  if (value === 'false' || value === '') return false;
  throw new ConfigError({ input: name }, `must be \`true\` or \`false\`, got ${quote(raw)}.`);
}

function readNumber(
  read: InputReader,
  name: string,
  accepts: RegExp,
  min: number,
  max: number,
  expected: string,
): number {
  const raw = read(name);
  const value = accepts.test(raw) ? Number(raw) : NaN;
  if (!(value >= min && value <= max)) {
    throw new ConfigError({ input: name }, `must be ${expected} ${max}, got ${quote(raw)}.`);
  }
  return value;
}

/** The words `status` accepts: the service's statuses, and what `job.status` or a step's `outcome` holds. */
const STATUS_WORDS: Record<string, RequestedStatus> = {
  started: 'STARTED',
  succeeded: 'SUCCEEDED',
  failed: 'FAILED',
  success: 'SUCCEEDED',
  failure: 'FAILED',
  cancelled: 'FAILED',
  skipped: 'SKIPPED',
};

export function statusFromWord(word: string): RequestedStatus | undefined {
  return Object.hasOwn(STATUS_WORDS, word.trim().toLowerCase()) ? STATUS_WORDS[word.trim().toLowerCase()] : undefined;
}

/** `job.status` (success, failure, cancelled) as the deployment status it means; undefined when unknown. */
export function deploymentStatusOfJob(jobStatus: string): DeploymentStatus | undefined {
  const status = statusFromWord(jobStatus);
  return status === 'SUCCEEDED' || status === 'FAILED' ? status : undefined;
}

function readStatus(read: InputReader): RequestedStatus | undefined {
  const raw = read(Inputs.Status);
  if (raw === '') return undefined;
  const status = statusFromWord(raw);
  if (!status) {
    throw new ConfigError(
      { input: Inputs.Status },
      `must be one of STARTED, SUCCEEDED, FAILED (or success, failure, cancelled, skipped), got ${quote(raw)}. Leave it empty to start the deployment here and finish it when the job ends.`,
    );
  }
  return status;
}

function readType(read: InputReader): typeof DeploymentType {
  const raw = read(Inputs.Type);
  if (raw === '' || raw.toUpperCase() === DeploymentType) return DeploymentType;
  throw new ConfigError(
    { input: Inputs.Type },
    `must be ${DeploymentType} (the only type the service accepts), got ${quote(raw)}.`,
  );
}

/** Splits a list input on newlines and commas, dropping blanks. */
export function splitList(raw: string): string[] {
  return raw
    .split(/[\r\n,]/)
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

function readArtifacts(read: InputReader): ArtifactRef[] {
  const byId = splitList(read(Inputs.ArtifactId)).map((id) => ({ artifactId: artifactIdValue(id) }));
  const byName = splitList(read(Inputs.ArtifactName)).map((name) => ({ artifactName: name }));
  const artifacts = [...byId, ...byName];
  const subject = { inputs: [Inputs.ArtifactId, Inputs.ArtifactName] };
  if (artifacts.length === 0) {
    throw new ConfigError(
      subject,
      'must be set: name the deployed artifact by its id or its name in the tracking service (a comma- or newline-separated list for several), or set `deployment-id` to update an existing deployment.',
    );
  }
  if (artifacts.length > Limits.idsPerStep) {
    throw new ConfigError(
      subject,
      `name ${artifacts.length} artifacts; one step records at most ${Limits.idsPerStep}. Split them over several steps.`,
    );
  }
  return artifacts;
}

/**
 * `deployment-id`: one id, a comma/newline list, or the JSON array that the `deployment-ids`
 * output of an earlier job holds (numbers in it keep every digit).
 */
function readDeploymentIds(raw: string, apiKey: string): DeploymentId[] | undefined {
  if (raw === '') return undefined;
  const problem = (text: string) => new ConfigError({ input: Inputs.DeploymentId }, text);
  const ids = raw.startsWith('[') ? parseIdArray(raw) : splitList(raw).map(textId);
  if (!ids) throw problem(`looks like a JSON array but is not one: ${quote(raw)}.`);
  if (ids.some((id) => id === undefined)) {
    throw problem(`must be an id, a list of ids or a JSON array of ids, got ${quote(raw)}.`);
  }
  if (ids.length > Limits.idsPerStep) {
    throw problem(
      `holds ${ids.length} ids; one step updates at most ${Limits.idsPerStep}. Split them over several steps.`,
    );
  }
  for (const id of ids as DeploymentId[]) {
    // Never sent in a URL, never stored, never shown: is it another secret than meant here?
    if (holdsSecret(id.text, apiKey)) throw problem('holds the API key as an id (are two secrets swapped?).');
    const why = idProblem(id.text);
    if (why) throw problem(`holds an id that ${why}: ${quote(id.text)}.`);
  }
  return ids as DeploymentId[];
}

/** The ids of a JSON array (undefined entries for what is no id); undefined when it is no JSON array. */
function parseIdArray(raw: string): (DeploymentId | undefined)[] | undefined {
  let parsed: unknown;
  try {
    parsed = parseJsonLosslessly(raw);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed)) return undefined;
  return parsed.map((value: unknown) => {
    const id = idFromJson(typeof value === 'string' ? value.trim() : value);
    return id && id.text !== '' ? id : undefined;
  });
}
