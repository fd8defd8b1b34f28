// What to record, read with the common settings: a status, the deployments to update or the artifacts
// to create, and their fields (their defaults read only where a deployment is created). Every bad
// setting is named at once, before any request is sent.
import { DeploymentType, Limits, Settings } from './constants.js';
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
import { parseIdList, splitList } from './id-list.js';
import { idProblem, type DeploymentId } from './ids.js';
import type { Env } from './proxy.js';
import { holdsSecret } from './secret.js';
import { quoterFor, readCommon, type CommonSettings, type Quote, type SettingSource } from './settings.js';
import { statusFromWord, type RequestedStatus } from './status.js';

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
 * The status the run's event gives where the setting is empty: only an end or nothing, as no later
 * step would finish a STARTED record made here.
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
  const ids = parseIdList(raw);
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
