// CircleCI, from its built-in variables (circleci.com/docs/reference/variables).
import type { CiProvider } from './provider.js';
import { CiVariables, isSet } from './variables.js';

const NAME = 'CircleCI';

export const circleci: CiProvider = {
  name: NAME,
  detect: (env) => isSet(env, 'CIRCLECI'),
  values(env) {
    const vars = new CiVariables(env, NAME);
    return {
      commitSha: vars.first('CIRCLE_SHA1'),
      // A pull request's own branch; unset on a tag build.
      branch: vars.first('CIRCLE_BRANCH'),
      version: vars.first('CIRCLE_TAG'),
      // Set only when the user who triggered the pipeline has a CircleCI account.
      user: vars.first('CIRCLE_USERNAME'),
      // The job's page.
      link: vars.first('CIRCLE_BUILD_URL'),
      description: vars.describe([
        ['job', 'CIRCLE_JOB'],
        ['build', 'CIRCLE_BUILD_NUM'],
      ]),
    };
  },
};
