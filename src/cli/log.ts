// The CLI's log: everything it says goes to stderr (stdout is the wrapped command's, or the ids'),
// each line `report-deployment: ...`, written so that a stderr that cannot be written loses the log
// and nothing else (output.ts). As in the action, the key is scrubbed in every form, a value
// stays on its line (control characters shown escaped), inside a GitHub Actions `run:` step a line
// the runner would read as a workflow command is printed so that it is shown, not run, and in any
// CI no line holds a logging command of Azure Pipelines or TeamCity (defuseForeignCommands).
import { inertLines, type Lines, type Log } from '../core/log.js';
import { cleaner } from '../core/secret.js';
import { writeStderr } from './output.js';

export interface CliLog extends Log {
  /** Something that went wrong and decides the exit code. */
  error(text: Lines): void;
}

const PREFIX = 'report-deployment: ';

// Two other CIs run commands they find in a step's output, and neither has GitHub's stop-commands:
// - Azure Pipelines: `##vso[area.event props]data` anywhere in a line, of stdout and of stderr alike
//   (microsoft/azure-pipelines-agent, src/Microsoft.VisualStudio.Services.Agent/Command.cs:
//   `message.IndexOf("##vso[")`; src/Agent.Worker/Handlers/NodeHandler.cs hands both streams of a
//   script step to TryProcessCommand). That IndexOf is .NET's culture-sensitive one (the agent is
//   built with InvariantGlobalization false): case-sensitive, so `##VSO[` is no command, but blind
//   to ignorable characters, so `##vso[` with a zero-width joiner or a combining mark inside is one.
// - TeamCity: `##teamcity[name ...]` service messages, also found in the middle of a line (its
//   parsers scan for the prefix, e.g. JetBrains/TeamCity.ServiceMessages'
//   Read/ServiceMessageParser.cs, char by char, case-sensitive).
// The `[` that opens such a command is written `\u005b`, the way control characters are shown: the
// reader sees the text as it was (no invisible character is added), no CI reads a command, and in
// JSON the very same text decodes to `[`. This is done in every CI, not only where TF_BUILD or
// TEAMCITY_VERSION is set: the CLI's output can be piped or wrapped into any CI's step (a container,
// a script that runs it), such text in a real value is rare, and escaping it changes nothing else.
const IGNORABLE = '[\\p{Default_Ignorable_Code_Point}\\p{M}]*';
const spelled = (word: string) => [...word].join(IGNORABLE);
const FOREIGN_COMMAND = `(${spelled('##')}${IGNORABLE}(?:${spelled('vso')}|${spelled('teamcity')})${IGNORABLE})\\[`;
const FOREIGN_COMMANDS = new RegExp(FOREIGN_COMMAND, 'gu');

/** Whether Azure Pipelines or TeamCity would find a logging command of theirs in `text`. */
export function holdsForeignCommand(text: string): boolean {
  return new RegExp(FOREIGN_COMMAND, 'u').test(text);
}

/** `text` with the `[` of every `##vso[` and `##teamcity[` written `\u005b`: shown, never run. */
export function defuseForeignCommands(text: string): string {
  return text.replace(FOREIGN_COMMANDS, '$1\\u005b');
}

export function openCliLog(
  apiKey: string,
  env: Record<string, string | undefined>,
  write: (text: string) => void = writeStderr,
): CliLog {
  // As the action's log: the text as it is finally shown is what is scrubbed (core/secret.ts).
  const cleanOfKey = cleaner(apiKey);
  const clean = (line: string) => defuseForeignCommands(cleanOfKey(line));
  const inGitHubActions = env.GITHUB_ACTIONS === 'true';
  const debugging = env.RUNNER_DEBUG === '1' || env.DEPLOY_TRACKER_DEBUG === '1';
  const print = (label: string, text: Lines) => {
    const lines = (typeof text === 'string' ? [text] : text).map(clean);
    // The first line says what it is; the others are indented under it.
    const shown = lines.map((line, index) => `${PREFIX}${index === 0 ? label : ' '.repeat(label.length)}${line}`);
    write(`${(inGitHubActions ? shown.flatMap(inertLines) : shown).join('\n')}\n`);
  };
  return {
    info: (text) => print('', text),
    warning: (text) => print('warning: ', text),
    error: (text) => print('error: ', text),
    debug: (text) => {
      if (debugging) print('debug: ', typeof text === 'function' ? text() : text);
    },
    clean,
  };
}
