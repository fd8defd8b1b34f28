// What `run` records around its command: the settings read and the start created (beside the
// command's start: run.ts decides how long the command waits for it), then every status set after,
// one at a time and in order, so that the last one sent is the last word. Every failure to record is
// said (a warning, or an error with --fail-on-error), a bug of ours too; none ever throws.
import { ConfigError } from '../core/config-error.js';
import { Settings, type DeploymentStatus } from '../core/constants.js';
import { PLACEHOLDER_ID } from '../core/dry-run.js';
import { execute } from '../core/execute.js';
import { describeFinish, describeStart, type Report } from '../core/outcome.js';
import { plan as planFor, type Plan } from '../core/plan.js';
import { setStatusAll } from '../core/service.js';
import type { CommonSettings } from '../core/settings.js';
import { bugLines } from '../core/text.js';
import { withTracker } from '../core/tracker.js';
import type { ParsedArgs } from './args.js';
import type { CliLog } from './log.js';
import { showReport } from './report.js';
import { attemptTimeoutMs, readCommand } from './settings.js';
import { CLI_WORDS, RUN_WORDS } from './source.js';

/** Where the start stands: its settings being read (or git), its create under way, or done (recorded or not). */
type StartState = 'reading' | 'creating' | 'settled';

interface SetOptions {
  /** One attempt, no retries: the run was interrupted, and a CI gives little time after that. */
  oneAttempt: boolean;
  /** Aborted when the CLI is told to stop: no request is tried again. */
  abort?: AbortSignal;
  /** Sends nothing where `status` is the one last recorded already. */
  unlessRecorded?: boolean;
  /** Said first, where there is a deployment to set. */
  note?: string;
}

export interface Recorder {
  /** Settles once the start is recorded or could not be, and has been said. */
  readonly started: Promise<void>;
  startState(): StartState;
  /** Whether the start could not be recorded (or was not, for want of a key). */
  startFailed(): boolean;
  /**
   * Sets the deployments the start left open to `status`, after every set asked for before; whether
   * it could not be recorded (said). Nothing open to set is no failure.
   */
  set(status: DeploymentStatus, options: SetOptions): Promise<boolean>;
}

type Env = Record<string, string | undefined>;

/** What recording calls to plan the start, create it and set a status: the core's, or a test's. */
export interface RecordingSteps {
  plan: typeof planFor;
  execute: typeof execute;
  setStatusAll: typeof setStatusAll;
}

const CORE_STEPS: RecordingSteps = { plan: planFor, execute, setStatusAll };

/** `cancel`: aborted when the run stops before its command starts, so that a create not yet sent never is. */
export function startRecording(
  args: ParsedArgs,
  env: Env,
  log: CliLog,
  startedAt: number,
  cancel: AbortSignal,
  steps: RecordingSteps = CORE_STEPS,
): Recorder {
  let state: StartState = 'reading';
  let failedToStart = false;
  let last: DeploymentStatus | undefined;
  // Read until the start's deadline, or until the run is told to stop (then git's questions end at once).
  const deadline = AbortSignal.any([AbortSignal.timeout(attemptTimeoutMs(args)), cancel]);
  const read = readCommand(args, env, log, { signal: deadline }).then(
    (command) => command,
    (error: unknown) => {
      const lines = error instanceof ConfigError ? error.lines : bugLines('unexpected error', error);
      log.error([...lines, 'Nothing is recorded; the command runs.']);
      failedToStart = true;
      return undefined;
    },
  );
  const creating = read.then(async (command) => {
    if (!command || cancel.aborted) return undefined;
    state = 'creating';
    const plan = steps.plan(command.settings, command.request);
    const start = await create(plan, command.settings, log, startedAt, steps.execute);
    failedToStart = !start || start.failures.length > 0 || (plan.kind === 'nothing' && plan.reason === 'no-key');
    state = 'settled';
    return { settings: command.settings, start };
  });
  // A bug of ours past the create's own catch (in planning it, or in saying how it went, after it may
  // have been recorded): said as create says one, and the start counts as failed, so that the
  // command still runs and the run ends as it should.
  const created = creating.catch((error: unknown) => {
    const lines = bugLines('unexpected error while recording the start', error);
    if (args.settings[Settings.FailOnError] === 'true') log.error(lines);
    else log.warning(lines);
    failedToStart = true;
    state = 'settled';
    return undefined;
  });
  let queue: Promise<unknown> = created;

  return {
    started: created.then(() => undefined),
    startState: () => state,
    startFailed: () => failedToStart,
    set(status, options) {
      const result = queue.then(async (): Promise<boolean> => {
        const started = await created;
        const open = started?.start?.open;
        if (!started || !open || 'note' in open) return false;
        const { settings } = started;
        if (options.note) log.info(options.note);
        if (options.unlessRecorded && last === status) return false;
        const ids = open.ids ?? [PLACEHOLDER_ID];
        const connection = options.oneAttempt ? { ...settings.connection, retries: 0 } : settings.connection;
        const results = await withTracker({ connection, words: settings.words }, log, open.dryRun, (tracker) =>
          steps.setStatusAll(tracker, ids, status, options.abort),
        );
        const report = describeFinish(status, results, {
          dryRun: open.dryRun,
          startedAt: open.dryRun ? 0 : startedAt,
          placeholders: open.dryRun && !open.ids ? open.count : undefined,
          words: CLI_WORDS,
        });
        const failed = showReport(report, settings.failOnError, log);
        if (!failed) last = status;
        return failed;
      });
      const said = result.catch((error: unknown) => {
        log.error(bugLines('unexpected error', error));
        return true;
      });
      queue = said;
      return said;
    },
  };
}

/** Records the start and says how it went; a bug of ours is said as one (undefined), and never thrown. */
async function create(
  plan: Plan,
  settings: CommonSettings,
  log: CliLog,
  startedAt: number,
  executePlan: typeof execute,
): Promise<Report | undefined> {
  let results;
  try {
    // The command starts after one attempt's time (run.ts); an answer that comes in as long again is
    // still taken, so that a slow service's record is finished rather than left STARTED.
    const patient = {
      ...settings,
      connection: { ...settings.connection, timeoutMs: 2 * settings.connection.timeoutMs },
    };
    results = await executePlan(plan, patient, log);
  } catch (error) {
    // A bug of ours deep in a request (none is known): nothing is recorded, and that is said.
    const failure = bugLines('Could not record the deployment: unexpected error', error);
    if (settings.failOnError) log.error(failure);
    else log.warning(failure);
    return undefined;
  }
  const report = describeStart(plan, results, { dryRun: settings.dryRun, startedAt, words: RUN_WORDS });
  showReport(report, settings.failOnError, log);
  return report;
}
