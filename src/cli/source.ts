// The CLI's settings: its flags, the service's address from --base-url or DEPLOY_TRACKER_URL, and the
// key only from DEPLOY_TRACKER_API_KEY (never a flag: argv shows in process lists and shell
// history). What an empty key means here: a warning, since a protected CI variable is withheld from
// unprotected branches, and a deployment must never wait on its report. And the CLI's words for the
// core's messages (core/words.ts).
import { SettingDefaults, Settings, type SettingName } from '../core/constants.js';
import type { SettingSource } from '../core/settings.js';
import type { Words } from '../core/words.js';

const ENV_URL = 'DEPLOY_TRACKER_URL';
export const ENV_KEY = 'DEPLOY_TRACKER_API_KEY';

type Env = Record<string, string | undefined>;

export function cliSettings(flags: Partial<Record<SettingName, string>>, env: Env): SettingSource {
  const urlFromEnv = flags[Settings.BaseUrl] === undefined;
  // Messages name the service's address by where it came from: the flag, or the variable.
  const words = !urlFromEnv ? cliWords(`--${Settings.BaseUrl}`) : env[ENV_URL] ? cliWords(ENV_URL) : CLI_WORDS;
  return {
    get(name) {
      if (name === Settings.ApiKey) return env[ENV_KEY] ?? '';
      if (name === Settings.BaseUrl && urlFromEnv) return env[ENV_URL] ?? '';
      return flags[name] ?? SettingDefaults[name] ?? '';
    },
    words,
    emptyKey: () => ({
      warning: `${ENV_KEY} is not set, so nothing is recorded. Set it to the key from the service's settings page (in a CI, from a secret variable; a protected variable is withheld from unprotected branches).`,
    }),
  };
}

/** The CLI's words; `serviceAddress`: the flag or variable that gave the service's address, where one did. */
export function cliWords(serviceAddress = `--${Settings.BaseUrl} (or ${ENV_URL})`): Words {
  const name = (setting: SettingName) => {
    if (setting === Settings.ApiKey) return ENV_KEY;
    return setting === Settings.BaseUrl ? serviceAddress : `--${setting}`;
  };
  return {
    setting: (...names) => names.map(name).join(' or '),
    assignment: (setting, value) => {
      if (setting === Settings.ApiKey) return ENV_KEY;
      return value === undefined || value === 'true' ? `\`--${setting}\`` : `\`--${setting} ${value}\``;
    },
    serviceAddress,
    tool: 'report-deployment',
    unit: 'command',
    statusHint: 'Or give --exit-code N, e.g. `--exit-code $?`.',
    starter: 'report-deployment',
    finisher: 'report-deployment',
    finishFrom: "the command's exit status",
    finishWhen: 'when it ends',
    notFinalYet:
      'Record it once it has ended, with `--status` success, failure or error (a STARTED record now would stay unfinished beside that one).',
  };
}

/** The CLI's words where nothing says yet where the service's address comes from. */
export const CLI_WORDS = cliWords();

/** `run`'s: a dry run prints the requests, and the command runs all the same. */
export const RUN_WORDS: Words = { ...CLI_WORDS, dryRunGoesOn: 'the command runs all the same' };
