// What the main step is asked to do, decided from the inputs alone: create deployments, update
// given ones now, or leave given ones for the post step.
import { DefaultEnvironment, Inputs, type DeploymentStatus } from './constants.js';
import { contextDefaults, type GitHubContext } from './context.js';
import {
  ConfigError,
  readArtifacts,
  readDeploymentIds,
  readRequestedStatus,
  readType,
  type ArtifactRef,
  type InputReader,
} from './inputs.js';

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

export type Plan =
  /** Create one deployment per artifact; `finishInPost` when no status was given. */
  | { kind: 'create'; status: DeploymentStatus; bodies: CreateBody[]; finishInPost: boolean }
  /** `deployment-id` with `status`: update them now. */
  | { kind: 'update'; status: DeploymentStatus; ids: string[] }
  /** `deployment-id` without `status`: the post step finishes them from the job status. */
  | { kind: 'finish-in-post'; ids: string[] };

/** `loadContext` is called only when deployments are created: only then are the defaults needed. */
export async function planMain(read: InputReader, loadContext: () => Promise<GitHubContext>): Promise<Plan> {
  const status = readRequestedStatus(read);
  const ids = readDeploymentIds(read);
  if (ids.length > 0) return status ? { kind: 'update', status, ids } : { kind: 'finish-in-post', ids };

  const artifacts = readArtifacts(read);
  if (artifacts.length === 0) {
    throw new ConfigError(
      `${Inputs.ArtifactId}' or '${Inputs.ArtifactName}`,
      'must be set: name the deployed artifact by its id or its name in the tracking service (a comma- or newline-separated list for several), or set `deployment-id` to update an existing deployment.',
    );
  }
  const fields = readFields(read, await loadContext());
  const sent = status ?? 'STARTED';
  return {
    kind: 'create',
    status: sent,
    bodies: artifacts.map((artifact) => ({ ...artifact, ...fields, status: sent })),
    finishInPost: status === undefined,
  };
}

/** Each field from its input, else from the GitHub context. */
export function readFields(read: InputReader, ctx: GitHubContext): DeploymentFields {
  const defaults = contextDefaults(ctx);
  const commitSha = required(read, Inputs.CommitSha, defaults.commitSha, 'GITHUB_SHA');
  const fields: DeploymentFields = {
    version: read(Inputs.Version) || defaults.tag || commitSha,
    environment: read(Inputs.Environment) || DefaultEnvironment,
    commitSha,
    user: required(read, Inputs.User, defaults.user, 'GITHUB_ACTOR'),
    branch: required(read, Inputs.Branch, defaults.branch, 'GITHUB_REF'),
    type: readType(read),
  };
  // Optional fields are left out rather than sent empty.
  const changelog = read(Inputs.Changelog) || defaults.changelog;
  const description = read(Inputs.Description) || defaults.description;
  const link = read(Inputs.Link) || defaults.link;
  if (changelog) fields.changelog = changelog;
  if (description) fields.description = description;
  if (link) fields.link = link;
  return fields;
}

function required(read: InputReader, input: string, fallback: string, source: string): string {
  const value = read(input) || fallback;
  if (!value) {
    throw new ConfigError(
      input,
      `is empty and ${source} gives no default (not on a GitHub runner?). Set \`${input}\`.`,
    );
  }
  return value;
}
