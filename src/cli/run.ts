// `run -- <command>`: records STARTED, runs the command, records how it ended. Reporting never
// decides the command's fate: a bad setting, a missing key or a service that is down, slow or
// refusing is said on stderr, and the command runs and keeps its exit code. The command starts
// once the create has an answer, and no later than one attempt's timeout after the CLI did; what
// the create does after that goes on beside it. An interrupted run is recorded FAILED at once (one
// attempt), so that a CI that kills the job after its grace period leaves nothing STARTED.
import { setTimeout as delay } from 'node:timers/promises';
import { ConfigError } from '../core/config-error.js';
import { PLACEHOLDER_ID } from '../core/dry-run.js';
import { execute } from '../core/execute.js';
import { describeFinish, describeStart, type Report } from '../core/outcome.js';
import { plan as planFor, type Plan } from '../core/plan.js';
import { setStatusAll } from '../core/service.js';
import type { CommonSettings } from '../core/settings.js';
import { Limits, SettingDefaults, Settings, type DeploymentStatus } from '../core/constants.js';
import { bugLines } from '../core/text.js';
import { withTracker } from '../core/tracker.js';
import type { ParsedArgs } from './args.js';
import type { CliLog } from './log.js';
import { showReport } from './report.js';
import { readCommand } from './settings.js';
import { CLI_WORDING, RUN_WORDING } from './source.js';
import { exitCodeOf, FORWARDED_SIGNALS, startCommand, type ForwardedSignal, type Wrapped } from './wrap.js';

type Env = Record<string, string | undefined>;

export async function runWrapped(args: ParsedArgs, env: Env, log: CliLog): Promise<number> {
  const startedAt = Date.now();
  const signals = listenForSignals();
  try {
    // Reading the settings and the CI (git) is bounded too: the command does not wait past its deadline.
    const preparing = prepareReporting(args, env, log, startedAt);
    const finishNow = async (status: DeploymentStatus) => (await preparing)?.finishNow(status) ?? true;
    // Set once the command has started: signals before that stop it from starting.
    let wrapped: Wrapped | undefined = undefined;
    signals.onEach((signal) => {
      wrapped?.forward(signal);
      void finishNow('FAILED');
    });
    const deadline = delay(Math.max(0, startedAt + attemptTimeoutMs(args) - Date.now()), undefined, { ref: false });
    await Promise.race([preparing.then((reporting) => reporting?.started), deadline, signals.first]);
    if (signals.received) {
      // Interrupted before the command started: it never does.
      log.warning(`${signals.received} received before the command started, so it is not run.`);
      await finishNow('FAILED');
      return exitCodeOf({ kind: 'signalled', signal: signals.received });
    }
    const [command = '', ...commandArgs] = args.wrapped;
    wrapped = startCommand(command, commandArgs, isInteractive());
    const ending = await wrapped.ended;
    if (ending.kind === 'not-started') log.error(`${ending.reason}.`);
    const code = exitCodeOf(ending);
    const notRecorded = await finishNow(code === 0 && !signals.received ? 'SUCCEEDED' : 'FAILED');
    // --fail-on-error may turn a success into a failure, never a failure into a success.
    const failOnError = (await preparing)?.settings.failOnError ?? args.settings['fail-on-error'] === 'true';
    return code === 0 && notRecorded && failOnError ? 1 : code;
  } finally {
    signals.stop();
  }
}

/** One attempt's timeout, as --timeout-seconds gives it (its default where the flag is no number). */
function attemptTimeoutMs(args: ParsedArgs): number {
  const seconds = Number(args.settings[Settings.TimeoutSeconds] ?? SettingDefaults[Settings.TimeoutSeconds]);
  return seconds > 0 && seconds <= Limits.timeoutSeconds
    ? seconds * 1000
    : Number(SettingDefaults[Settings.TimeoutSeconds]) * 1000;
}

interface Reporting {
  settings: CommonSettings;
  /** Settles once the start is recorded (or could not be) and shown. */
  started: Promise<Report>;
  /** Finishes what the start left open with `status` (once: the first call decides); whether anything was not recorded. */
  finishNow(status: DeploymentStatus): Promise<boolean>;
}

/** The reporting around the command; undefined (said as an error) where the settings are bad. */
async function prepareReporting(
  args: ParsedArgs,
  env: Env,
  log: CliLog,
  startedAt: number,
): Promise<Reporting | undefined> {
  let read;
  try {
    read = await readCommand(args, env, log);
  } catch (error) {
    const lines = error instanceof ConfigError ? error.lines : bugLines('unexpected error', error);
    log.error([...lines, 'Nothing is recorded; the command runs.']);
    return undefined;
  }
  const { settings, request } = read;
  const plan = planFor(settings, request);
  // A bug of ours is said as one, and never stops the command or its exit code.
  const started = execute(plan, settings, log).then(
    (results) => {
      const report = describeStart(plan, results, { dryRun: settings.dryRun, startedAt, wording: RUN_WORDING });
      showReport(report, settings.failOnError, log);
      return report;
    },
    (error: unknown): Report => ({
      lines: [],
      failures: [bugLines('unexpected error', error)],
      recorded: [],
      ids: [],
      status: '',
    }),
  );
  let finished: Promise<boolean> | undefined;
  return {
    settings,
    started,
    finishNow: (status) =>
      (finished ??= finish(plan, started, status, settings, log, startedAt).catch((error: unknown) => {
        log.error(bugLines('unexpected error', error));
        return true;
      })),
  };
}

async function finish(
  plan: Plan,
  started: Promise<Report>,
  status: DeploymentStatus,
  settings: CommonSettings,
  log: CliLog,
  startedAt: number,
): Promise<boolean> {
  const start = await started;
  const open = start.open;
  const notStarted = start.failures.length > 0 || (plan.kind === 'nothing' && plan.reason === 'no-key');
  if (!open || 'note' in open) return notStarted;
  const ids = open.ids ?? [PLACEHOLDER_ID];
  // After an interruption the CI gives little time: one attempt, no retries.
  const connection = status === 'FAILED' ? { ...settings.connection, retries: 0 } : settings.connection;
  const dryRun = settings.dryRun || open.dryRun;
  const results = await withTracker(connection, log, dryRun, (tracker) => setStatusAll(tracker, ids, status));
  const report = describeFinish(status, results, {
    dryRun,
    startedAt: open.dryRun ? 0 : startedAt,
    placeholders: open.dryRun && !open.ids ? open.count : undefined,
    wording: CLI_WORDING,
  });
  return showReport(report, settings.failOnError, log) || notStarted;
}

/** Whether the CLI runs in a terminal (then the terminal signals the command itself: see wrap.ts). */
function isInteractive(): boolean {
  return Boolean(process.stdin.isTTY || process.stdout.isTTY || process.stderr.isTTY);
}

/** The signals the CLI would otherwise die of, caught for the length of the run. */
function listenForSignals() {
  const listeners: ((signal: ForwardedSignal) => void)[] = [];
  let resolveFirst: (() => void) | undefined;
  const state = {
    received: undefined as ForwardedSignal | undefined,
    first: new Promise<void>((resolve) => (resolveFirst = resolve)),
    onEach(listener: (signal: ForwardedSignal) => void) {
      listeners.push(listener);
    },
    stop() {
      for (const signal of FORWARDED_SIGNALS) process.removeListener(signal, handle);
    },
  };
  function handle(signal: ForwardedSignal) {
    state.received ??= signal;
    resolveFirst?.();
    for (const listener of listeners) listener(signal);
  }
  for (const signal of FORWARDED_SIGNALS) process.on(signal, handle);
  return state;
}
