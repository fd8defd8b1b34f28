// How the GitHub runner reads a step's output: which lines it runs as workflow commands. Ported
// from actions/runner (src/Runner.Common/ActionCommand.cs: TryParseV2, TryParse;
// src/Runner.Worker/ActionCommandManager.cs: registered commands, ::stop-commands::), so tests can
// check that the runner would run exactly the commands the action means to send.

export interface RunnerCommand {
  /** Lower case, e.g. `warning`. */
  command: string;
  properties: Record<string, string>;
  /** Unescaped, as the runner hands it to the command. */
  data: string;
}

// Every command the runner registers (case-insensitive), but the plugin-only internal one.
const REGISTERED = [
  'set-env',
  'set-output',
  'save-state',
  'add-mask',
  'add-path',
  'add-matcher',
  'remove-matcher',
  'debug',
  'warning',
  'error',
  'notice',
  'group',
  'endgroup',
  'echo',
  'stop-commands',
];

/** The commands the runner would run for this output (stdout or stderr), in order. */
export function runnerCommands(output: string): RunnerCommand[] {
  return readRunnerOutput(output).commands;
}

/** The commands the runner would run, and the lines it would show as they are. */
export function readRunnerOutput(output: string): { commands: RunnerCommand[]; lines: string[] } {
  const registered = new Set(REGISTERED);
  const commands: RunnerCommand[] = [];
  const lines: string[] = [];
  let stopToken: string | undefined;
  // .NET's StreamReader.ReadLine ends a line at \r\n, \r or \n.
  for (const line of output.split(/\r\n|\r|\n/)) {
    const command = parseV2(line, registered) ?? parseV1(line, registered);
    if (stopToken !== undefined) {
      if (command?.command === stopToken) {
        registered.delete(stopToken);
        stopToken = undefined;
      } else if (line !== '') lines.push(line);
      continue;
    }
    if (command?.command === 'stop-commands') {
      stopToken = command.data.toLowerCase();
      registered.add(stopToken);
    } else if (command) commands.push(command);
    else if (line !== '') lines.push(line);
  }
  return { commands, lines };
}

function parseV2(line: string, registered: Set<string>): RunnerCommand | undefined {
  const message = line.trimStart();
  if (!message.startsWith('::')) return undefined;
  const end = message.indexOf('::', 2);
  if (end < 0) return undefined;
  const info = message.slice(2, end);
  const space = info.indexOf(' ');
  const name = (space < 0 ? info : info.slice(0, space)).toLowerCase();
  if (!registered.has(name)) return undefined;
  const properties: Record<string, string> = {};
  if (space > 0) {
    for (const property of info
      .slice(space + 1)
      .trim()
      .split(',')) {
      const [key, value] = splitPair(property);
      if (key && value) properties[key] = unescape(value, PROPERTY_ESCAPES);
    }
  }
  return { command: name, properties, data: unescape(message.slice(end + 2), DATA_ESCAPES) };
}

/** The legacy `##[command props]data` form, found anywhere in a line. */
function parseV1(line: string, registered: Set<string>): RunnerCommand | undefined {
  const prefix = line.indexOf('##[');
  if (prefix < 0) return undefined;
  const bracket = line.indexOf(']', prefix);
  if (bracket < 0) return undefined;
  const info = line.slice(prefix + 3, bracket);
  const space = info.indexOf(' ');
  const name = (space < 0 ? info : info.slice(0, space)).toLowerCase();
  if (!registered.has(name)) return undefined;
  const properties: Record<string, string> = {};
  if (space > 0) {
    for (const property of info.slice(space + 1).split(';')) {
      const [key, value] = splitPair(property);
      if (key && value) properties[key] = unescape(value, V1_ESCAPES);
    }
  }
  return { command: name, properties, data: unescape(line.slice(bracket + 1), V1_ESCAPES) };
}

function splitPair(property: string): [string, string] | [] {
  const equals = property.indexOf('=');
  if (equals <= 0 || equals === property.length - 1) return [];
  return [property.slice(0, equals), property.slice(equals + 1)];
}

type Escapes = [string, string][];
const V1_ESCAPES: Escapes = [
  [';', '%3B'],
  ['\r', '%0D'],
  ['\n', '%0A'],
  [']', '%5D'],
  ['%', '%25'],
];
const DATA_ESCAPES: Escapes = [
  ['\r', '%0D'],
  ['\n', '%0A'],
  ['%', '%25'],
];
const PROPERTY_ESCAPES: Escapes = [
  ['\r', '%0D'],
  ['\n', '%0A'],
  [':', '%3A'],
  [',', '%2C'],
  ['%', '%25'],
];

function unescape(text: string, escapes: Escapes): string {
  return escapes.reduce((result, [token, replacement]) => result.replaceAll(replacement, token), text);
}
