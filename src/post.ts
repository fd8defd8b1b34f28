// The post step: the main step's handoff + the job status -> SUCCEEDED or FAILED -> report.
import { ConfigError } from './config-error.js';
import { dryRunPost } from './dry-run.js';
import { readHandoff } from './handoff.js';
import type { Log } from './log.js';
import { reportPost } from './report.js';
import { setStatusAll, withTracker } from './service.js';
import { deploymentStatusOfJob, readSettings, type Settings } from './settings.js';
import { readInput } from './step.js';

export async function run(log: Log): Promise<void> {
  const handoff = readHandoff();
  if (handoff.kind !== 'finish' && handoff.kind !== 'finish-dry-run') {
    return reportPost({ kind: 'nothing', handoff }, false, log);
  }
  let settings: Settings;
  try {
    settings = readSettings(readInput, process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return reportPost({ kind: 'config-error', error }, false, log);
  }
  const { connection, failOnError, jobStatus } = settings;
  const status = deploymentStatusOfJob(jobStatus);
  if (!status) return reportPost({ kind: 'unknown-job-status', jobStatus, handoff }, failOnError, log);
  if (settings.dryRun || handoff.kind === 'finish-dry-run') {
    return reportPost(dryRunPost(handoff, status, connection), failOnError, log);
  }
  const results = await withTracker(connection, log, (tracker) => setStatusAll(tracker, handoff.ids, status));
  reportPost({ kind: 'finished', status, results, startedAt: handoff.startedAt }, failOnError, log);
}
