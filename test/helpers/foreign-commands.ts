// How two other CIs read a step's output: the lines in which they would find a logging command of
// their own. The GitHub runner's reading is test/helpers/runner-commands.ts; these have no stop-commands,
// so a line that holds one is run whatever came before it.

/** The lines as a .NET StreamReader.ReadLine or a line-reading agent splits them: on \r\n, \r or \n. */
const lines = (output: string) => output.split(/\r\n|\r|\n/);

// Ignorable to a culture-sensitive (ICU) comparison: default-ignorable code points and many marks.
const IGNORABLE = /[\p{Default_Ignorable_Code_Point}\p{M}]/gu;

export interface AzureCommand {
  area: string;
  event: string;
  data: string;
}

/**
 * The command the Azure Pipelines agent would run for `line`, ported from microsoft/azure-pipelines-agent
 * src/Microsoft.VisualStudio.Services.Agent/Command.cs (TryParse): `message.IndexOf("##vso[")`
 * anywhere in the line, the command info up to the next `]`, its name `area.event` (two parts once
 * empty ones are dropped). That IndexOf is culture-sensitive (src/Common.props: InvariantGlobalization
 * false): case-sensitive, but ignorable characters do not count; they are dropped here first, which
 * finds at least what the agent finds. Each script step's stdout and stderr both go through it
 * (src/Agent.Worker/Handlers/NodeHandler.cs: OnDataReceived -> CommandManager.TryProcessCommand).
 */
export function azureCommandIn(line: string): AzureCommand | undefined {
  const message = line.replace(IGNORABLE, '');
  const prefixIndex = message.indexOf('##vso[');
  if (prefixIndex < 0) return undefined;
  const rbIndex = message.indexOf(']', prefixIndex);
  if (rbIndex < 0) return undefined;
  const cmdInfo = message.slice(prefixIndex + '##vso['.length, rbIndex);
  const spaceIndex = cmdInfo.indexOf(' ');
  const name = spaceIndex < 0 ? cmdInfo : cmdInfo.slice(0, spaceIndex);
  const areaEvent = name.split('.').filter(Boolean);
  if (areaEvent.length !== 2) return undefined;
  return { area: areaEvent[0] as string, event: areaEvent[1] as string, data: message.slice(rbIndex + 1) };
}

/**
 * The lines of `output` in which the Azure Pipelines agent finds `##vso[` at all: stricter than
 * the commands it would run (azureCommandIn), as a command it cannot parse is one edit away.
 */
export function azureCommandLines(output: string): string[] {
  return lines(output).filter((line) => line.replace(IGNORABLE, '').includes('##vso['));
}

/**
 * The lines of `output` in which TeamCity finds a service message: `##teamcity[` anywhere in the
 * line, case-sensitive (JetBrains/TeamCity.ServiceMessages, TeamCity.ServiceMessages/Read/
 * ServiceMessageParser.cs: ParseServiceMessages matches the prefix char by char wherever it starts;
 * TeamCity's own build log splits a line at the prefix, JetBrains/teamcity-messages#131).
 */
export function teamcityMessageLines(output: string): string[] {
  return lines(output).filter((line) => line.includes('##teamcity['));
}

/** Every line of `output` that Azure Pipelines or TeamCity would read as a command of theirs. */
export function foreignCommandLines(output: string): string[] {
  return [...new Set([...azureCommandLines(output), ...teamcityMessageLines(output)])];
}
