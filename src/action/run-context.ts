// The workflow run this step is part of: its GITHUB_* variables, its event, its job's id.
import { readEventFile } from '../ci/event-file.js';
import type { GitHubContext } from '../ci/github.js';
import type { Log } from '../core/log.js';
import { readInput } from './inputs.js';
import { Internal } from './names.js';

export function readGitHubContext(log: Log): GitHubContext {
  const { env } = process;
  return {
    eventName: env.GITHUB_EVENT_NAME ?? '',
    payload: readEventFile(env.GITHUB_EVENT_PATH, log),
    env,
    checkRunId: readInput(Internal.JobCheckRunId),
  };
}
