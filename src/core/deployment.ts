// What a deployment record is: its fields, declared once, and the body that creates one. Each field
// comes from its setting, else from the CI or run the report runs in (the face's defaults), else from a
// rule of its own (the version is the commit; the environment the service's default).
import { DefaultEnvironment, DeploymentType, Settings, type DeploymentStatus } from './constants.js';
import type { ProblemCollector } from './config-error.js';
import type { Words } from './words.js';

/** The deployment's descriptive fields, each with the setting that gives it. */
export const FieldSettings = {
  version: Settings.Version,
  environment: Settings.Environment,
  commitSha: Settings.CommitSha,
  user: Settings.User,
  branch: Settings.Branch,
  changelog: Settings.Changelog,
  description: Settings.Description,
  link: Settings.Link,
} as const;

export type FieldName = keyof typeof FieldSettings;
export const FieldNames = Object.keys(FieldSettings) as FieldName[];

/** The fields the service requires; the others are left out rather than sent empty. */
type RequiredField = 'version' | 'environment' | 'commitSha' | 'user' | 'branch';
/** The required fields without a rule of their own (the version is the commit, the environment the service's default). */
export type NeededField = Exclude<RequiredField, 'version' | 'environment'>;
type Fields = Record<RequiredField, string> & Partial<Record<Exclude<FieldName, RequiredField>, string>>;

/** How a body names its artifact: by id, or by name. */
export type ArtifactRef = { artifactId: number | string } | { artifactName: string };

/** The body of `POST /deployment`. */
export type CreateBody = ArtifactRef & Fields & { type: typeof DeploymentType; status: DeploymentStatus };

/** A value and where it came from ("--version", "GITHUB_SHA", "GitLab CI (CI_COMMIT_SHA)", "git"). */
export interface Sourced {
  value: string;
  source: string;
}

/** What the CI or run a report runs in says of the fields nobody set. */
export interface FieldDefaults {
  /** Each field's default where there is one; `version` only where it is not the commit (a tag build). */
  values: Partial<Record<FieldName, Sourced>>;
  /** For a required field without a value: what is wrong and how to fix it, after the setting's name. */
  missing(field: NeededField): string;
}

/** Every field's value and its source; undefined for an optional field nobody gives. */
export type ResolvedFields = Record<RequiredField, Sourced> & Partial<Record<FieldName, Sourced>>;

/**
 * Each field from its setting, else its default; `given` holds what the settings say ('' for unset).
 * A required field without a value is a problem named by its setting.
 */
export function resolveFields(
  given: Record<FieldName, string>,
  defaults: FieldDefaults,
  naming: Pick<Words, 'setting'>,
  problems: ProblemCollector,
): ResolvedFields {
  const pick = (field: FieldName): Sourced | undefined => {
    const setting = FieldSettings[field];
    if (given[field]) return { value: given[field], source: naming.setting(setting) };
    const fallback = defaults.values[field];
    return fallback?.value ? fallback : undefined;
  };
  const required = (field: NeededField): Sourced => {
    const value = pick(field);
    if (!value) problems.add(naming.setting(FieldSettings[field]), defaults.missing(field));
    return value ?? { value: '', source: '' };
  };
  const commitSha = required('commitSha');
  const resolved: ResolvedFields = {
    version: pick('version') ?? { value: commitSha.value, source: 'the commit' },
    environment: pick('environment') ?? { value: DefaultEnvironment, source: "the service's default environment" },
    commitSha,
    user: required('user'),
    branch: required('branch'),
  };
  for (const field of ['changelog', 'description', 'link'] as const) {
    const value = pick(field);
    if (value) resolved[field] = value;
  }
  return resolved;
}

/** The body that creates one deployment of `artifact`; optional fields nobody gives are left out. */
export function createBody(artifact: ArtifactRef, fields: ResolvedFields, status: DeploymentStatus): CreateBody {
  const optional: Partial<Fields> = {};
  for (const field of ['changelog', 'description', 'link'] as const) {
    const value = fields[field]?.value;
    if (value) optional[field] = value;
  }
  return {
    ...artifact,
    version: fields.version.value,
    environment: fields.environment.value,
    commitSha: fields.commitSha.value,
    user: fields.user.value,
    branch: fields.branch.value,
    type: DeploymentType,
    ...optional,
    status,
  };
}

/** "artifact 42" or "artifact 'shop-web'". */
export function artifactLabel(artifact: ArtifactRef): string {
  return 'artifactId' in artifact ? `artifact ${artifact.artifactId}` : `artifact '${artifact.artifactName}'`;
}
