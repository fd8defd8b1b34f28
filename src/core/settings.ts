// Every setting read and validated once, before any request is sent, into typed values. A bad value
// is a ConfigError that names the setting as the face calls it (an input, a flag) and says how to
// fix it; every bad setting is named at once, the fields' defaults included.
import { DeploymentType, Limits, Settings, type DeploymentStatus, type SettingName } from './constants.js';
import { ConfigError, ProblemCollector } from './config-error.js';
import {
  FieldNames,
  FieldSettings,
  resolveFields,
  type ArtifactRef,
  type FieldDefaults,
  type FieldName,
  type ResolvedFields,
} from './deployment.js';
import { checkExtraCaCerts } from './extra-ca-certs.js';
import { idFromJson, idProblem, textId, type DeploymentId } from './ids.js';
import { parseJsonLosslessly } from './json.js';
import { isLoopback, proxyFor, withoutCredentials, type Env, type Proxy } from './proxy.js';
import { cleaner, holdsSecret } from './secret.js';
import { quote } from './text.js';
import type { Words } from './words.js';

/** A value in a configuration error: quoted, shortened, and first cleaned of the key as the log shows it. */
export type Quote = (value: string) => string;

/**
 * How values are quoted where `apiKey` is the key: cleaned (the key scrubbed in every form) before it
 * is shortened, so that a long key put by mistake into another setting shows no part of itself.
 */
export function quoterFor(apiKey: string): Quote {
  const clean = cleaner(apiKey);
  return (value) => quote(clean(value));
}

/** Where settings come from: the action's inputs, the CLI's flags and environment. */
export interface SettingSource {
  /** The setting as given; '' when it is not set. */
  get(name: SettingName): string;
  /**
   * What an empty key means here: a configuration error's text, or, where the key may be withheld
   * on purpose (a fork's pull request, an unprotected branch), a warning that nothing is recorded.
   */
  emptyKey(): { problem: string } | { warning: string };
  /**
   * What an empty `status` stands for here, where the place itself says how the deployment ended (a
   * run started by a deployment's change of state); undefined where it does not: start now, finish later.
   */
  impliedStatus?(): ImpliedStatus | undefined;
  /** The face's words, for every message about these settings and what they lead to. */
  words: Words;
}

/**
 * A status the place implies: its word and where it comes from ("the event's
 * `deployment_status.state`"), for the message if it is none this action can record; or nothing to
 * record, and the line that says why.
 */
export type ImpliedStatus = { word: string; from: string } | { nothing: string };

/** How to reach the service. */
export interface Connection {
  /** '' only where an empty key records nothing (Settings.noKey says why). */
  apiKey: string;
  /** Always ends with '/', so that `new URL('deployment', baseUrl)` keeps its path. */
  baseUrl: URL;
  timeoutMs: number;
  retries: number;
  /** The proxy that carries the requests; undefined for a direct connection. */
  proxy: Proxy | undefined;
}

/** What every step and command needs: how to reach the service, and how to treat a failure. */
export interface CommonSettings {
  connection: Connection;
  failOnError: boolean;
  dryRun: boolean;
  /** The key is empty where it may be withheld: why nothing is recorded (a warning). */
  noKey?: string;
  /** The words of the face these settings came from, for the messages of the requests they lead to. */
  words: Words;
}

/**
 * Nothing to record, and why: a status word that says so (a skipped step, a deployment that has not
 * ended), or the place's own words where it implies the status (a deployment that has no state yet).
 */
export type NothingToRecord =
  | {
      nothing: 'skipped' | 'not-final';
      /** The word as given, e.g. `queued`. */
      word: string;
    }
  | { nothing: 'not-yet'; why: string };

/** What `status` asks for. */
export type RequestedStatus = DeploymentStatus | NothingToRecord;

/** What to record: a status, the deployments to update or the artifacts to create, and their fields. */
export interface Request {
  /** undefined when empty: start now, finish later. */
  status: RequestedStatus | undefined;
  /** `deployment-id`; undefined when not set, [] for an empty list (an earlier job recorded none). */
  deploymentIds: DeploymentId[] | undefined;
  /** The artifacts to create deployments for; [] when `deployment-id` is set. */
  artifacts: ArtifactRef[];
  /** The deployment's fields; undefined where nothing is created. */
  fields: ResolvedFields | undefined;
}

/** The common settings alone (a post step, a `finish`): throws one ConfigError naming every problem. */
export function readSettings(source: SettingSource, env: Env): CommonSettings {
  const problems = new ProblemCollector();
  const settings = readCommon(source, env, problems, quoterFor(source.get(Settings.ApiKey)));
  problems.throwIfAny();
  return settings;
}

/** The common settings and what to record, the fields' defaults taken only where a deployment is created. */
export function readSettingsAndRequest(
  source: SettingSource,
  env: Env,
  defaults: () => FieldDefaults,
): { settings: CommonSettings; request: Request } {
  const { settings, request, problem } = inspectSettingsAndRequest(source, env, defaults);
  if (problem) throw problem;
  return { settings, request };
}

/**
 * The same reading, every problem returned beside what could be read (a refused setting as its
 * fallback): for a check that shows both, as the CLI's `context` does.
 */
export function inspectSettingsAndRequest(
  source: SettingSource,
  env: Env,
  defaults: () => FieldDefaults,
): { settings: CommonSettings; request: Request; problem: ConfigError | undefined } {
  const problems = new ProblemCollector();
  // The key first (as given, even if it is refused): every value quoted in an error is cleaned of it.
  const shown = quoterFor(source.get(Settings.ApiKey));
  const settings = readCommon(source, env, problems, shown);
  const request = readRequest(source, settings.connection.apiKey, defaults, problems, shown);
  return { settings, request, problem: problems.error() };
}

function readCommon(source: SettingSource, env: Env, problems: ProblemCollector, shown: Quote): CommonSettings {
  const keyOrWarning = problems.read(() => readApiKey(source), { apiKey: '' });
  const allowInsecureHttp = problems.read(() => readBoolean(source, Settings.AllowInsecureHttp, shown), false);
  const baseUrl = problems.read(() => readBaseUrl(source, allowInsecureHttp, shown), undefined);
  const proxy = baseUrl && problems.read(() => proxyFor(baseUrl, env, shown), undefined);
  const usesTls = baseUrl?.protocol === 'https:' || proxy?.url.protocol === 'https:';
  problems.read(() => checkExtraCaCerts(env, usesTls, shown), undefined);
  const timeoutSeconds = problems.read(
    () =>
      readNumber(
        source,
        Settings.TimeoutSeconds,
        /^\d+(\.\d+)?$/,
        0.001,
        Limits.timeoutSeconds,
        'a number of seconds above 0 and at most',
        shown,
      ),
    0,
  );
  const retries = problems.read(
    () => readNumber(source, Settings.Retries, /^\d+$/, 0, Limits.retries, 'a whole number from 0 to', shown),
    0,
  );
  const failOnError = problems.read(() => readBoolean(source, Settings.FailOnError, shown), false);
  const dryRun = problems.read(() => readBoolean(source, Settings.DryRun, shown), false);
  const { apiKey, noKey } = keyOrWarning;
  return {
    connection: {
      apiKey,
      baseUrl: baseUrl as URL,
      timeoutMs: timeoutSeconds * 1000,
      retries,
      proxy,
    },
    failOnError,
    dryRun,
    ...(noKey ? { noKey } : {}),
    words: source.words,
  };
}

function readRequest(
  source: SettingSource,
  apiKey: string,
  defaults: () => FieldDefaults,
  problems: ProblemCollector,
  shown: Quote,
): Request {
  const status = problems.read(() => readStatus(source, shown), undefined);
  const rawDeploymentIds = source.get(Settings.DeploymentId);
  const deploymentIds = problems.read(() => readDeploymentIds(source, rawDeploymentIds, apiKey, shown), undefined);
  const artifacts = rawDeploymentIds === '' ? problems.read(() => readArtifacts(source), []) : [];
  // The fields' defaults (the event file, git) are read only where a deployment is created.
  const creates = rawDeploymentIds === '' && !(status && typeof status === 'object');
  problems.read(() => readType(source, shown), DeploymentType);
  const given = Object.fromEntries(FieldNames.map((field) => [field, source.get(FieldSettings[field])])) as Record<
    FieldName,
    string
  >;
  const fields = creates ? resolveFields(given, defaults(), source.words, problems) : undefined;
  return { status, deploymentIds, artifacts, fields };
}

// What an HTTP header value may hold (RFC 9110 field-value: visible characters, obs-text, space, tab).
const HEADER_SAFE = /^[\t\x20-\x7e\x80-\xff]*$/;

function readApiKey(source: SettingSource): { apiKey: string; noKey?: string } {
  const apiKey = source.get(Settings.ApiKey);
  const subject = source.words.setting(Settings.ApiKey);
  if (!apiKey) {
    const empty = source.emptyKey();
    if ('problem' in empty) throw new ConfigError(subject, empty.problem);
    return { apiKey, noKey: empty.warning };
  }
  if (!HEADER_SAFE.test(apiKey)) {
    throw new ConfigError(
      subject,
      'holds a character no HTTP header can carry (a line break, another control character, or one outside Latin-1). Copy the key again from the service.',
    );
  }
  return { apiKey };
}

function readBaseUrl(source: SettingSource, allowInsecureHttp: boolean, quoted: Quote): URL {
  const raw = source.get(Settings.BaseUrl);
  const shown = quoted(withoutCredentials(raw));
  const example = 'e.g. `https://tracker.example.com/api`';
  const problem = (text: string) => new ConfigError(source.words.setting(Settings.BaseUrl), text);
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
  if (url.username || url.password) {
    throw problem(`must not carry credentials; the key goes in ${source.words.assignment(Settings.ApiKey)}.`);
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname) && !allowInsecureHttp) {
    throw problem(
      `uses plain http to '${url.hostname}', which would send the API key in clear. Use https, or set ${source.words.assignment(Settings.AllowInsecureHttp, 'true')} if the network path is trusted.`,
    );
  }
  url.search = '';
  url.hash = '';
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

export function readBoolean(
  source: Pick<SettingSource, 'get' | 'words'>,
  name: SettingName,
  shown: Quote = quote,
): boolean {
  const raw = source.get(name);
  const value = raw.toLowerCase();
  if (value === 'true') return true;
  if (value === 'false' || value === '') return false;
  throw new ConfigError(source.words.setting(name), `must be \`true\` or \`false\`, got ${shown(raw)}.`);
}

function readNumber(
  source: SettingSource,
  name: SettingName,
  accepts: RegExp,
  min: number,
  max: number,
  expected: string,
  shown: Quote,
): number {
  const raw = source.get(name);
  const value = accepts.test(raw) ? Number(raw) : NaN;
  if (!(value >= min && value <= max)) {
    throw new ConfigError(source.words.setting(name), `must be ${expected} ${max}, got ${shown(raw)}.`);
  }
  return value;
}

const NOT_FINAL = ['pending', 'queued', 'in_progress', 'inactive', 'waiting'];

/**
 * The words `status` takes: the service's statuses, and what `job.status`, a step's `outcome` and a
 * GitHub deployment's state hold (`skipped`: nothing was deployed; a state that has not ended:
 * nothing to record yet).
 */
const STATUS_WORDS: Record<string, DeploymentStatus | 'skipped' | 'not-final'> = {
  started: 'STARTED',
  succeeded: 'SUCCEEDED',
  failed: 'FAILED',
  success: 'SUCCEEDED',
  failure: 'FAILED',
  cancelled: 'FAILED',
  error: 'FAILED',
  skipped: 'skipped',
  ...Object.fromEntries(NOT_FINAL.map((word) => [word, 'not-final'])),
};

export function statusFromWord(word: string): RequestedStatus | undefined {
  const key = word.trim().toLowerCase();
  if (!Object.hasOwn(STATUS_WORDS, key)) return undefined;
  const meaning = STATUS_WORDS[key] as DeploymentStatus | 'skipped' | 'not-final';
  return meaning === 'skipped' || meaning === 'not-final' ? { nothing: meaning, word: key } : meaning;
}

/** A finished status (`job.status` success, failure, cancelled; an exit's outcome); undefined for any other word. */
export function finalStatus(word: string): DeploymentStatus | undefined {
  const status = statusFromWord(word);
  return status === 'SUCCEEDED' || status === 'FAILED' ? status : undefined;
}

function readStatus(source: SettingSource, shown: Quote): RequestedStatus | undefined {
  const raw = source.get(Settings.Status);
  if (raw === '') return readImpliedStatus(source, shown);
  const status = statusFromWord(raw);
  if (!status) {
    const implied = source.impliedStatus?.();
    const empty =
      implied === undefined
        ? ` ${source.words.statusHint}`
        : 'word' in implied
          ? ` Leave it empty to take it from ${implied.from}.`
          : '';
    throw new ConfigError(
      source.words.setting(Settings.Status),
      `must be one of STARTED, SUCCEEDED, FAILED (or success, failure, cancelled, skipped, or a GitHub deployment's state), got ${shown(raw)}.${empty}`,
    );
  }
  return status;
}

/**
 * The status the place implies where the setting is empty: only an end or nothing, as no later step
 * would finish a STARTED record made here.
 */
function readImpliedStatus(source: SettingSource, shown: Quote): RequestedStatus | undefined {
  const implied = source.impliedStatus?.();
  if (implied === undefined) return undefined;
  if ('nothing' in implied) return { nothing: 'not-yet', why: implied.nothing };
  const status = statusFromWord(implied.word);
  if (status === 'SUCCEEDED' || status === 'FAILED' || typeof status === 'object') return status;
  throw new ConfigError(
    source.words.setting(Settings.Status),
    `is empty, so the status comes from ${implied.from}: ${shown(implied.word)}, which is neither a finished state nor one that records nothing. Set ${source.words.assignment(Settings.Status)} to say what to record.`,
  );
}

function readType(source: SettingSource, shown: Quote): typeof DeploymentType {
  const raw = source.get(Settings.Type);
  if (raw === '' || raw.toUpperCase() === DeploymentType) return DeploymentType;
  throw new ConfigError(
    source.words.setting(Settings.Type),
    `must be ${DeploymentType} (the only type the service accepts), got ${shown(raw)}.`,
  );
}

/** Splits a list setting on newlines and commas, dropping blanks. */
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

function readArtifacts(source: SettingSource): ArtifactRef[] {
  const byId = splitList(source.get(Settings.ArtifactId)).map((id) => ({ artifactId: artifactIdValue(id) }));
  const byName = splitList(source.get(Settings.ArtifactName)).map((name) => ({ artifactName: name }));
  const artifacts = [...byId, ...byName];
  const subject = source.words.setting(Settings.ArtifactId, Settings.ArtifactName);
  const { unit } = source.words;
  if (artifacts.length === 0) {
    throw new ConfigError(
      subject,
      `must be set: name the deployed artifact by its id or its name in the tracking service (a comma- or newline-separated list for several), or set ${source.words.assignment(Settings.DeploymentId)} to update an existing deployment.`,
    );
  }
  if (artifacts.length > Limits.idsPerStep) {
    throw new ConfigError(
      subject,
      `name ${artifacts.length} artifacts; one ${unit} records at most ${Limits.idsPerStep}. Split them over several ${unit}s.`,
    );
  }
  return artifacts;
}

/**
 * `deployment-id`: one id, a comma/newline list, or the JSON array that the `deployment-ids`
 * output of an earlier job holds (numbers in it keep every digit).
 */
function readDeploymentIds(
  source: SettingSource,
  raw: string,
  apiKey: string,
  shown: Quote,
): DeploymentId[] | undefined {
  if (raw === '') return undefined;
  const problem = (text: string) => new ConfigError(source.words.setting(Settings.DeploymentId), text);
  const { unit } = source.words;
  const ids = raw.startsWith('[') ? parseIdArray(raw) : splitList(raw).map(textId);
  if (!ids) throw problem(`looks like a JSON array but is not one: ${shown(raw)}.`);
  if (ids.some((id) => id === undefined)) {
    throw problem(`must be an id, a list of ids or a JSON array of ids, got ${shown(raw)}.`);
  }
  if (ids.length > Limits.idsPerStep) {
    throw problem(
      `holds ${ids.length} ids; one ${unit} updates at most ${Limits.idsPerStep}. Split them over several ${unit}s.`,
    );
  }
  for (const id of ids as DeploymentId[]) {
    // Never sent in a URL, never stored, never shown: is it another secret than meant here?
    if (holdsSecret(id.text, apiKey)) throw problem('holds the API key as an id (are two secrets swapped?).');
    const why = idProblem(id.text);
    if (why) throw problem(`holds an id that ${why}: ${shown(id.text)}.`);
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
  // Each id as it is: one with white space at its ends is refused below, never trimmed.
  return parsed.map((value: unknown) => {
    const id = idFromJson(value);
    return id && id.text !== '' ? id : undefined;
  });
}
