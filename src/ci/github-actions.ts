// GitHub Actions for a process that is not the action (the CLI in a `run:` step): the same defaults
// as the action's (github.ts), from the GITHUB_* variables and the event file. No
// `job.check_run_id` outside an action's inputs, so the link is the run attempt's page.
import type { Sourced } from '../core/deployment.js';
import { readEventFile } from './event-file.js';
import { githubDefaults } from './github.js';
import type { CiProvider } from './provider.js';
import { isSet } from './variables.js';

const NAME = 'GitHub Actions';

/**
 * github.ts names a variable alone ("GITHUB_SHA"); here, as every CI's are: "GitHub Actions
 * (GITHUB_SHA)". Every variable it reads is a GITHUB_ one; its other sources are words ("the
 * workflow run"). Empty values stay: detect.ts keeps only the fields with a value, of every CI.
 */
function named({ value, source }: Sourced): Sourced {
  return { value, source: source.startsWith('GITHUB_') ? `${NAME} (${source})` : source };
}

export const githubActions: CiProvider = {
  name: NAME,
  detect: (env) => isSet(env, 'GITHUB_ACTIONS'),
  values(env, log) {
    const { values } = githubDefaults({
      eventName: env.GITHUB_EVENT_NAME ?? '',
      payload: readEventFile(env.GITHUB_EVENT_PATH, log),
      env,
    });
    return Object.fromEntries(Object.entries(values).map(([field, value]) => [field, value && named(value)]));
  },
};
