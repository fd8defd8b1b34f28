// Bitbucket Pipelines, from its default variables
// (support.atlassian.com/bitbucket-cloud/docs/variables-and-secrets/).
import type { CiProvider } from './provider.js';
import { CiVariables, isSet } from './variables.js';

const NAME = 'Bitbucket Pipelines';

export const bitbucketPipelines: CiProvider = {
  name: NAME,
  detect: (env) => isSet(env, 'BITBUCKET_BUILD_NUMBER') || isSet(env, 'BITBUCKET_COMMIT'),
  values(env) {
    const vars = new CiVariables(env, NAME);
    const repository = vars.get('BITBUCKET_REPO_FULL_NAME');
    const build = vars.get('BITBUCKET_BUILD_NUMBER');
    return {
      commitSha: vars.first('BITBUCKET_COMMIT'),
      // Already the source branch in a pull request pipeline; unset on a tag build.
      branch: vars.first('BITBUCKET_BRANCH'),
      version: vars.first('BITBUCKET_TAG'),
      // Bitbucket names the user who triggered a step by UUID only ("{8f1e...}"); a name would take
      // a call to Bitbucket's API.
      user: vars.first('BITBUCKET_STEP_TRIGGERER_UUID'),
      // BITBUCKET_REPO_FULL_NAME is "workspace/repository", the path after bitbucket.org/.
      link:
        repository && build
          ? vars.sourced(
              `https://bitbucket.org/${repository}/pipelines/results/${build}`,
              'BITBUCKET_REPO_FULL_NAME',
              'BITBUCKET_BUILD_NUMBER',
            )
          : undefined,
      description: vars.describe([['build', 'BITBUCKET_BUILD_NUMBER']]),
    };
  },
};
