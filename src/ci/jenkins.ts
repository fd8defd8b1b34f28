// Jenkins, from its own variables (${JENKINS_URL}/env-vars.html), the git plugin's, and those of the
// plugins that build pull requests (GitHub PR builder, GitLab) or name the user (Build User Vars).
import type { CiProvider } from './provider.js';
import { CiVariables, isSet } from './variables.js';

const NAME = 'Jenkins';

/**
 * The git plugin's GIT_BRANCH names the remote ("origin/main"): the branch is what follows a leading
 * `origin/` or `refs/remotes/<remote>/`. Anchored, so that `feat/origin/x` stays as it is; another
 * remote's short form ("upstream/main") cannot be told from a branch named so, and is kept.
 */
export function withoutRemote(branch: string): string {
  return branch.replace(/^(?:origin\/|refs\/remotes\/[^/]+\/)/, '');
}

export const jenkins: CiProvider = {
  name: NAME,
  // Last of the seven (see detect.ts): JENKINS_URL is also what Jenkins' own clients read, so a
  // build elsewhere that talks to Jenkins may have it.
  detect: (env) => isSet(env, 'JENKINS_URL'),
  values(env) {
    const vars = new CiVariables(env, NAME);
    const tag = vars.get('TAG_NAME');
    return {
      // ghprbActualCommit is the pull request's head; GIT_COMMIT then the merge commit built.
      commitSha: vars.first('ghprbActualCommit', 'GIT_COMMIT'),
      branch:
        vars.first('CHANGE_BRANCH', 'ghprbSourceBranch', 'gitlabSourceBranch', 'GIT_LOCAL_BRANCH') ??
        vars.sourced(withoutRemote(vars.get('GIT_BRANCH')), 'GIT_BRANCH') ??
        // A multibranch job's BRANCH_NAME is "PR-24" on a pull request and the tag on a tag build.
        (vars.get('CHANGE_ID') || tag ? undefined : vars.first('BRANCH_NAME')),
      version: vars.sourced(tag, 'TAG_NAME'),
      // Core Jenkins names no user; the Build User Vars plugin does, and a multibranch pull
      // request its author.
      user: vars.first('BUILD_USER_ID', 'BUILD_USER', 'CHANGE_AUTHOR'),
      link: vars.first('BUILD_URL'),
      description: vars.describe([
        ['job', 'JOB_NAME'],
        ['build', 'BUILD_NUMBER'],
      ]),
    };
  },
  userHint: "Jenkins names the user who started a build with the Build User Vars plugin's BUILD_USER_ID",
};
