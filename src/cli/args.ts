// The command line: which command, its flags (the action's input names), and for `run` the command
// after `--`. Anything malformed is a UsageError that names the flag, before anything is sent or run.
import { parseArgs } from 'node:util';
import { Settings, type SettingName } from '../core/constants.js';

export const Commands = ['run', 'start', 'finish', 'record', 'context'] as const;
export type CommandName = (typeof Commands)[number];

/** A malformed command line: exit 2, nothing sent, nothing run. */
export class UsageError extends Error {
  readonly command: CommandName | undefined;
  constructor(message: string, command?: CommandName) {
    super(message);
    this.name = 'UsageError';
    this.command = command;
  }
}

/** Flags that take a value, and may be given more than once (lists). */
const LIST_FLAGS = [Settings.ArtifactId, Settings.ArtifactName, Settings.DeploymentId] as const;
/** Flags that are on when given. */
const SWITCHES = [Settings.FailOnError, Settings.AllowInsecureHttp, Settings.DryRun] as const;

const CONNECTION: SettingName[] = [Settings.BaseUrl, Settings.TimeoutSeconds, Settings.Retries, ...SWITCHES];
const FIELDS: SettingName[] = [
  Settings.ArtifactId,
  Settings.ArtifactName,
  Settings.Environment,
  Settings.Version,
  Settings.CommitSha,
  Settings.User,
  Settings.Branch,
  Settings.Changelog,
  Settings.Description,
  Settings.Link,
  Settings.Type,
];

/** The settings each command takes as flags, and the flags of its own. */
export const COMMAND_FLAGS: Record<CommandName, { settings: SettingName[]; own: string[] }> = {
  run: { settings: [...CONNECTION, ...FIELDS, Settings.DeploymentId], own: [] },
  start: { settings: [...CONNECTION, ...FIELDS], own: ['json'] },
  record: { settings: [...CONNECTION, ...FIELDS, Settings.Status], own: ['json', 'exit-code'] },
  finish: { settings: [...CONNECTION, Settings.DeploymentId, Settings.Status], own: ['exit-code'] },
  context: { settings: [...CONNECTION, ...FIELDS], own: ['json'] },
};

export interface ParsedArgs {
  command: CommandName;
  /** Each setting given, as text ('true' for a switch; a list flag's values one a line). */
  settings: Partial<Record<SettingName, string>>;
  json: boolean;
  /** `finish --exit-code N`. */
  exitCode: number | undefined;
  /** `run`: the command and its arguments, after `--`. */
  wrapped: string[];
}

export type Invocation = ParsedArgs | { help: CommandName | undefined } | { version: true };

export function parseCommandLine(argv: readonly string[]): Invocation {
  const [first, ...rest] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    if (first === 'help' && rest[0] !== undefined) return { help: commandNamed(rest[0]) };
    return { help: undefined };
  }
  if (first === '--version' || first === '-V') return { version: true };
  const command = commandNamed(first);
  if (rest.includes('--help') || rest.includes('-h')) {
    // Only before `--`: after it, they belong to the wrapped command.
    const end = rest.indexOf('--');
    const help = rest.findIndex((arg) => arg === '--help' || arg === '-h');
    if (end < 0 || help < end) return { help: command };
  }
  return parseCommand(command, rest);
}

function commandNamed(word: string): CommandName {
  if ((Commands as readonly string[]).includes(word)) return word as CommandName;
  const hint = word.startsWith('-') ? ` (a command comes first: ${Commands.join(', ')})` : '';
  throw new UsageError(`unknown command '${word}'${hint}.`);
}

function parseCommand(command: CommandName, args: string[]): ParsedArgs {
  const { settings: taken, own } = COMMAND_FLAGS[command];
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = {};
  for (const name of taken) {
    const list = (LIST_FLAGS as readonly string[]).includes(name);
    options[name] = (SWITCHES as readonly string[]).includes(name)
      ? { type: 'boolean' }
      : { type: 'string', ...(list ? { multiple: true } : {}) };
  }
  for (const name of own) options[name] = name === 'json' ? { type: 'boolean' } : { type: 'string' };

  let parsed: ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true; tokens: true }>>;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true, tokens: true });
  } catch (error) {
    throw new UsageError(describeParseError(error, command), command);
  }
  const terminator = parsed.tokens.find((token) => token.kind === 'option-terminator');
  const before = parsed.tokens.flatMap((token) =>
    token.kind === 'positional' && (!terminator || token.index < terminator.index) ? [token.value] : [],
  );
  if (before[0] !== undefined) {
    throw new UsageError(
      command === 'run'
        ? `unexpected argument '${before[0]}': put the command to run after \`--\`, e.g. \`report-deployment run --artifact-id 42 -- ./deploy.sh\`.`
        : `unexpected argument '${before[0]}' (${command} takes flags only).`,
      command,
    );
  }
  const wrapped = terminator ? args.slice(terminator.index + 1) : [];
  if (command === 'run' && wrapped.length === 0) {
    throw new UsageError(
      'no command to run: give it after `--`, e.g. `report-deployment run --artifact-id 42 -- ./deploy.sh`.',
      command,
    );
  }
  if (command !== 'run' && terminator)
    throw new UsageError(`${command} runs no command: nothing goes after \`--\`.`, command);

  const settings: Partial<Record<SettingName, string>> = {};
  for (const name of taken) {
    const value = parsed.values[name];
    if (value === undefined) continue;
    settings[name] = value === true ? 'true' : Array.isArray(value) ? value.join('\n') : String(value);
  }
  const exitCode = readExitCode(parsed.values['exit-code'], command);
  requireFlags(command, settings, exitCode);
  return { command, settings, json: parsed.values.json === true, exitCode, wrapped };
}

/** The flags a command cannot do without. */
function requireFlags(command: CommandName, settings: Partial<Record<SettingName, string>>, exitCode?: number): void {
  if (command !== 'record' && command !== 'finish') return;
  if (command === 'finish' && settings[Settings.DeploymentId] === undefined) {
    throw new UsageError('finish needs --deployment-id: the id(s) `start` printed.', command);
  }
  const given = Number(settings[Settings.Status] !== undefined) + Number(exitCode !== undefined);
  if (given === 2) throw new UsageError(`${command} takes --status or --exit-code, not both.`, command);
  if (given === 0) {
    throw new UsageError(
      `${command} needs --status SUCCEEDED or FAILED (or success, failure, cancelled), or --exit-code N (e.g. \`--exit-code $?\`).`,
      command,
    );
  }
}

function readExitCode(value: unknown, command: CommandName): number | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value;
  if (!/^\d{1,3}$/.test(text) || Number(text) > 255) {
    throw new UsageError(
      `--exit-code must be a process's exit code, 0 to 255 (e.g. \`--exit-code $?\`), got '${text}'.`,
      command,
    );
  }
  return Number(text);
}

/** node:util's parse errors, said for this command and its flags. */
function describeParseError(error: unknown, command: CommandName): string {
  const { code, message } = error as { code?: string; message?: string };
  const flag = /'(-{1,2}[^' <]+)/.exec(message ?? '')?.[1] ?? '';
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown flag '${flag}' for ${command}. See \`report-deployment ${command} --help\`.`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return /does not take an argument/.test(message ?? '')
        ? `${flag} takes no value: give it alone to turn it on.`
        : `${flag} needs a value${flag === '--version' ? " (the deployed version; `report-deployment --version` shows this tool's own)" : ''}.`;
    default:
      return message ?? String(error);
  }
}
