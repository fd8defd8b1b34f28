// The event that started the workflow, read through @actions/github's Context. Broken runner data
// (no event file, a file that is not JSON) is not a crash: the defaults then come from the GITHUB_*
// variables alone, and the log says so in one line.
import { statSync } from 'node:fs';
import { Limits } from './constants.js';
import type { GitHubContext } from './context.js';
import type { Log } from './log.js';

export async function readGitHubContext(
  env: Record<string, string | undefined>,
  checkRunId: string,
  log: Log,
): Promise<GitHubContext> {
  return {
    eventName: env.GITHUB_EVENT_NAME ?? '',
    payload: await readPayload(env.GITHUB_EVENT_PATH, log),
    env,
    checkRunId,
  };
}

async function readPayload(path: string | undefined, log: Log): Promise<unknown> {
  const fallback = 'the defaults come from the GITHUB_* variables alone';
  // Context would print its own line for a missing file, and wait forever on a pipe: say what is
  // wrong with the file instead, before it is read.
  const problem = path ? eventFileProblem(path) : undefined;
  if (problem) {
    log.warning(`The event file (GITHUB_EVENT_PATH) ${problem}: ${fallback}.`);
    return {};
  }
  let payload: unknown;
  try {
    // Constructed for each read, so it sees the file as it is now.
    const { Context } = await import('./github-context.js');
    payload = new Context().payload;
  } catch (error) {
    log.warning(`The event file (GITHUB_EVENT_PATH) could not be read (${errorName(error)}): ${fallback}.`);
    return {};
  }
  // A field of the wrong type is ignored where it is read (context.ts); no object at all is said here.
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    log.warning(`The event file (GITHUB_EVENT_PATH) holds no JSON object: ${fallback}.`);
    return {};
  }
  return payload;
}

function eventFileProblem(path: string): string | undefined {
  const stats = statSync(path, { throwIfNoEntry: false });
  if (!stats) return 'does not exist';
  if (!stats.isFile()) return 'is not a file';
  if (stats.size > Limits.eventFileBytes) return `is over ${Limits.eventFileBytes / 1024 / 1024} MiB`;
  return undefined;
}

function errorName(error: unknown): string {
  return error instanceof SyntaxError ? 'it is not JSON' : error instanceof Error ? error.message : String(error);
}
