// Where the CLI runs, and what that place says of a deployment nobody described in full: default
// values for its fields, each with its source. The seven CIs are read by our own tables (no
// dependency loads for them), any other CI through env-ci, and outside any CI, git and the OS user.
import type { FieldDefaults, FieldName, Sourced } from '../core/deployment.js';
import type { Log } from '../core/log.js';
import { isBlank } from '../core/text.js';
import { azurePipelines } from './azure-pipelines.js';
import { bitbucketPipelines } from './bitbucket-pipelines.js';
import { buildkite } from './buildkite.js';
import { circleci } from './circleci.js';
import { otherCi, UNKNOWN_CI, type OtherCi } from './env-ci-fallback.js';
import { commitAuthor, configuredUserName, currentBranch, headCommit, type GitAnswer, type GitOptions } from './git.js';
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
  /** Where git runs; undefined where the working directory is gone (deleted): git is not asked. */
  cwd: string | undefined;
  log: Pick<Log, 'warning' | 'debug'>;
  /**
   * What the flags give for each field ('' or left out: nothing): git is asked only for the others,
   * and the commit's author is that of the commit given.
   */
  given?: Partial<Record<FieldName, string>>;
  /** The deadline: once aborted, git is killed, and what it has not said stays unsaid. */
  signal?: AbortSignal;
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

/** What git was asked for a field, and why it said nothing where it refused. */
interface FromGit {
  value?: Sourced;
  refusal?: string;
}

export async function readCiContext(
  env: Record<string, string | undefined>,
  options: CiContextOptions,
): Promise<CiContext> {
  const strings = onlyStrings(env);
  const { cwd } = options;
  const git: GitOptions = { cwd: cwd ?? '', env: strings, log: options.log, signal: options.signal };
  const given = options.given ?? {};
  const ask = async (field: FieldName, question: () => Promise<GitAnswer>): Promise<FromGit> => {
    if (given[field]) return {};
    const { output, refusal } = cwd === undefined ? { output: '', refusal: CWD_GONE } : await question();
    return { value: isBlank(output) ? undefined : { value: output, source: 'git' }, refusal };
  };
  const provider = PROVIDERS.find((candidate) => candidate.detect(strings));
  const ci: (OtherCi & Pick<CiProvider, 'userHint'>) | undefined = provider
    ? { name: provider.name, values: provider.values(strings, options.log), userHint: provider.userHint }
    : await otherCi(strings, options.log, options.signal);
  if (!ci) {
    // Outside any CI (a developer's machine, or a CI that neither env-ci nor CI marks): git, then the OS user.
    const [commitSha, branch, userName] = await Promise.all([
      ask('commitSha', () => headCommit(git)),
      ask('branch', () => currentBranch(git)),
      ask('user', () => configuredUserName(git)),
    ]);
    const values = present({ commitSha: commitSha.value, branch: branch.value });
    const user = userName.value ? { value: userName.value.value, source: 'git (user.name)' } : osUser(strings);
    if (user) values.user = user;
    return { name: undefined, defaults: { values, missing: missing({ commitSha, branch }) } };
  }

  const values: CiValues = present(ci.values);
  // git fills only what the CI's variables leave empty (Jenkins without GIT_COMMIT, Buildkite's
  // "HEAD"). The service requires a branch: a tag build on no branch its variables name is reported
  // on the tag's name, as the action does. Before git: CIs check a tag out on a detached HEAD, so
  // asking git would cost every tag deployment a spawn for nothing.
  values.branch ??= values.version;
  const none = Promise.resolve<FromGit>({});
  const [commitSha, branch] = await Promise.all([
    values.commitSha ? none : ask('commitSha', () => headCommit(git)),
    values.branch ? none : ask('branch', () => currentBranch(git)),
  ]);
  values.commitSha ??= commitSha.value;
  values.branch ??= branch.value;
  // Not the git or OS user: in a CI, that is the agent's account, not who deployed.
  if (!values.user && !given.user) {
    const sha = given.commitSha || values.commitSha?.value || '';
    values.user = (cwd === undefined ? undefined : await authorOf(sha, git)) ?? ciAsUser(ci.name, ci.userHint);
  }
  return { name: ci.name, defaults: { values: present(values), missing: missing({ commitSha, branch }) } };
}

const CWD_GONE = 'the working directory no longer exists: it was deleted, or moved';

/** The author of the commit deployed, as git records it, where the CI names no one. */
async function authorOf(sha: string, git: GitOptions): Promise<Sourced | undefined> {
  const { output } = await commitAuthor(sha, git);
  return isBlank(output) ? undefined : { value: output, source: `git (author of ${sha})` };
}

/** The CI itself, where neither its variables nor git name a user: a deployment is never unrecorded for want of one. */
function ciAsUser(name: string, hint: string | undefined): Sourced {
  const value = name === UNKNOWN_CI ? 'CI' : name;
  return { value, source: `the CI's name (neither its variables nor git name a user${hint ? `; ${hint}` : ''})` };
}

/** Only the fields with a value; every value a string. */
function present(values: CiValues): Values {
  const kept: Values = {};
  for (const [field, value] of Object.entries(values) as [FieldName, Sourced | undefined][]) {
    // A value of white space alone (GITHUB_ACTOR='\n', U+3000) is none: the next source stands in.
    if (typeof value?.value === 'string' && !isBlank(value.value)) kept[field] = value;
  }
  return kept;
}

/** Only variables that hold a string: whatever a caller passes, every value read is one. */
function onlyStrings(env: Record<string, unknown>): Env {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

/** What git gives of a field, and the flag that sets it. The others are never missing: the CI or the
 * OS stands in for the user, the commit for the version, the service's default for the environment. */
const FROM_GIT = { commitSha: ['a commit', '--commit-sha'], branch: ['a branch', '--branch'] } as const;

/** What a missing field's message says after its name: why nothing gave it (git's refusal too), and the flag that does. */
function missing(asked: Record<keyof typeof FROM_GIT, FromGit>): (field: RequiredField) => string {
  return (field) => {
    if (field !== 'commitSha' && field !== 'branch')
      return 'is not set, and neither git (user.name) nor the OS names a user here. Set `--user`.';
    const [what, flag] = FROM_GIT[field];
    const { refusal } = asked[field];
    const why = refusal ? ` (${refusal})` : '';
    return `is not set, and no CI variable or git repository here gives ${what}${why}. Set \`${flag}\`.`;
  };
}
