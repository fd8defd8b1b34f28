// The CLI's log: everything it says goes to stderr (stdout is the wrapped command's, or the ids'),
// each line `report-deployment: ...`. As in the action, the key is scrubbed in every form, a value
// stays on its line (control characters shown escaped), and inside a GitHub Actions `run:` step a
// line the runner would read as a workflow command is printed so that it is shown, not run.
import { inertLines, showControls, type Lines, type Log } from '../core/log.js';
import { scrubber } from '../core/secret.js';

export interface CliLog extends Log {
  /** Something that went wrong and decides the exit code. */
  error(text: Lines): void;
}

const PREFIX = 'report-deployment: ';

export function openCliLog(
  apiKey: string,
  env: Record<string, string | undefined>,
  write: (text: string) => void = (text) => void process.stderr.write(text),
): CliLog {
  const scrub = scrubber(apiKey);
  const clean = (line: string) => showControls(scrub(line));
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
