// `context`: `start` without sending. Every field a start would send (the artifacts, `type` and
// `status` included) and where each comes from (a flag, which CI's variable, git, the OS), the
// service's address and whether a key is set, read the very way `start` reads them; and it refuses
// exactly where `start` would, with the same messages and exit code. The check to run before wiring
// the CLI into a pipeline.
import { Settings } from '../core/constants.js';
import { FieldNames, type ArtifactRef, type Sourced } from '../core/deployment.js';
import { inertLines } from '../core/log.js';
import { withoutCredentials } from '../core/proxy.js';
import { scrubber } from '../core/secret.js';
import type { ParsedArgs } from './args.js';
import { defuseForeignCommands, type CliLog } from './log.js';
import { ExitCodes } from './report.js';
import { inspectCommand } from './settings.js';
import { cliSettings, ENV_KEY } from './source.js';

type Env = Record<string, string | undefined>;
type Row = [name: string, sourced: Sourced | undefined];

export async function showContext(
  args: ParsedArgs,
  env: Env,
  log: CliLog,
  write: (text: string) => void = (text) => void process.stdout.write(text),
): Promise<number> {
  const { settings, request, ci, problem } = await inspectCommand(args, env, log);
  const source = cliSettings(args.settings, env);
  const url = source.get(Settings.BaseUrl);
  const fields = request.fields;
  const head: Row[] = [
    // As start's messages show it: credentials in the URL are no more for a log than the key is.
    ['service', url ? { value: withoutCredentials(url), source: source.words.setting(Settings.BaseUrl) } : undefined],
    ['key', env[ENV_KEY] ? { value: '(set, not shown)', source: ENV_KEY } : undefined],
    ['ci', { value: ci?.name ?? '(none)', source: ci?.name ? 'its variables' : 'no CI variables found' }],
  ];
  const artifacts = request.artifacts.map(artifactSourced);
  const tail: Row[] = [
    ...FieldNames.map((field): Row => [field, fields?.[field]?.value ? fields[field] : undefined]),
    [
      'type',
      {
        value: 'SIMPLE',
        source: args.settings[Settings.Type] ? `--${Settings.Type}` : 'the only type the service takes',
      },
    ],
    ['status', { value: 'STARTED', source: 'start records it so; finish or run sets how it ended' }],
  ];
  const lines = problem?.lines ?? [];
  if (args.json) {
    const scrub = scrubber(env[ENV_KEY] ?? '');
    const shown = (sourced: Sourced | undefined) =>
      sourced ? { value: scrub(sourced.value), source: scrub(sourced.source) } : null;
    const json = {
      ...Object.fromEntries(head.map(([name, sourced]) => [name, shown(sourced)])),
      artifacts: artifacts.map(shown),
      ...Object.fromEntries(tail.map(([name, sourced]) => [name, shown(sourced)])),
      problems: lines.map(scrub),
    };
    write(`${jsonText(json)}\n`);
  } else {
    const rows: Row[] = [
      ...head,
      ...(artifacts.length ? artifacts.map((sourced): Row => ['artifact', sourced]) : [['artifact', undefined] as Row]),
      ...tail,
    ];
    const width = Math.max(...rows.map(([name]) => name.length));
    const inert = env.GITHUB_ACTIONS === 'true' ? inertLines : (line: string) => [line];
    // Values are shown as the log shows them: one line each, the key scrubbed.
    for (const [name, sourced] of rows) {
      const text = sourced ? `${log.clean(sourced.value)}  (${log.clean(sourced.source)})` : '(none)';
      write(`${inert(`${name.padEnd(width)}  ${text}`).join('\n')}\n`);
    }
  }
  // What start would say before sending: its refusal, or why it would record nothing.
  if (problem) {
    log.error(problem.lines);
    return ExitCodes.usage;
  }
  // The only thing start says before it sends, where nothing stops it: that nothing is recorded without a
  // key (with --fail-on-error, start's exit 1: context, which records nothing anyway, exits 0).
  if (settings.noKey) log.warning(settings.noKey);
  return ExitCodes.ok;
}

function artifactSourced(artifact: ArtifactRef): Sourced {
  return 'artifactId' in artifact
    ? { value: String(artifact.artifactId), source: `--${Settings.ArtifactId}` }
    : { value: artifact.artifactName, source: `--${Settings.ArtifactName}` };
}

/**
 * Every control, bidi and other invisible character: C0 and C1 controls and DEL, format characters
 * (bidi overrides and isolates, zero-width ones, tags), line and paragraph separators, every space
 * but the plain one, and whatever else Unicode says renders as nothing.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Zs}\p{Default_Ignorable_Code_Point}]/gu;

/**
 * The JSON of `value`, pretty-printed, with every invisible character written `\uXXXX` (the JSON is
 * the same value, and what a terminal shows is what it holds), and `##[`, `##vso[` and `##teamcity[`
 * written with their `[` escaped: they only ever stand inside a string here, so no line of it is a
 * command of the GitHub runner or of another CI.
 */
export function jsonText(value: unknown): string {
  // The spaces and line breaks of the layout stay: inside a string, JSON.stringify escapes a line break.
  const text = JSON.stringify(value, null, 2).replace(INVISIBLE, (c) => (c === ' ' || c === '\n' ? c : escapeUnits(c)));
  return defuseForeignCommands(text.replaceAll('##[', '##\\u005b'));
}

/** `c` as JSON escapes of its UTF-16 code units (a surrogate pair above U+FFFF). */
function escapeUnits(c: string): string {
  let escaped = '';
  for (let index = 0; index < c.length; index += 1) {
    escaped += `\\u${c.charCodeAt(index).toString(16).padStart(4, '0')}`;
  }
  return escaped;
}
