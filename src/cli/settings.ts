// Reading a command's settings: its flags and environment, each command's status, and the CI's (or
// git's) defaults for the fields, read only where the command creates a deployment.
import { readCiContext, type CiContext } from '../ci/detect.js';
import { Settings, type SettingName } from '../core/constants.js';
import { FieldSettings, type FieldName } from '../core/deployment.js';
import type { Log } from '../core/log.js';
import { readSettingsAndRequest, type CommonSettings, type Request } from '../core/settings.js';
import type { ParsedArgs } from './args.js';
import { cliSettings } from './source.js';

type Env = Record<string, string | undefined>;

/** The flags as the core reads them, each command's status folded in. */
export function commandFlags(args: ParsedArgs): Partial<Record<SettingName, string>> {
  const flags = { ...args.settings };
  if (args.command === 'start') flags[Settings.Status] = 'STARTED';
  if (args.exitCode !== undefined) flags[Settings.Status] = args.exitCode === 0 ? 'SUCCEEDED' : 'FAILED';
  if (args.command === 'finish') {
    // Given but empty (`--deployment-id "$ID"` after a start that recorded none): the empty list.
    if (flags[Settings.DeploymentId] === '') flags[Settings.DeploymentId] = '[]';
  }
  return flags;
}

/** Whether the command creates deployments, so that it needs the fields' defaults. */
export function createsDeployments(args: ParsedArgs): boolean {
  return args.command !== 'finish' && args.settings[Settings.DeploymentId] === undefined;
}

/** The CI context where it is needed; undefined otherwise. Throws a ConfigError for bad settings. */
export async function readCommand(
  args: ParsedArgs,
  env: Env,
  log: Log,
): Promise<{ settings: CommonSettings; request: Request; ci: CiContext | undefined }> {
  const flags = commandFlags(args);
  // A default is read only for a field no flag gives (git is a spawn each).
  const wanted = (field: FieldName) => !flags[FieldSettings[field]];
  const ci = createsDeployments(args) ? await readCiContext(env, { cwd: process.cwd(), log, wanted }) : undefined;
  const { settings, request } = readSettingsAndRequest(cliSettings(flags, env), env, () => {
    if (!ci) throw new Error('readCommand: the CI context was not read');
    return ci.defaults;
  });
  return { settings, request, ci };
}
