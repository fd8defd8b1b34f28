// Azure Pipelines, from its predefined variables (learn.microsoft.com/azure/devops/pipelines/build/variables).
import type { CiProvider } from './provider.js';
import { after, CiVariables, isSet } from './variables.js';

const NAME = 'Azure Pipelines';

/** A URL part as given, with a lone surrogate (which encodeURIComponent throws on) replaced first. */
function encodePart(text: string): string {
  return encodeURIComponent(text.toWellFormed());
}

export const azurePipelines: CiProvider = {
  name: NAME,
  // TF_BUILD is the documented mark; env-ci reads BUILD_BUILDURI, so either one is Azure here too.
  detect: (env) => isSet(env, 'TF_BUILD') || isSet(env, 'BUILD_BUILDURI'),
  values(env) {
    const vars = new CiVariables(env, NAME);
    // refs/heads/main, refs/tags/v1, refs/pull/1/merge (a pull request).
    const sourceBranch = vars.get('BUILD_SOURCEBRANCH');
    // Azure Repos say refs/heads/feat; GitHub repositories only "feat".
    const pullRequestBranch = vars.get('SYSTEM_PULLREQUEST_SOURCEBRANCH');
    const collection = vars.get('SYSTEM_COLLECTIONURI');
    const project = vars.get('SYSTEM_TEAMPROJECT');
    const buildId = vars.get('BUILD_BUILDID');
    return {
      // On a pull request, its head rather than the merge commit BUILD_SOURCEVERSION names.
      commitSha: vars.first('SYSTEM_PULLREQUEST_SOURCECOMMITID', 'BUILD_SOURCEVERSION'),
      // Never BUILD_SOURCEBRANCHNAME: it is the last segment only (feature/tools gives "tools").
      branch:
        vars.sourced(after(pullRequestBranch, 'refs/heads/') || pullRequestBranch, 'SYSTEM_PULLREQUEST_SOURCEBRANCH') ??
        vars.sourced(after(sourceBranch, 'refs/heads/'), 'BUILD_SOURCEBRANCH'),
      version: vars.sourced(after(sourceBranch, 'refs/tags/'), 'BUILD_SOURCEBRANCH'),
      // The person who pushed or queued: for CI triggers the one who queued is a service account.
      user: vars.first('BUILD_REQUESTEDFOR', 'BUILD_REQUESTEDFOREMAIL'),
      // The collection URI ends with a slash (https://dev.azure.com/fabrikam/); a project's name
      // may hold spaces.
      link:
        collection && project && buildId
          ? vars.sourced(
              `${collection.endsWith('/') ? collection : `${collection}/`}${encodePart(project)}/_build/results?buildId=${encodePart(buildId)}`,
              'SYSTEM_COLLECTIONURI',
              'SYSTEM_TEAMPROJECT',
              'BUILD_BUILDID',
            )
          : undefined,
      description: vars.describe([
        ['pipeline', 'BUILD_DEFINITIONNAME'],
        ['run', 'BUILD_BUILDNUMBER'],
        ['job', 'SYSTEM_JOBDISPLAYNAME'],
      ]),
    };
  },
};
