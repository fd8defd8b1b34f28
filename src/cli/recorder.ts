// What `run` records around its command: the settings read and the start created (beside the
// command's start: run.ts decides how long the command waits for it), then every status set after,
// one at a time and in order, so that the last one sent is the last word. Every failure to record is
// said (a warning, or an error with --fail-on-error), a bug of ours too; none ever throws.
import { ConfigError } from '../core/config-error.js';
import type { DeploymentStatus } from '../core/constants.js';
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
import { readCommand } from './settings.js';
import { CLI_WORDING, RUN_WORDING } from './source.js';

/** Where the start stands: its settings being read (or git), its create under way, or settled. */
export type StartState = 'reading' | 'creating' | 'settled';

/** What setting a status came to: sent and recorded, not recorded (said), or nothing open to set. */
export type SetResult = 'recorded' | 'failed' | 'none';

export interface SetOptions {
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
  /** The settings, once read; undefined where they are bad (said as an error). */
  readonly settings: Promise<CommonSettings | undefined>;
  /** Settles once the start is recorded or could not be, and has been said. */
  readonly started: Promise<void>;
  startState(): StartState;
  /** Whether the start could not be recorded (or was not, for want of a key). */
  startFailed(): boolean;
  /** The status last recorded on the open deployments, if any was. */
  recorded(): DeploymentStatus | undefined;
  /** Sets the deployments the start left open to `status`, after every set asked for before. */
  set(status: DeploymentStatus, options: SetOptions): Promise<SetResult>;
}

type Env = Record<string, string | undefined>;

export function startRecording(args: ParsedArgs, env: Env, log: CliLog, startedAt: number): Recorder {
  let state: StartState = 'reading';
  let failedToStart = false;
  let last: DeploymentStatus | undefined;
  const read = readCommand(args, env, log).then(
    (command) => command,
    (error: unknown) => {
      const lines = error instanceof ConfigError ? error.lines : bugLines('unexpected error', error);
      log.error([...lines, 'Nothing is recorded; the command runs.']);
      failedToStart = true;
      return undefined;
    },
  );
  const settings = read.then((command) => command?.settings);
  const created = read.then(async (command) => {
    if (!command) return undefined;
    state = 'creating';
    const plan = planFor(command.settings, command.request);
    const start = await create(plan, command.settings, log, startedAt);
    failedToStart = start.failures.length > 0 || (plan.kind === 'nothing' && plan.reason === 'no-key');
    return { plan, settings: command.settings, start };
  });
  void created.finally(() => (state = 'settled'));
  let queue: Promise<unknown> = created;

  return {
    settings,
    started: created.then(() => undefined),
    startState: () => state,
    startFailed: () => failedToStart,
    recorded: () => last,
    set(status, options) {
      const result = queue.then(async (): Promise<SetResult> => {
        const started = await created;
        const open = started?.start.open;
        if (!started || !open || 'note' in open) return 'none';
        const { settings: given } = started;
        if (options.note) log.info(options.note);
        if (options.unlessRecorded && last === status) return 'recorded';
        const ids = open.ids ?? [PLACEHOLDER_ID];
        const connection = options.oneAttempt ? { ...given.connection, retries: 0 } : given.connection;
        const dryRun = given.dryRun || open.dryRun;
        const results = await withTracker(connection, log, dryRun, (tracker) =>
          setStatusAll(tracker, ids, status, options.abort),
        );
        const report = describeFinish(status, results, {
          dryRun,
          startedAt: open.dryRun ? 0 : startedAt,
          placeholders: open.dryRun && !open.ids ? open.count : undefined,
          wording: CLI_WORDING,
        });
        if (showReport(report, given.failOnError, log)) return 'failed';
        last = status;
        return 'recorded';
      });
      const said = result.catch((error: unknown): SetResult => {
        log.error(bugLines('unexpected error', error));
        return 'failed';
      });
      queue = said;
      return said;
    },
  };
}

/** Records the start and says how it went; a bug of ours is said as one, and never thrown. */
async function create(plan: Plan, settings: CommonSettings, log: CliLog, startedAt: number): Promise<Report> {
  let report: Report;
  try {
    const results = await execute(plan, settings, log);
    report = describeStart(plan, results, { dryRun: settings.dryRun, startedAt, wording: RUN_WORDING });
  } catch (error) {
    // Thrown from deep in the HTTP stack (a proxy URL undici refuses): nothing is recorded, and that is said.
    const failure = bugLines('Could not record the deployment: unexpected error', error);
    report = { lines: [], failures: [failure], recorded: [], ids: [], status: '' };
  }
  showReport(report, settings.failOnError, log);
  return report;
}
