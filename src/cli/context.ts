// `context`: every field a create would send and where it came from (a flag, the environment, which
// CI, git), the service's address and whether a key is set, without sending anything. Problems are
// listed too: it is the check to run before wiring the CLI into a pipeline.
import { Settings } from '../core/constants.js';
import { ConfigError, ProblemCollector } from '../core/config-error.js';
import { FieldNames, FieldSettings, resolveFields, type FieldName, type Sourced } from '../core/deployment.js';
import { inertLines } from '../core/log.js';
import { scrubber } from '../core/secret.js';
import { readSettings } from '../core/settings.js';
import { readCiContext } from '../ci/detect.js';
import type { ParsedArgs } from './args.js';
import { defuseForeignCommands, type CliLog } from './log.js';
import { ExitCodes } from './report.js';
import { commandFlags } from './settings.js';
import { cliSettings, ENV_KEY } from './source.js';

type Env = Record<string, string | undefined>;

export async function showContext(
  args: ParsedArgs,
  env: Env,
  log: CliLog,
  write: (text: string) => void = (text) => void process.stdout.write(text),
): Promise<number> {
  const source = cliSettings(commandFlags(args), env);
  const ci = await readCiContext(env, { cwd: process.cwd(), log });
  const problems = new ProblemCollector();
  const given = Object.fromEntries(FieldNames.map((field) => [field, source.get(FieldSettings[field])])) as Record<
    FieldName,
    string
  >;
  const fields = resolveFields(given, ci.defaults, source, problems);
  problems.read(() => readSettings(source, env), undefined);
  const url = source.get(Settings.BaseUrl);
  const rows: [string, Sourced | undefined][] = [
    ['service', url ? { value: url, source: source.setting(Settings.BaseUrl) } : undefined],
    ['key', env[ENV_KEY] ? { value: '(set, not shown)', source: ENV_KEY } : undefined],
    ['ci', { value: ci.name ?? '(none)', source: ci.name ? 'its variables' : 'no CI variables found' }],
    ...FieldNames.map((field): [string, Sourced | undefined] => [
      field,
      fields[field]?.value ? fields[field] : undefined,
    ]),
  ];
  const lines = problemLines(problems);
  if (args.json) {
    const scrub = scrubber(env[ENV_KEY] ?? '');
    const json = Object.fromEntries(
      rows.map(([name, sourced]) => [
        name,
        sourced ? { value: scrub(sourced.value), source: scrub(sourced.source) } : null,
      ]),
    );
    // `##[`, `##vso[` and `##teamcity[` only ever stand inside a string here: their `[` escaped, the
    // JSON is the same, and no line of it is a command of the GitHub runner or of another CI.
    const text = JSON.stringify({ ...json, problems: lines.map(scrub) }, null, 2).replaceAll('##[', '##\\u005b');
    write(`${defuseForeignCommands(text)}\n`);
  } else {
    const width = Math.max(...rows.map(([name]) => name.length));
    const inert = env.GITHUB_ACTIONS === 'true' ? inertLines : (line: string) => [line];
    // Values are shown as the log shows them: one line each, the key scrubbed.
    for (const [name, sourced] of rows) {
      const shown = sourced ? `${log.clean(sourced.value)}  (${log.clean(sourced.source)})` : '(none)';
      write(`${inert(`${name.padEnd(width)}  ${shown}`).join('\n')}\n`);
    }
  }
  if (lines.length) log.warning(['a command would stop on these:', ...lines]);
  return ExitCodes.ok;
}

function problemLines(problems: ProblemCollector): string[] {
  try {
    problems.throwIfAny();
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.lines;
    throw error;
  }
}
