// Runs the built action (dist/) the way the GitHub runner does: INPUT_* from the step's `with:` and
// action.yml's defaults, each evaluated for each step as the runner evaluates them (GitHub's own
// parser and evaluator, test/helpers/github-templates.ts: a default may use only the contexts the runner
// allows there, `job.status` is the job's status when that step runs), GITHUB_* variables and an
// event file, fresh GITHUB_OUTPUT / GITHUB_STATE / GITHUB_STEP_SUMMARY files per step, and the main
// step's state handed to post as STATE_*. Refuses to load when dist/ was built from other sources
// (test/helpers/stale-dist.ts), or when action.yml is not one the runner accepts.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  evaluateToString,
  INPUT_DEFAULT_CONTEXT,
  readActionManifest,
  readStepWith,
  STEP_WITH_CONTEXT,
  type ActionManifest,
  type ContextValues,
} from './github-templates.ts';
import { readRunnerOutput, type RunnerCommand } from './runner-commands.ts';
import { assertFreshDist } from './stale-dist.ts';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

// Never judge a dist/ built from other sources than src/ now holds: every run of dist/ refuses
// (checked once). Steps run in-process from src/ (test/helpers/in-process.ts) need no dist/.
let distChecked = false;
function refuseStaleDist(): void {
  if (!distChecked) assertFreshDist(ROOT);
  distChecked = true;
}

export interface StepResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  state: Record<string, string>;
  /** GITHUB_OUTPUT and GITHUB_STATE as the step wrote them. */
  files: { output: string; state: string };
  summary: string;
  /** Every workflow command the runner would run, from stdout and stderr, in order. */
  commands: RunnerCommand[];
  /** `::warning::` annotations, decoded. */
  warnings: string[];
  /** `::error::` annotations, decoded. */
  errors: string[];
  /** The log lines the runner shows: neither commands nor ::stop-commands:: and its token. */
  logLines: string[];
  /** Wall time from spawn to exit, as the runner would see it. */
  durationMs: number;
  /** With `probe`: what the process was like at exit. */
  probe?: StepProbe;
  /** The inputs the step was given (INPUT_*), by input name, after evaluation. */
  inputs: Record<string, string>;
}

/** A step output and result, as `steps.<id>` holds them. */
export interface StepContext {
  outputs?: Record<string, string>;
  outcome?: 'success' | 'failure' | 'cancelled' | 'skipped';
  conclusion?: 'success' | 'failure' | 'cancelled' | 'skipped';
}

/**
 * Expression contexts of the workflow step beyond what the other options give. `github` is made
 * from the GITHUB_* variables and the event, `job` from jobStatus / mainJobStatus / checkRunId,
 * `runner` from the platform; what is given here goes over those.
 */
export interface StepContexts {
  /** The workflow's, job's and step's `env:`: `${{ env.* }}`, and in the step's environment as on the runner. */
  env?: Record<string, string>;
  /** `steps.<id>` of the steps before this one. */
  steps?: Record<string, StepContext>;
  matrix?: Record<string, unknown>;
  strategy?: Record<string, unknown>;
  secrets?: Record<string, string>;
  /** A workflow_dispatch's or reusable workflow's inputs. */
  inputs?: Record<string, unknown>;
  needs?: Record<string, { outputs?: Record<string, string>; result?: string }>;
  vars?: Record<string, string>;
  github?: Record<string, unknown>;
  /** More of `job` (container, services); not status or check_run_id, which have their own options. */
  job?: Record<string, unknown>;
  runner?: Record<string, unknown>;
}

export interface JobOptions {
  /** The `with:` of the step; a value may hold `${{ }}` expressions, evaluated for each step. */
  inputs: Record<string, string>;
  event?: { name: string; payload: Record<string, unknown> };
  /** GITHUB_* and other variables, over the defaults below. */
  env?: Record<string, string>;
  /** `job.status` when the post step runs (default `success`). */
  jobStatus?: string;
  /** `job.status` when the main step runs: `failure` after an earlier step failed (default `success`). */
  mainJobStatus?: string;
  /** `job.check_run_id`; '' as on GHES without it. */
  checkRunId?: string;
  /** Kill a step that runs longer; tests pass a bound the step must keep. */
  killAfterMs?: number;
  /** The other contexts `with:` expressions may read. */
  contexts?: StepContexts;
  /** The event file's text as is, instead of `event.payload` as JSON (broken runner data). */
  eventText?: string;
  /** Look into the step's process (a preload that reads it at exit): see StepResult.probe. */
  probe?: boolean;
  /** The folder whose dist/ is run, for the benchmark's variants (default: this checkout's). */
  actionRoot?: string;
  /** Called with the step's process once it is spawned: to signal it as the runner would (a cancelled run). */
  onSpawn?: (child: ChildProcess) => void;
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

/** action.yml as the runner reads it. */
export const ACTION: ActionManifest = readActionManifest('action.yml', readFileSync(join(ROOT, 'action.yml'), 'utf8'));

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
  refuseStaleDist();
  const step = prepareStep(stage, options, state);
  try {
    const script = stage === 'main' ? ACTION.runs.main : ACTION.runs.post;
    if (!script) throw new Error(`action.yml has no ${stage} step`);
    const entry = join(options.actionRoot ?? ROOT, script);
    const started = performance.now();
    // The runner starts a step in the workspace, not in the action's folder: dist/ must not rely on the cwd.
    const ran = await spawnNode(entry, step, options);
    return collectStep(step, { ...ran, durationMs: performance.now() - started });
  } finally {
    step.remove();
  }
}

export interface StepProbe {
  /** CPU time (user and system, all threads) until exit, ms. */
  cpuMs: number;
  /** Peak resident memory, KiB. */
  maxRssKiB: number;
  /** The Node builtins it loaded, e.g. `http2`. */
  builtins: string[];
  /** The files it required (the bundle's chunks). */
  files: string[];
}

/** A step about to run: its environment as the runner makes it, and the files it writes. */
export interface PreparedStep {
  dir: string;
  env: Record<string, string>;
  files: { output: string; state: string; summary: string };
  /** The inputs, by name, after evaluation. */
  inputs: Record<string, string>;
  remove(): void;
}

/** The workspace, files, environment and inputs of one step, as the runner prepares them. */
export function prepareStep(stage: 'main' | 'post', options: JobOptions, state: Record<string, string>): PreparedStep {
  const dir = mkdtempSync(join(tmpdir(), `report-deployment-${stage}-`));
  const files = { output: join(dir, 'output'), state: join(dir, 'state'), summary: join(dir, 'summary') };
  for (const file of Object.values(files)) writeFileSync(file, '');
  const eventPath = join(dir, 'event.json');
  writeFileSync(eventPath, options.eventText ?? JSON.stringify(options.event?.payload ?? {}));

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
    ...options.contexts?.env,
    ...options.env,
  };
  const inputs = stepInputs(stage, options, env);
  for (const [name, value] of Object.entries(inputs)) env[inputVariableName(name)] = value;
  for (const [name, value] of Object.entries(state)) env[`STATE_${name}`] = value;
  return { dir, env, files, inputs, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** What a step left: its output read as the runner reads it, and the files it wrote. */
export function collectStep(
  step: PreparedStep,
  ran: { exitCode: number | null; stdout: string; stderr: string; durationMs: number; probe?: StepProbe },
): StepResult {
  const read = readRunnerOutput(ran.stdout);
  const files = { output: readFileSync(step.files.output, 'utf8'), state: readFileSync(step.files.state, 'utf8') };
  const annotations = (name: string) => read.commands.filter((c) => c.command === name).map((c) => c.data);
  return {
    ...ran,
    outputs: parseFileCommand(files.output),
    state: parseFileCommand(files.state),
    files,
    summary: readFileSync(step.files.summary, 'utf8'),
    commands: [...read.commands, ...readRunnerOutput(ran.stderr).commands],
    warnings: annotations('warning'),
    errors: annotations('error'),
    logLines: read.lines,
    inputs: step.inputs,
  };
}

/** `INPUT_<NAME>`: upper case, spaces to `_`, hyphens kept. */
export function inputVariableName(name: string): string {
  return `INPUT_${name.replace(/ /g, '_').toUpperCase()}`;
}

/**
 * The inputs a step gets, by name, as the runner makes them (ActionRunner then
 * ActionManifestManager.EvaluateDefaultInput): each `with:` value evaluated in the step's contexts,
 * then, for an input the step does not set, action.yml's default evaluated with the contexts the
 * runner allows there. `env` is the step's environment (GITHUB_* make the github context); `action`
 * another reading of action.yml than this one's.
 */
export function stepInputs(
  stage: 'main' | 'post',
  options: JobOptions,
  env: Record<string, string> = {
    ...DEFAULT_ENV,
    GITHUB_EVENT_NAME: options.event?.name ?? 'push',
    ...options.contexts?.env,
    ...options.env,
  },
  action: ActionManifest = ACTION,
): Record<string, string> {
  for (const name of Object.keys(options.inputs)) {
    if (!action.inputs.has(name)) throw new Error(`action.yml has no input '${name}'`);
  }
  const values = stepContextValues(stage, options, env);
  const given = readStepWith(options.inputs);
  const inputs: Record<string, string> = {};
  for (const [name, token] of given) inputs[name] = evaluateToString(token, STEP_WITH_CONTEXT, values);
  for (const [name, input] of action.inputs) {
    if (given.has(name) || !input.default) continue;
    try {
      inputs[name] = evaluateToString(input.default, INPUT_DEFAULT_CONTEXT, values);
    } catch (error) {
      throw new Error(`action.yml: the default of input '${name}': ${(error as Error).message}`, { cause: error });
    }
  }
  return inputs;
}

/** The values of every context a step's expressions may read, in this stage of the job. */
export function stepContextValues(
  stage: 'main' | 'post',
  options: JobOptions,
  env: Record<string, string>,
): ContextValues {
  const contexts = options.contexts ?? {};
  if (contexts.job && ('status' in contexts.job || 'check_run_id' in contexts.job)) {
    throw new Error('Set job.status with jobStatus / mainJobStatus and job.check_run_id with checkRunId');
  }
  const status = stage === 'main' ? (options.mainJobStatus ?? 'success') : (options.jobStatus ?? 'success');
  const checkRunId = options.checkRunId ?? DEFAULT_CHECK_RUN_ID;
  const github: Record<string, unknown> = { event: options.event?.payload ?? {} };
  for (const [name, value] of Object.entries(env)) {
    if (name.startsWith('GITHUB_') && name !== 'GITHUB_ACTIONS') github[name.slice(7).toLowerCase()] = value;
  }
  github.repository_owner = (env.GITHUB_REPOSITORY ?? '').split('/')[0];
  return {
    github: { ...github, ...contexts.github },
    // The runner's job.check_run_id is a number; without one (older GHES) it is null, which reads as ''.
    job: {
      ...contexts.job,
      status,
      ...(checkRunId === '' ? {} : { check_run_id: /^\d+$/.test(checkRunId) ? Number(checkRunId) : checkRunId }),
    },
    runner: {
      os: { linux: 'Linux', win32: 'Windows', darwin: 'macOS' }[process.platform as string] ?? process.platform,
      arch: process.arch === 'arm64' ? 'ARM64' : 'X64',
      temp: env.RUNNER_TEMP,
      environment: 'github-hosted',
      ...contexts.runner,
    },
    env: contexts.env ?? {},
    steps: contexts.steps ?? {},
    matrix: contexts.matrix ?? {},
    strategy: contexts.strategy ?? { 'fail-fast': true, 'job-index': 0, 'job-total': 1, 'max-parallel': 1 },
    secrets: contexts.secrets ?? {},
    inputs: contexts.inputs ?? {},
    needs: contexts.needs ?? {},
    vars: contexts.vars ?? {},
  };
}

/** The preload of `probe` runs (the benchmark preloads it into the CLI too). */
export const PROBE_PRELOAD = join(ROOT, 'test', 'helpers', 'step-probe.cjs');

function spawnNode(
  entry: string,
  step: PreparedStep,
  options: JobOptions,
): Promise<{ exitCode: number | null; stdout: string; stderr: string; probe?: StepProbe }> {
  const probeFile = join(step.dir, 'probe.json');
  const args = options.probe ? ['--require', PROBE_PRELOAD, entry] : [entry];
  const env = options.probe ? { ...step.env, STEP_PROBE_FILE: probeFile } : step.env;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: step.dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 60_000);
    options.onSpawn?.(child);
    child.on('error', reject);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      const probe = options.probe ? (JSON.parse(readFileSync(probeFile, 'utf8')) as StepProbe) : undefined;
      resolve({ exitCode, stdout, stderr, ...(probe ? { probe } : {}) });
    });
  });
}

/**
 * `name<<DELIMITER\nvalue\nDELIMITER` blocks, as @actions/core writes GITHUB_OUTPUT and GITHUB_STATE,
 * read as the runner reads them (src/Runner.Worker/FileCommandManager.cs, EnvFileKeyValuePairs and
 * SaveStateFileCommand / SetOutputFileCommand): a name written again takes its last value; a block
 * whose delimiter never comes (a step killed while it wrote) ends the reading, the values before it
 * kept (the runner then fails the step's file command, having set them).
 */
export function parseFileCommand(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const match = /^([^<]+)<<(.+)$/.exec(lines[i] ?? '');
    if (!match) continue;
    const [, name, delimiter] = match;
    const end = lines.indexOf(delimiter as string, i + 1);
    if (end < 0) break;
    values[name as string] = lines.slice(i + 1, end).join('\n');
    i = end;
  }
  return values;
}
