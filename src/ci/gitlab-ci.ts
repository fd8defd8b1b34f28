// GitLab CI, from its predefined variables (docs.gitlab.com/ci/variables/predefined_variables).
import type { CiProvider } from './provider.js';
import { CiVariables, isSet } from './variables.js';

const NAME = 'GitLab CI';

export const gitlabCi: CiProvider = {
  name: NAME,
  detect: (env) => isSet(env, 'GITLAB_CI'),
  values(env) {
    const vars = new CiVariables(env, NAME);
    return {
      // A merged-results pipeline builds a merge commit; the source branch's head is what the
      // action reports for a pull request too. Set only in those pipelines.
      commitSha: vars.first('CI_MERGE_REQUEST_SOURCE_BRANCH_SHA', 'CI_COMMIT_SHA'),
      // Not CI_COMMIT_REF_NAME: on a tag pipeline it holds the tag. CI_COMMIT_BRANCH is unset in
      // merge request and tag pipelines.
      branch: vars.first(
        'CI_MERGE_REQUEST_SOURCE_BRANCH_NAME',
        'CI_EXTERNAL_PULL_REQUEST_SOURCE_BRANCH_NAME',
        'CI_COMMIT_BRANCH',
      ),
      version: vars.first('CI_COMMIT_TAG'),
      // Who started the pipeline or, for a manual job (a deploy button), who started the job.
      user: vars.first('GITLAB_USER_LOGIN', 'GITLAB_USER_NAME', 'GITLAB_USER_EMAIL'),
      link: vars.first('CI_JOB_URL', 'CI_PIPELINE_URL'),
      description: vars.describe([
        ['pipeline', 'CI_PIPELINE_ID'],
        ['job', 'CI_JOB_NAME'],
      ]),
    };
  },
};
