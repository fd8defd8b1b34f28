// The command line: which command, its flags (the action's input names), and for `run` the command
// after `--`. Read by its grammar, as getopt reads one: a flag that takes a value takes the next
// argument whatever it looks like (`--description -h`, `--deployment-id -5`), but `--`, which always
// ends the flags; `--help` is help only where a flag may stand. Anything malformed is a UsageError
// that names the flag, before anything is sent or run.
import { Settings, type SettingName } from '../core/constants.js';
import { quote, shorten } from '../core/text.js';

const Commands = ['run', 'start', 'finish', 'record', 'context'] as const;
export type CommandName = (typeof Commands)[number];

/** A malformed command line: exit 2, nothing sent, nothing run. */
export class UsageError extends Error {
  readonly command: CommandName | undefined;
  /** One line that says where to look or what to do instead. */
  readonly hint: string;
  constructor(message: string, command?: CommandName, hint = helpHint(command)) {
    super(message);
    this.name = 'UsageError';
    this.command = command;
    this.hint = hint;
  }

  /** What is wrong and the hint, on one line: said as the CLI says every line. */
  get line(): string {
    return `${this.message} ${this.hint}`;
  }
}

function helpHint(command: CommandName | undefined): string {
  return `See \`report-deployment ${command ? `${command} ` : ''}--help\`.`;
}

/** Flags that take a value, and may be given more than once (lists). */
const LIST_FLAGS: readonly string[] = [Settings.ArtifactId, Settings.ArtifactName, Settings.DeploymentId];
/** Flags that are on when given. */
const SWITCHES: readonly string[] = [Settings.FailOnError, Settings.AllowInsecureHttp, Settings.DryRun, 'json'];

const CONNECTION: SettingName[] = [
  Settings.BaseUrl,
  Settings.TimeoutSeconds,
  Settings.Retries,
  Settings.FailOnError,
  Settings.AllowInsecureHttp,
  Settings.DryRun,
];
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

/**
 * The settings each command takes as flags, and the flags of its own. `context` takes start's, so
 * that a start's command line is checked as it stands (its help says which of them change nothing).
 */
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

const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h';

export function parseCommandLine(argv: readonly string[]): Invocation {
  const [first, ...rest] = argv;
  if (first === undefined || isHelp(first) || first === 'help') {
    if (first === 'help' && rest[0] !== undefined) return { help: commandNamed(rest[0]) };
    return { help: undefined };
  }
  if (first === '--version' || first === '-V') return { version: true };
  const command = commandNamed(first);
  const scanned = scan(command, rest);
  if (scanned.help) return { help: command };
  if (scanned.problem) throw scanned.problem;
  return build(command, scanned);
}

function commandNamed(word: string): CommandName {
  if ((Commands as readonly string[]).includes(word)) return word as CommandName;
  const hint = word.startsWith('-')
    ? ` (a command comes first: ${[...Commands, 'serve', 'deliveries'].join(', ')})`
    : '';
  throw new UsageError(`unknown command ${quote(word)}${hint}.`);
}

/** The command line read by the grammar: each flag's values in order, the command after `--`. */
interface Scanned {
  values: Map<string, string[]>;
  /** Everything after `--`; undefined where there is no `--`. */
  wrapped: string[] | undefined;
  /** `--help` or `-h` where a flag stands. */
  help: boolean;
  /** The first thing wrong, reported unless help was asked for. */
  problem: UsageError | undefined;
}

function scan(command: CommandName, args: readonly string[]): Scanned {
  const { settings, own } = COMMAND_FLAGS[command];
  const known = new Set<string>([...settings, ...own]);
  const scanned: Scanned = { values: new Map(), wrapped: undefined, help: false, problem: undefined };
  const fail = (problem: UsageError) => void (scanned.problem ??= problem);
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] as string;
    if (arg === '--') {
      scanned.wrapped = args.slice(index + 1);
      break;
    }
    if (isHelp(arg)) {
      scanned.help = true;
      continue;
    }
    if (!arg.startsWith('-') || arg === '-') {
      // `run`: everything from here on was surely meant as the command.
      fail(unexpectedArgument(command, args.slice(index)));
      if (command === 'run') break;
      continue;
    }
    // `--name` or `--name=value`; no flag of ours is a single letter.
    const [shown = '', ...after] = arg.split('=');
    const name = shown.slice(2);
    const inline = after.length ? after.join('=') : undefined;
    if (!shown.startsWith('--') || !known.has(name)) {
      fail(unknownFlag(command, shown));
      continue;
    }
    if (SWITCHES.includes(name)) {
      if (inline === undefined) scanned.values.set(name, ['true']);
      else fail(new UsageError(`${shown} takes no value: give it alone to turn it on.`, command));
      continue;
    }
    const next = args[index + 1];
    const value = inline ?? (next === '--' ? undefined : next);
    if (value === undefined) {
      fail(new UsageError(`${shown} needs a value${VALUE_HINTS[name] ?? ''}.`, command));
      continue;
    }
    if (inline === undefined) index += 1;
    scanned.values.set(name, [...(LIST_FLAGS.includes(name) ? (scanned.values.get(name) ?? []) : []), value]);
  }
  return scanned;
}

const VALUE_HINTS: Record<string, string> = {
  [Settings.Version]: " (the deployed version; `report-deployment --version` shows this tool's own)",
};

function unexpectedArgument(command: CommandName, rest: readonly string[]): UsageError {
  const arg = rest[0] as string;
  if (command !== 'run')
    return new UsageError(`unexpected argument ${quote(arg)} (${command} takes flags only).`, command);
  // A forgotten `--`: what follows is the command, whatever flags of its own it has.
  const meant = shorten(rest.join(' '), 100);
  return new UsageError(
    `unexpected argument ${quote(arg)}: the command to run goes after \`--\`.`,
    command,
    `Put \`--\` before it: \`report-deployment run [flags] -- ${meant}\`.`,
  );
}

function unknownFlag(command: CommandName, flag: string): UsageError {
  if (flag === `--${Settings.ApiKey}`) {
    // A command line shows in process lists, shell history and CI logs: the key never travels on one.
    return new UsageError(
      `${flag} is no flag: the key is read only from the environment, never from the command line.`,
      command,
      'Set DEPLOY_TRACKER_API_KEY (in a CI, from a secret variable).',
    );
  }
  return new UsageError(`unknown flag ${quote(flag)} for ${command}.`, command);
}

function build(command: CommandName, scanned: Scanned): ParsedArgs {
  const { wrapped = [] } = scanned;
  if (command === 'run' && wrapped.length === 0) {
    throw new UsageError(
      'no command to run: give it after `--`, e.g. `report-deployment run --artifact-id 42 -- ./deploy.sh`.',
      command,
    );
  }
  if (command !== 'run' && scanned.wrapped) {
    throw new UsageError(`${command} runs no command: nothing goes after \`--\`.`, command);
  }
  const settings: Partial<Record<SettingName, string>> = {};
  for (const name of COMMAND_FLAGS[command].settings) {
    const values = scanned.values.get(name);
    if (values) settings[name] = values.join('\n');
  }
  // `run` never stops its command for a flag a CI left empty: there it is a configuration error
  // (src/cli/settings.ts), said as one, and the command runs unrecorded.
  if (command !== 'run') refuseEmpty(command, settings);
  const exitCode = readExitCode(scanned.values.get('exit-code')?.[0], command);
  requireFlags(command, settings, exitCode);
  return { command, settings, json: scanned.values.has('json'), exitCode, wrapped };
}

/**
 * Flags that, given empty, can only be a variable that was not set (`--status "$STATUS"`): said
 * before anything is sent. The others given empty mean "not given": the fields' defaults (a CI's
 * variables, git) stand in, as they do for the action's empty inputs, and `--deployment-id ""` is
 * the hand-off of a start that recorded none.
 */
const NOT_EMPTY: Partial<Record<SettingName, string>> = {
  // An empty status would record STARTED (record) or nothing at all (finish), and exit 0.
  [Settings.Status]: 'give SUCCEEDED or FAILED (or success, failure, cancelled), or --exit-code N instead',
  // An empty environment would record the deployment to the service's default, Production.
  [Settings.Environment]: "name the environment as the service does, or leave the flag out for the service's default",
};

/** The first flag of NOT_EMPTY given empty, and what to say of it after its name; undefined if none. */
export function emptyFlag(settings: Partial<Record<SettingName, string>>): { flag: string; text: string } | undefined {
  for (const [name, fix] of Object.entries(NOT_EMPTY)) {
    if (settings[name as SettingName] === '') {
      return { flag: `--${name}`, text: `is empty (was the variable given to it unset?): ${fix}.` };
    }
  }
  return undefined;
}

function refuseEmpty(command: CommandName, settings: Partial<Record<SettingName, string>>): void {
  const empty = emptyFlag(settings);
  if (empty) throw new UsageError(`${empty.flag} ${empty.text}`, command);
}

/** The flags a command cannot do without. */
function requireFlags(command: CommandName, settings: Partial<Record<SettingName, string>>, exitCode?: number): void {
  if (command !== 'record' && command !== 'finish') return;
  if (command === 'finish' && settings[Settings.DeploymentId] === undefined) {
    throw new UsageError('finish needs --deployment-id: the id(s) `start` printed.', command);
  }
  const given = Number(settings[Settings.Status] !== undefined) + Number(exitCode !== undefined);
  if (given === 2) throw new UsageError(`${command} takes --status or --exit-code, not both.`, command);
  // A deployment recorded STARTED by record is one nothing would ever finish.
  if (command === 'record' && settings[Settings.Status]?.trim().toUpperCase() === 'STARTED') {
    throw new UsageError(
      'record records a finished deployment: give --status SUCCEEDED or FAILED, or use start (then finish) for one under way.',
      command,
    );
  }
  if (given === 0) {
    throw new UsageError(
      `${command} needs --status SUCCEEDED or FAILED (or success, failure, cancelled), or --exit-code N (e.g. \`--exit-code $?\`).`,
      command,
    );
  }
}

function readExitCode(text: string | undefined, command: CommandName): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,3}$/.test(text) || Number(text) > 255) {
    throw new UsageError(
      `--exit-code must be a process's exit code, 0 to 255 (e.g. \`--exit-code $?\`), got ${quote(text)}.`,
      command,
    );
  }
  return Number(text);
}
