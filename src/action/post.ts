// The post step: the main step's handoff + the job status -> SUCCEEDED or FAILED -> what the runner
// sees. It reads only the settings it needs to reach the service.
import { PLACEHOLDER_ID } from '../core/dry-run.js';
import { ConfigError } from '../core/config-error.js';
import { describeFinish } from '../core/outcome.js';
import { setStatusAll } from '../core/service.js';
import { readSettings, type CommonSettings } from '../core/settings.js';
import { finalStatus } from '../core/status.js';
import { withTracker } from '../core/tracker.js';
import { readHandoff } from './handoff.js';
import { inputSettings, readInput } from './inputs.js';
import { ACTION_WORDS } from './words.js';
import type { ActionLog } from './log.js';
import { Internal } from './names.js';
import { reportConfigError, reportFinish, reportNothingOpen, reportUnknownJobStatus } from './report.js';
import { readGitHubContext } from './run-context.js';

export async function run(log: ActionLog): Promise<void> {
  const open = readHandoff();
  if (!('dryRun' in open)) return reportNothingOpen(open, log);
  let settings: CommonSettings;
  try {
    settings = readSettings(
      inputSettings(() => readGitHubContext(log)),
      process.env,
    );
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return reportConfigError(error, 'post', log);
  }
  const jobStatus = readInput(Internal.JobStatus);
  const status = finalStatus(jobStatus);
  if (!status) return reportUnknownJobStatus(jobStatus, open, log);
  const dryRun = settings.dryRun || open.dryRun;
  // A dry-run main step created none: one update shows what each of them would get.
  const ids = open.ids ?? [PLACEHOLDER_ID];
  const results = await withTracker(settings, log, dryRun, (tracker) => setStatusAll(tracker, ids, status));
  const report = describeFinish(status, results, {
    dryRun,
    startedAt: open.dryRun ? 0 : open.startedAt,
    placeholders: open.dryRun && !open.ids ? open.count : undefined,
    words: ACTION_WORDS,
  });
  reportFinish(report, settings.failOnError, log);
}
