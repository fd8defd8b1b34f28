// `run -- <command>`: records STARTED, runs the command, records how it ended. Reporting never
// decides the command's fate: any problem with the settings or the service is said on stderr, and
// the command runs and keeps its exit code. It starts once the create has an answer, or one
// attempt's timeout after the CLI did, whichever comes first. A stop signal before the command
// starts: it never does, a create on its way is waited for (INTERRUPTED_WAIT_MS) and set FAILED, and
// the CLI ends by that signal. While it runs: the signal is passed on once where it did not reach the
// command already (wrap.ts), and the run is set FAILED at once, so that a CI that kills the job
// leaves nothing STARTED; the command's own exit still has the last word. Once told to stop, the
// CLI waits on the service at most INTERRUPTED_WAIT_MS more.
import { setTimeout as delay } from 'node:timers/promises';
import { Settings, type DeploymentStatus } from '../core/constants.js';
import type { ParsedArgs } from './args.js';
import type { CliLog } from './log.js';
import { startRecording, type Recorder, type RecordingSteps } from './recorder.js';
import { attemptTimeoutMs } from './settings.js';
import { isStopSignal, listenForStopSignals, type SignalSource, type StopSignal, type StopSignals } from './signals.js';
import type { Witness } from './witness.js';
import { exitCodeOf, startCommand, type Relay } from './wrap.js';

/** How long the CLI still waits on the service once told to stop. */
export const INTERRUPTED_WAIT_MS = 3_000;

type Env = Record<string, string | undefined>;

/** What a test may put in place of the process's own: its signals, its terminal, the command's witness, the wait. */
interface RunOptions {
  signals?: SignalSource;
  interactive?: boolean;
  witness?: Witness;
  interruptedWaitMs?: number;
  /**
   * Told the stop signal the run ended by, where the CLI should end by it too (index.ts): the
   * command died of it, or it came before the command started. Not where the command exited on
   * its own after a signal (a tool that stops cleanly on SIGINT and exits 130 or 0).
   */
  endedBy?: (signal: StopSignal) => void;
  /** What recording calls (a test's, to make one throw as a bug would). */
  steps?: RecordingSteps;
}

export async function runWrapped(args: ParsedArgs, env: Env, log: CliLog, options: RunOptions = {}): Promise<number> {
  const startedAt = Date.now();
  const stops = listenForStopSignals(options.signals);
  const notStarting = new AbortController();
  const deadlineOver = new AbortController();
  try {
    // Reading the settings and the CI (git) is bounded too: the command does not wait past its deadline.
    const recorder = startRecording(args, env, log, startedAt, notStarting.signal, options.steps);
    const waitForStart = Math.max(0, startedAt + attemptTimeoutMs(args) - Date.now());
    // Its timer cleared once the race is over: nothing keeps the process up for it.
    const deadline = delay(waitForStart, undefined, { signal: deadlineOver.signal }).catch(() => undefined);
    await Promise.race([recorder.started, deadline, stops.first]);
    deadlineOver.abort();
    const waitMs = options.interruptedWaitMs ?? INTERRUPTED_WAIT_MS;
    if (stops.received) {
      notStarting.abort();
      options.endedBy?.(stops.received);
      return await stopBeforeStart(stops.received, recorder, log, waitMs);
    }
    return await runCommand(args, recorder, stops, log, { ...options, interruptedWaitMs: waitMs });
  } finally {
    stops.stop();
  }
}

/**
 * Interrupted before the command started: it never does. A create on its way is given the short wait
 * the CLI allows itself after a signal: its answer taken, the deployment is set FAILED, not left STARTED.
 */
async function stopBeforeStart(signal: StopSignal, recorder: Recorder, log: CliLog, waitMs: number): Promise<number> {
  log.warning(`${signal} received before the command started, so it is not run.`);
  const cut = cutter(waitMs);
  cut.arm();
  try {
    if (recorder.startState() === 'creating' && (await Promise.race([recorder.started, cut.reached])) === 'cut') {
      log.warning(
        `The request recording its start had no answer ${waitMs / 1000} s after ${signal}: if the service received it, the deployment shows STARTED.`,
      );
    } else if (recorder.startState() === 'settled') {
      // Recorded (the command was about to start, or the create answered in time): never left STARTED.
      await Promise.race([recorder.set('FAILED', { oneAttempt: true }), cut.reached]);
    }
  } finally {
    cut.disarm();
  }
  return exitCodeOf({ kind: 'signalled', signal });
}

async function runCommand(
  args: ParsedArgs,
  recorder: Recorder,
  stops: StopSignals,
  log: CliLog,
  options: RunOptions & { interruptedWaitMs: number },
): Promise<number> {
  const waitMs = options.interruptedWaitMs;
  // args.ts refuses a run with no command.
  const [command, ...commandArgs] = args.wrapped as [string, ...string[]];
  const wrapped = startCommand(command, commandArgs, {
    interactive: options.interactive ?? isInteractive(),
    witness: options.witness,
  });
  let interruptedBy: StopSignal | undefined;
  let ended = false;
  /** What became of each signal, said once decided (within the witness's wait, witness.ts): waited for before the end. */
  const said: Promise<void>[] = [];
  const stopAsking = new AbortController();
  const cut = cutter(waitMs);
  stops.onEach((signal) => {
    if (ended) {
      if (!stopAsking.signal.aborted) {
        log.info(
          `${signal} received: no request is tried again, and the service is waited for ${waitMs / 1000} s at most.`,
        );
      }
      stopAsking.abort();
      cut.arm();
      return;
    }
    said.push(wrapped.relay(signal).then((relay) => log.info(relayLine(signal, relay))));
    if (interruptedBy) return;
    interruptedBy = signal;
    void recorder.set('FAILED', { oneAttempt: true });
  });

  const ending = await wrapped.ended;
  ended = true;
  if (ending.kind === 'not-started') log.error(`${ending.reason}.`);
  if (ending.kind === 'signalled' && isStopSignal(ending.signal)) options.endedBy?.(ending.signal);
  const code = exitCodeOf(ending);
  const status: DeploymentStatus = code === 0 ? 'SUCCEEDED' : 'FAILED';
  // After a signal the CI is stopping the job: its grace period is short.
  if (interruptedBy) cut.arm();
  const note = interruptedBy && afterInterruption(code, interruptedBy);
  const finished = recorder.set(status, {
    oneAttempt: interruptedBy !== undefined,
    abort: stopAsking.signal,
    unlessRecorded: true,
    note,
  });
  const result = await Promise.race([finished, cut.reached]);
  cut.disarm();
  if (result === 'cut') {
    log.warning(
      `Stopped waiting for the service ${waitMs / 1000} s after being told to stop: the deployment may not show how the command ended.`,
    );
  }
  // A command that died of the signal at once ends the run before the witness has answered: said all the same.
  await Promise.all(said);
  const notRecorded = recorder.startFailed() || result !== false;
  // --fail-on-error may turn a success into a failure, never a failure into a success.
  return code === 0 && notRecorded && args.settings[Settings.FailOnError] === 'true' ? 1 : code;
}

/** What the last word is, said where a signal came first. */
function afterInterruption(code: number, signal: StopSignal): string {
  return code === 0
    ? `The command ended with exit code 0 after ${signal}, so the deployment is set to SUCCEEDED after all.`
    : `The command ended with exit code ${code} after ${signal}, so the deployment is FAILED.`;
}

/** The line that says what became of a stop signal. */
export function relayLine(signal: StopSignal, relay: Relay): string {
  switch (relay) {
    case 'passed-on':
      return `${signal} received: passed on to the command.`;
    case 'own-group':
      return `${signal} received: passed on to the command, which runs in a process group of its own (what is sent to the CLI's group does not reach it).`;
    case 'passed-on-already':
      return `${signal} received: passed on to the command once already (it was sent to the CLI and to its process group alike), so not again.`;
    case 'reached':
      return `${signal} received: the command got it too (sent to the whole process group, or to each process), so it is not passed on again.`;
    case 'terminal':
      return `${signal} received: in a terminal, the terminal sends it to the command too, so it is not passed on again.`;
    case 'console':
      return `${signal} received: Windows sends it to every process of the console, the command included, so it is not passed on again.`;
    case 'ended':
      return `${signal} received: the command has ended.`;
  }
}

/** A deadline armed once (by the first call of arm()), `ms` later. */
function cutter(ms: number) {
  let timer: NodeJS.Timeout | undefined;
  let reach: (value: 'cut') => void = () => undefined;
  const reached = new Promise<'cut'>((resolve) => (reach = resolve));
  return {
    reached,
    arm() {
      timer ??= setTimeout(() => reach('cut'), ms);
    },
    disarm() {
      clearTimeout(timer);
    },
  };
}

/** Whether the CLI runs in a terminal (then, where no witness runs, the terminal is taken to signal the command itself). */
export function isInteractive(stdio: Record<'stdin' | 'stdout' | 'stderr', { isTTY?: boolean }> = process): boolean {
  return Boolean(stdio.stdin.isTTY || stdio.stdout.isTTY || stdio.stderr.isTTY);
}
