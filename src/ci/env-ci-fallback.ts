// The CIs the CLI does not read itself, through env-ci: only where none of the seven was detected,
// and imported then, so that they never load it (with execa, about 17 ms). Only its commit, branch,
// tag and link are taken, and what it gets wrong is left out: a value built from a missing variable
// ("undefined/pipelines/undefined"), a tag given as the branch. Nothing it does is let throw.
import type { Sourced } from '../core/deployment.js';
import type { Log } from '../core/log.js';
import { teamCityBranch } from './env-ci-teamcity-branch.js';
import type { CiValues, Env } from './variables.js';

export interface OtherCi {
  /** env-ci's name for it ("Travis CI"); UNKNOWN_CI where only CI says that this is one. */
  name: string;
  values: CiValues;
}

export const UNKNOWN_CI = 'an unknown CI';

/**
 * env-ci runs git itself (through execa, with no time limit) where a CI's variables give no commit
 * or branch, and outside any CI. A working directory Node refuses before it spawns anything makes
 * every such call fail at once: git.ts fills those fields, bounded, afterwards.
 */
const NO_GIT_HERE = '\0';

/** The CI env-ci detects, or that CI (set, and not "false") says this is; undefined outside any CI. */
export async function otherCi(env: Env, log: Pick<Log, 'debug'>, signal?: AbortSignal): Promise<OtherCi | undefined> {
  const ci = env.CI ?? '';
  // env-ci itself takes CI=false for a CI.
  const saysCi = ci !== '' && ci.toLowerCase() !== 'false';
  // Loaded only where some CI may be (CI set, or the two env-ci knows that do not set it): a
  // developer's terminal never pays for it.
  if (!saysCi && !MARKS_WITHOUT_CI.some((name) => env[name])) return undefined;
  const found = await detectWithEnvCi(env, log, signal);
  if (found) return found;
  return saysCi ? { name: UNKNOWN_CI, values: {} } : undefined;
}

/** The CIs env-ci detects that set no CI variable: TeamCity and Bamboo. */
const MARKS_WITHOUT_CI = ['TEAMCITY_VERSION', 'bamboo_agentId'];

async function detectWithEnvCi(env: Env, log: Pick<Log, 'debug'>, signal?: AbortSignal): Promise<OtherCi | undefined> {
  try {
    const { default: envCi } = await import('env-ci');
    const result = envCi({ env: withoutFilesToRead(env), cwd: NO_GIT_HERE });
    // Without a service, env-ci detected none of its CIs (its isCi then only repeats CI).
    if (!usable(result.service)) return undefined;
    const name = usable(result.name) ? result.name : result.service;
    const from = (value: unknown): Sourced | undefined =>
      usable(value) ? { value, source: `${name} (through env-ci)` } : undefined;
    const tag = from(result.tag);
    // For a pull request, `branch` is its target: only prBranch is the branch built. TeamCity's is
    // in its properties files, which are read here, with a bound.
    const branch =
      result.service === 'teamcity'
        ? sourcedBranch(await teamCityBranch(env, log, { signal }), `${name} (teamcity.build.branch)`)
        : from(result.isPr === true ? result.prBranch : result.branch);
    return {
      name,
      values: {
        commitSha: from(result.commit),
        // A tag given as the branch (`refs/tags/v1`) is no branch; one given by name becomes the
        // branch through the tag anyway (detect.ts), with the same source.
        branch: branch && !branch.value.startsWith('refs/tags/') ? branch : undefined,
        version: tag,
        link: from(result.jobUrl) ?? from(result.buildUrl),
      },
    };
  } catch (error) {
    log.debug(
      `env-ci failed (so no CI beyond the seven is detected): ${error instanceof Error ? error.message : String(error)}`,
    );
    return undefined;
  }
}

function sourcedBranch(value: string, source: string): Sourced | undefined {
  return value ? { value, source } : undefined;
}

/** A string that is a value: not empty, and not built by env-ci from a variable that was missing. */
function usable(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && !value.includes('undefined');
}

/**
 * The environment without the one variable that makes env-ci read a file here: it reads TeamCity's
 * properties files whole and synchronously, and a pipe or a device would make it wait for an end
 * that may never come (env-ci-teamcity-branch.ts reads them instead, with a bound). The only other file env-ci
 * reads is GitHub's event file, for a GITHUB_ACTIONS that GitHub Actions' own reading (one of the
 * seven, detected by the same variable) always takes first. Its git calls fail at once (NO_GIT_HERE).
 */
function withoutFilesToRead(env: Env): Env {
  const rest = { ...env };
  delete rest.TEAMCITY_BUILD_PROPERTIES_FILE;
  return rest;
}
