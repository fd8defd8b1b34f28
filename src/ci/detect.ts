// Where the CLI runs, and what that place says of a deployment nobody described in full: default
// values for its fields, each with its source. The seven CIs are read by our own tables (no
// dependency loads for them), any other CI through env-ci, and outside any CI, git and the OS user.
import type { FieldDefaults, FieldName, Sourced } from '../core/deployment.js';
import type { Log } from '../core/log.js';
import { azurePipelines } from './azure-pipelines.js';
import { bitbucketPipelines } from './bitbucket-pipelines.js';
import { buildkite } from './buildkite.js';
import { circleci } from './circleci.js';
import { otherCi, type OtherCi } from './env-ci-fallback.js';
import { configuredUserName, currentBranch, headCommit, type GitOptions } from './git.js';
import { githubActions } from './github-actions.js';
import { gitlabCi } from './gitlab-ci.js';
import { jenkins } from './jenkins.js';
import { osUser } from './os-user.js';
import type { CiProvider } from './provider.js';
import type { CiValues, Env } from './variables.js';

export interface CiContext {
  /** The CI's name ("GitLab CI"); undefined outside any CI. */
  name: string | undefined;
  defaults: FieldDefaults;
}

export interface CiContextOptions {
  /** Where git runs. */
  cwd: string;
  log: Pick<Log, 'warning' | 'debug'>;
  /** The fields a default is wanted for (those no flag gives): git is asked only for these. Default: all. */
  wanted?: (field: FieldName) => boolean;
}

type Values = FieldDefaults['values'];
type RequiredField = Parameters<FieldDefaults['missing']>[0];

/** The first that detects itself wins; Jenkins last, since its mark is also set where builds talk to Jenkins. */
export const PROVIDERS: readonly CiProvider[] = [
  githubActions,
  gitlabCi,
  circleci,
  buildkite,
  azurePipelines,
  bitbucketPipelines,
  jenkins,
];

export async function readCiContext(
  env: Record<string, string | undefined>,
  options: CiContextOptions,
): Promise<CiContext> {
  const strings = onlyStrings(env);
  const git: GitOptions = { cwd: options.cwd, env: strings, log: options.log };
  const wanted = options.wanted ?? (() => true);
  const ask = async (field: FieldName, question: () => Promise<string>) => (wanted(field) ? question() : '');
  const provider = PROVIDERS.find((candidate) => candidate.detect(strings));
  const ci: (OtherCi & Pick<CiProvider, 'userHint'>) | undefined = provider
    ? { name: provider.name, values: provider.values(strings, options.log), userHint: provider.userHint }
    : await otherCi(strings, options.log);
  if (!ci)
    return { name: undefined, defaults: { values: await outsideCi(strings, git, ask), missing: missingOutsideCi } };

  const values: CiValues = present(ci.values);
  // git fills only what the CI's variables leave empty (Jenkins without GIT_COMMIT, Buildkite's
  // "HEAD"). Not the user: in a CI, the git or OS user is the agent's account, not who deployed.
  // The service requires a branch: a tag build on no branch its variables name is reported on the
  // tag's name, as the action does. Before git: CIs check a tag out on a detached HEAD, so asking
  // git would cost every tag deployment a spawn for nothing.
  values.branch ??= values.version;
  values.commitSha ??= fromGit(await ask('commitSha', () => headCommit(git)));
  values.branch ??= fromGit(await ask('branch', () => currentBranch(git)));
  return { name: ci.name, defaults: { values: present(values), missing: missingInCi(ci.name, ci.userHint) } };
}

/** Outside any CI (a developer's machine, or a CI that neither env-ci nor CI marks): git, then the OS user. */
async function outsideCi(
  env: Env,
  git: GitOptions,
  ask: (field: FieldName, question: () => Promise<string>) => Promise<string>,
): Promise<Values> {
  const values: Values = present({
    commitSha: fromGit(await ask('commitSha', () => headCommit(git))),
    branch: fromGit(await ask('branch', () => currentBranch(git))),
  });
  const userName = await ask('user', () => configuredUserName(git));
  const user = userName ? { value: userName, source: 'git (user.name)' } : osUser(env);
  if (user) values.user = user;
  return values;
}

function fromGit(value: string): Sourced | undefined {
  return value ? { value, source: 'git' } : undefined;
}

/** Only the fields with a value; every value a string. */
function present(values: CiValues): Values {
  const kept: Values = {};
  for (const [field, value] of Object.entries(values) as [FieldName, Sourced | undefined][]) {
    if (typeof value?.value === 'string' && value.value !== '') kept[field] = value;
  }
  return kept;
}

/** Only variables that hold a string: whatever a caller passes, every value read is one. */
function onlyStrings(env: Record<string, unknown>): Env {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

const WHAT: Record<RequiredField, string> = {
  commitSha: 'a commit',
  branch: 'a branch',
  user: 'a user',
  // Never missing (the commit and the service's default stand in): here for the type's sake.
  version: 'a version',
  environment: 'an environment',
};
const FLAG: Record<RequiredField, string> = {
  commitSha: '--commit-sha',
  branch: '--branch',
  user: '--user',
  version: '--version',
  environment: '--environment',
};

function missingOutsideCi(field: RequiredField): string {
  if (field === 'user')
    return `is not set, and neither git (user.name) nor the OS names a user here. Set \`${FLAG.user}\`.`;
  return `is not set, and no CI variable or git repository here gives ${WHAT[field]}. Set \`${FLAG[field]}\`.`;
}

function missingInCi(name: string, userHint: string | undefined): (field: RequiredField) => string {
  return (field) => {
    if (field !== 'user') return missingOutsideCi(field);
    // The git or OS user of a CI's agent is no one who deployed: it is not taken.
    const why = userHint ?? "a CI agent's git or OS user is not taken for one";
    return `is not set, and the variables of ${name} name no user (${why}). Set \`${FLAG.user}\`.`;
  };
}
