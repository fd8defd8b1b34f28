// The CLI's settings: its flags, the service's address from --base-url or DEPLOY_TRACKER_URL, and the
// key only from DEPLOY_TRACKER_API_KEY (never a flag: argv shows in process lists and shell
// history). How a message names each, and what an empty key means here (a warning: a protected CI
// variable is withheld from unprotected branches, and a deployment must never wait on its report).
import { SettingDefaults, Settings, type SettingName } from '../core/constants.js';
import type { Wording } from '../core/outcome.js';
import type { FaceWords, SettingSource } from '../core/settings.js';

export const ENV_URL = 'DEPLOY_TRACKER_URL';
export const ENV_KEY = 'DEPLOY_TRACKER_API_KEY';

type Env = Record<string, string | undefined>;

export function cliSettings(flags: Partial<Record<SettingName, string>>, env: Env): SettingSource {
  const urlFromEnv = flags[Settings.BaseUrl] === undefined;
  const label = (name: SettingName) => {
    if (name === Settings.ApiKey) return ENV_KEY;
    if (name !== Settings.BaseUrl || !urlFromEnv) return `--${name}`;
    return env[ENV_URL] ? ENV_URL : `--${name} (or ${ENV_URL})`;
  };
  return {
    get(name) {
      if (name === Settings.ApiKey) return env[ENV_KEY] ?? '';
      if (name === Settings.BaseUrl && urlFromEnv) return env[ENV_URL] ?? '';
      return flags[name] ?? SettingDefaults[name] ?? '';
    },
    setting: (...names) => names.map(label).join(' or '),
    assignment: (name, value) => CLI_WORDING.assignment(name, value),
    words: CLI_WORDS,
    emptyKey: () => ({
      warning: `${ENV_KEY} is not set, so nothing is recorded. Set it to the key from the service's settings page (in a CI, from a secret variable; a protected variable is withheld from unprotected branches).`,
    }),
  };
}

/** How the CLI speaks of itself where the core words a message. */
export const CLI_WORDS: FaceWords = {
  tool: 'report-deployment',
  unit: 'command',
  statusHint: 'Or give --exit-code N, e.g. `--exit-code $?`.',
};

/** How the CLI words what it does later. */
export const CLI_WORDING: Wording = {
  setting: (...names) => names.map((name) => (name === Settings.ApiKey ? ENV_KEY : `--${name}`)).join(' or '),
  assignment: (name, value) => {
    if (name === Settings.ApiKey) return ENV_KEY;
    return value === undefined || value === 'true' ? `\`--${name}\`` : `\`--${name} ${value}\``;
  },
  starter: 'report-deployment',
  finisher: 'report-deployment',
  finishFrom: "the command's exit status",
  finishWhen: 'when it ends',
  notFinalYet:
    'Record it once it has ended, with `--status` success, failure or error (a STARTED record now would stay unfinished beside that one).',
};

/** `run`'s: a dry run prints the requests, and the command runs all the same. */
export const RUN_WORDING: Wording = { ...CLI_WORDING, dryRunGoesOn: 'the command runs all the same' };
