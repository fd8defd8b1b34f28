// The action's settings are its inputs: how they are read, how a message names them, what an empty
// `api-key` means on GitHub (a run GitHub gives no secrets records nothing; elsewhere an empty key is
// a configuration error, so that a typo in a secret's name is loud), and what an empty `status` means
// in a run a deployment's event started (the state the event carries).
import * as core from '@actions/core';
import type { SettingName } from '../core/constants.js';
import type { SettingSource } from '../core/settings.js';
import { deploymentEventStatus, isDeploymentEvent, type GitHubContext } from '../ci/github.js';
import { secretsWithheld } from '../ci/github-secrets.js';
import type { Internal } from './names.js';
import { ACTION_WORDS } from './words.js';

/** One input as the runner passed it (its ends trimmed, as @actions/core reads them); '' when not set. */
export const readInput = (name: SettingName | (typeof Internal)[keyof typeof Internal]): string => core.getInput(name);

/**
 * The inputs as settings; `run` gives the workflow run, read only where an empty key needs it, or an
 * empty status in a run a deployment's event started.
 */
export function inputSettings(run: () => GitHubContext): SettingSource {
  return {
    get: readInput,
    words: ACTION_WORDS,
    emptyKey() {
      const why = secretsWithheld(run());
      if (why) return { warning: `Input 'api-key' is empty: ${why}, so nothing is recorded and the job goes on.` };
      return {
        problem:
          'is empty. Set it from a secret, e.g. `api-key: ${{ secrets.DEPLOY_TRACKER_API_KEY }}`, and check that the secret exists for this repository and environment.',
      };
    },
    impliedStatus() {
      // Known from GITHUB_EVENT_NAME alone: any other run reads no event file for it.
      if (!isDeploymentEvent(process.env.GITHUB_EVENT_NAME ?? '')) return undefined;
      return deploymentEventStatus(run(), ACTION_WORDS);
    },
  };
}
