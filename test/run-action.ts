// Runs the built action (dist/) the way the GitHub runner does: INPUT_* from the given inputs and
// action.yml's defaults (with `${{ job.status }}` / `${{ job.check_run_id }}` evaluated for each
// step), GITHUB_* variables and an event file, fresh GITHUB_OUTPUT / GITHUB_STATE /
// GITHUB_STEP_SUMMARY files per step, and the main step's state handed to post as STATE_*. Refuses
// to load when dist/ was built from other sources (test/stale-dist.ts).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { assertFreshDist } from './stale-dist.ts';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

// Never judge a dist/ built from other sources than src/ now holds: every file that runs dist/
// through this module fails at load, before its first test.
assertFreshDist(ROOT);

export interface StepResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  state: Record<string, string>;
  summary: string;
  /** `::warning::` annotations, decoded. */
  warnings: string[];
  /** `::error::` annotations, decoded. */
  errors: string[];
  /** Log lines that are not workflow commands. */
  logLines: string[];
  /** Wall time from spawn to exit, as the runner would see it. */
  durationMs: number;
}

export interface JobOptions {
  /** The `with:` of the step. */
  inputs: Record<string, string>;
  event?: { name: string; payload: Record<string, unknown> };
  /** GITHUB_* and other variables, over the defaults below. */
  env?: Record<string, string>;
  /** `job.status` when the post step runs. */
  jobStatus?: string;
  /** `job.check_run_id`; '' as on GHES without it. */
  checkRunId?: string;
  /** Kill a step that runs longer; tests pass a bound the step must keep. */
  killAfterMs?: number;
}

export const DEFAULT_ENV: Record<string, string> = {
  GITHUB_ACTIONS: 'true',
  CI: 'true',
  GITHUB_SERVER_URL: 'https://github.com',
  GITHUB_API_URL: 'https://api.github.com',
  GITHUB_REPOSITORY: 'acme/shop',
  GITHUB_RUN_ID: '9100',
  GITHUB_RUN_NUMBER: '57',
  GITHUB_RUN_ATTEMPT: '1',
  GITHUB_WORKFLOW: 'Deploy',
  GITHUB_JOB: 'deploy',
  GITHUB_ACTOR: 'alice',
  GITHUB_TRIGGERING_ACTOR: 'alice',
  GITHUB_SHA: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
  GITHUB_REF: 'refs/heads/main',
  GITHUB_REF_NAME: 'main',
  GITHUB_REF_TYPE: 'branch',
};
export const DEFAULT_CHECK_RUN_ID = '31415926';

interface ActionInput {
  default?: string;
}

const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
  inputs: Record<string, ActionInput>;
  runs: { main: string; post: string };
};

export async function runJob(options: JobOptions): Promise<{ main: StepResult; post: StepResult }> {
  const main = await runStep('main', options, {});
  const post = await runStep('post', options, main.state);
  return { main, post };
}

export async function runStep(
  stage: 'main' | 'post',
  options: JobOptions,
  state: Record<string, string>,
): Promise<StepResult> {
  const dir = mkdtempSync(join(tmpdir(), `report-deployment-${stage}-`));
  try {
    const files = { output: join(dir, 'output'), state: join(dir, 'state'), summary: join(dir, 'summary') };
    for (const file of Object.values(files)) writeFileSync(file, '');
    const eventPath = join(dir, 'event.json');
    writeFileSync(eventPath, JSON.stringify(options.event?.payload ?? {}));

    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? dir,
      RUNNER_TEMP: dir,
      GITHUB_WORKSPACE: dir,
      ...DEFAULT_ENV,
      GITHUB_EVENT_NAME: options.event?.name ?? 'push',
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_OUTPUT: files.output,
      GITHUB_STATE: files.state,
      GITHUB_STEP_SUMMARY: files.summary,
      ...options.env,
      ...inputVariables(stage, options),
    };
    for (const [name, value] of Object.entries(state)) env[`STATE_${name}`] = value;

    const entry = join(ROOT, stage === 'main' ? action.runs.main : action.runs.post);
    const started = performance.now();
    // The runner starts a step in the workspace, not in the action's folder: dist/ must not rely on the cwd.
    const { exitCode, stdout, stderr } = await spawnNode(entry, dir, env, options.killAfterMs ?? 60_000);
    const durationMs = performance.now() - started;
    const commands = parseCommands(stdout);
    return {
      exitCode,
      stdout,
      stderr,
      outputs: parseFileCommand(readFileSync(files.output, 'utf8')),
      state: parseFileCommand(readFileSync(files.state, 'utf8')),
      summary: readFileSync(files.summary, 'utf8'),
      ...commands,
      durationMs,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The runner's INPUT_<NAME> variables: given inputs over action.yml defaults, expressions evaluated. */
function inputVariables(stage: 'main' | 'post', options: JobOptions): Record<string, string> {
  const jobStatus = stage === 'main' ? 'success' : (options.jobStatus ?? 'success');
  const checkRunId = options.checkRunId ?? DEFAULT_CHECK_RUN_ID;
  const variables: Record<string, string> = {};
  for (const [name, input] of Object.entries(action.inputs)) {
    const value = options.inputs[name] ?? input.default;
    if (value === undefined) continue;
    const evaluated = value
      .replaceAll('${{ job.status }}', jobStatus)
      .replaceAll('${{ job.check_run_id }}', checkRunId);
    variables[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = evaluated;
  }
  for (const name of Object.keys(options.inputs)) {
    if (!(name in action.inputs)) throw new Error(`action.yml has no input '${name}'`);
  }
  return variables;
}

function spawnNode(
  entry: string,
  cwd: string,
  env: Record<string, string>,
  killAfterMs: number,
): Promise<{ exitCode: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('error', reject);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      resolve({ exitCode, stdout, stderr });
    });
  });
}

/** `name<<DELIMITER\nvalue\nDELIMITER` blocks, as @actions/core writes GITHUB_OUTPUT and GITHUB_STATE. */
export function parseFileCommand(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const match = /^([^<]+)<<(.+)$/.exec(lines[i] ?? '');
    if (!match) continue;
    const [, name, delimiter] = match;
    const end = lines.indexOf(delimiter as string, i + 1);
    values[name as string] = lines.slice(i + 1, end).join('\n');
    i = end;
  }
  return values;
}

function parseCommands(stdout: string): Pick<StepResult, 'warnings' | 'errors' | 'logLines'> {
  const warnings: string[] = [];
  const errors: string[] = [];
  const logLines: string[] = [];
  for (const line of stdout.split('\n')) {
    const command = /^::(warning|error)(?: [^:]*)?::(.*)$/.exec(line);
    if (command?.[1] === 'warning') warnings.push(decodeCommand(command[2] ?? ''));
    else if (command?.[1] === 'error') errors.push(decodeCommand(command[2] ?? ''));
    else if (line && !line.startsWith('::')) logLines.push(line);
  }
  return { warnings, errors, logLines };
}

function decodeCommand(text: string): string {
  return text.replaceAll('%0D', '\r').replaceAll('%0A', '\n').replaceAll('%25', '%');
}
