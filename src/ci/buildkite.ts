// Buildkite, from its agent's variables (buildkite.com/docs/pipelines/configure/environment-variables).
import type { CiProvider } from './provider.js';
import { CiVariables, isSet } from './variables.js';

const NAME = 'Buildkite';

/** A full SHA-1 or SHA-256 object name. */
const FULL_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i;

export const buildkite: CiProvider = {
  name: NAME,
  detect: (env) => isSet(env, 'BUILDKITE'),
  values(env) {
    const vars = new CiVariables(env, NAME);
    const commit = vars.get('BUILDKITE_COMMIT');
    const tag = vars.get('BUILDKITE_TAG');
    const branch = vars.get('BUILDKITE_BRANCH');
    const buildUrl = vars.get('BUILDKITE_BUILD_URL');
    const jobId = vars.get('BUILDKITE_JOB_ID');
    return {
      // A build created by hand may say "HEAD": git then gives the commit the agent checked out.
      commitSha: FULL_SHA.test(commit) ? vars.sourced(commit, 'BUILDKITE_COMMIT') : undefined,
      // A pull request's own branch; on a tag build it holds the tag, which is no branch.
      branch: branch === tag ? undefined : vars.sourced(branch, 'BUILDKITE_BRANCH'),
      version: vars.sourced(tag, 'BUILDKITE_TAG'),
      // Who created the build in the dashboard or through the API; from a webhook, the unverified
      // head commit's author.
      user: vars.first('BUILDKITE_BUILD_CREATOR', 'BUILDKITE_BUILD_CREATOR_EMAIL', 'BUILDKITE_BUILD_AUTHOR'),
      // The build's page, opened at this job.
      link:
        buildUrl && jobId
          ? vars.sourced(`${buildUrl}#${jobId}`, 'BUILDKITE_BUILD_URL', 'BUILDKITE_JOB_ID')
          : vars.sourced(buildUrl, 'BUILDKITE_BUILD_URL'),
      description: vars.describe([
        ['pipeline', 'BUILDKITE_PIPELINE_SLUG'],
        ['build', 'BUILDKITE_BUILD_NUMBER'],
        ['step', 'BUILDKITE_LABEL'],
      ]),
    };
  },
};
