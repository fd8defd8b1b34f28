// Reading a command's settings: its flags and environment, each command's status, and the CI's (or
// git's) defaults for the fields, read only where the command creates a deployment, and never past
// the command's deadline.
import { readCiContext, type CiContext } from '../ci/detect.js';
import { ConfigError } from '../core/config-error.js';
import { Limits, SettingDefaults, Settings, type SettingName } from '../core/constants.js';
import { FieldNames, FieldSettings, type FieldName } from '../core/deployment.js';
import type { Log } from '../core/log.js';
import { inspectSettingsAndRequest, type Request } from '../core/request.js';
import type { CommonSettings } from '../core/settings.js';
import { emptyFlag, type ParsedArgs } from './args.js';
import { cliSettings } from './source.js';

type Env = Record<string, string | undefined>;

/** The flags as the core reads them, each command's status folded in. */
export function commandFlags(args: ParsedArgs): Partial<Record<SettingName, string>> {
  const flags = { ...args.settings };
  // `context` shows what `start` would send.
  if (args.command === 'start' || args.command === 'context') flags[Settings.Status] = 'STARTED';
  if (args.exitCode !== undefined) flags[Settings.Status] = args.exitCode === 0 ? 'SUCCEEDED' : 'FAILED';
  // Given but empty (`--deployment-id "$ID"` after a start that recorded none): the empty list.
  if (flags[Settings.DeploymentId] === '') flags[Settings.DeploymentId] = '[]';
  return flags;
}

/** Whether the command creates deployments, so that it needs the fields' defaults. */
export function createsDeployments(args: ParsedArgs): boolean {
  return args.command !== 'finish' && args.settings[Settings.DeploymentId] === undefined;
}

/** One attempt's timeout, as --timeout-seconds gives it (its default where the flag is no number in bounds). */
export function attemptTimeoutMs(args: ParsedArgs): number {
  const seconds = Number(args.settings[Settings.TimeoutSeconds]);
  const valid = seconds > 0 && seconds <= Limits.timeoutSeconds;
  return (valid ? seconds : Number(SettingDefaults[Settings.TimeoutSeconds])) * 1000;
}

interface ReadOptions {
  /**
   * The deadline of the reading (git above all): once aborted, what is not known yet stays unknown.
   * Default: one attempt's timeout from now, the start deadline of `run`.
   */
  signal?: AbortSignal;
}

interface CommandReading {
  settings: CommonSettings;
  request: Request;
  /** The CI context where it is needed; undefined otherwise. */
  ci: CiContext | undefined;
}

/** The command's settings and request; throws a ConfigError naming every bad setting. */
export async function readCommand(
  args: ParsedArgs,
  env: Env,
  log: Log,
  options?: ReadOptions,
): Promise<CommandReading> {
  // Refused by the grammar for every other command (a usage error); `run` runs its command unrecorded.
  const empty = emptyFlag(args.settings);
  if (empty) throw new ConfigError(empty.flag, empty.text);
  const { problem, ...reading } = await inspectCommand(args, env, log, options);
  if (problem) throw problem;
  return reading;
}

/** The same reading, its problems returned beside what could be read (for `context`). */
export async function inspectCommand(
  args: ParsedArgs,
  env: Env,
  log: Log,
  { signal = AbortSignal.timeout(attemptTimeoutMs(args)) }: ReadOptions = {},
): Promise<CommandReading & { problem: ConfigError | undefined }> {
  const flags = commandFlags(args);
  // A default is read only for a field no flag gives (git is a spawn each).
  const given = Object.fromEntries(FieldNames.map((field) => [field, flags[FieldSettings[field]] ?? ''])) as Record<
    FieldName,
    string
  >;
  const ci = createsDeployments(args)
    ? await readCiContext(env, { cwd: workingDirectory(), log, given, signal })
    : undefined;
  const reading = inspectSettingsAndRequest(cliSettings(flags, env), env, () => {
    if (!ci) throw new Error('readCommand: the CI context was not read');
    return ci.defaults;
  });
  return { ...reading, ci };
}

/** The working directory; undefined where it is gone (a step before deleted it): what is given still counts. */
function workingDirectory(): string | undefined {
  try {
    return process.cwd();
  } catch {
    return undefined;
  }
}
