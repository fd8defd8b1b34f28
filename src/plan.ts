// What the main step is asked to do, decided from the settings and the GitHub context alone (pure):
// create deployments, update given ones now, leave given ones for the post step, or nothing.
import { DefaultEnvironment, DeploymentType, Inputs, type DeploymentStatus } from './constants.js';
import { ProblemCollector } from './config-error.js';
import { contextDefaults, type GitHubContext } from './context.js';
import type { DeploymentId } from './ids.js';
import type { CreateBody, DeploymentFields } from './service.js';
import type { Settings } from './settings.js';

export type MainPlan =
  /** Create one deployment per artifact; `finishInPost` when no status was given. */
  | { kind: 'create'; status: DeploymentStatus; bodies: CreateBody[]; finishInPost: boolean }
  /** `deployment-id` with `status`: update them now. */
  | { kind: 'update'; status: DeploymentStatus; ids: DeploymentId[] }
  /** `deployment-id` without `status`: the post step finishes them from the job status. */
  | { kind: 'finish-in-post'; ids: DeploymentId[] }
  /** `status: skipped` (nothing was deployed), or `deployment-id` is an empty list. */
  | { kind: 'nothing'; reason: 'skipped' | 'no-ids' };

/** Whether the plan needs the GitHub context: only to create deployments. */
export function needsContext(settings: Settings): boolean {
  return settings.status !== 'SKIPPED' && settings.deploymentIds === undefined;
}

/** `context` is needed when needsContext says so. Throws a ConfigError for a field with no value. */
export function planMain(settings: Settings, context: GitHubContext | undefined): MainPlan {
  const { status, deploymentIds } = settings;
  if (status === 'SKIPPED') return { kind: 'nothing', reason: 'skipped' };
  if (deploymentIds?.length === 0) return { kind: 'nothing', reason: 'no-ids' };
  if (deploymentIds)
    return status ? { kind: 'update', status, ids: deploymentIds } : { kind: 'finish-in-post', ids: deploymentIds };
  if (!context) throw new Error('planMain: creating deployments needs the GitHub context');

  const fields = deploymentFields(settings, context);
  const sent = status ?? 'STARTED';
  return {
    kind: 'create',
    status: sent,
    bodies: settings.artifacts.map((artifact) => ({ ...artifact, ...fields, status: sent })),
    finishInPost: status === undefined,
  };
}

/** Each field from its input, else from the GitHub context. */
function deploymentFields(settings: Settings, context: GitHubContext): DeploymentFields {
  const given = settings.fields;
  const defaults = contextDefaults(context);
  const problems = new ProblemCollector();
  const required = (value: string, input: string, source: string) => {
    if (!value)
      problems.add({ input }, `is empty and ${source} gives no default (not on a GitHub runner?). Set \`${input}\`.`);
    return value;
  };
  const commitSha = required(given.commitSha || defaults.commitSha, Inputs.CommitSha, 'GITHUB_SHA');
  const fields: DeploymentFields = {
    version: given.version || defaults.tag || commitSha,
    environment: given.environment || DefaultEnvironment,
    commitSha,
    user: required(given.user || defaults.user, Inputs.User, 'GITHUB_ACTOR'),
    branch: required(given.branch || defaults.branch, Inputs.Branch, 'GITHUB_REF'),
    type: DeploymentType,
  };
  problems.throwIfAny();
  // Optional fields are left out rather than sent empty.
  const changelog = given.changelog || defaults.changelog;
  const description = given.description || defaults.description;
  const link = given.link || defaults.link;
  if (changelog) fields.changelog = changelog;
  if (description) fields.description = description;
  if (link) fields.link = link;
  return fields;
}
