// What the git repository a process runs in says: its HEAD commit, the branch checked out, the
// user's name. git runs only when asked, and node:child_process loads then too (about 7 ms that a
// CI build whose variables say everything never pays). Bounded in time; any failure (no git, no
// repository, no commit yet, a detached HEAD) is no value, said in a debug line.
import { delimiter } from 'node:path';
import type { Log } from '../core/log.js';
import type { Env } from './variables.js';

const TIMEOUT_MS = 5_000;
/** More than a commit, a branch or a name take; a longer answer is no answer. */
const MAX_OUTPUT_BYTES = 64 * 1024;
/** PATH_MAX on macOS (Linux: 4096): a PATH entry this long can hold no git. */
const MAX_PATH_ENTRY_BYTES = 1024;

export interface GitOptions {
  cwd: string;
  /** The environment git runs with: the one the defaults are read from, GIT_DIR and its kin included. */
  env: Env;
  log: Pick<Log, 'debug'>;
}

/** The commit HEAD points at. */
export function headCommit(options: GitOptions): Promise<string> {
  return git(['rev-parse', '--verify', '-q', 'HEAD'], options);
}

/** The branch checked out; '' on a detached HEAD. */
export function currentBranch(options: GitOptions): Promise<string> {
  return git(['symbolic-ref', '--short', '-q', 'HEAD'], options);
}

/** user.name as git's configuration (the repository's, the user's, the system's) sets it. */
export function configuredUserName(options: GitOptions): Promise<string> {
  return git(['config', '--get', 'user.name'], options);
}

/** git's output without its final line break; '' when git fails, or is not there. */
async function git(args: string[], { cwd, env, log }: GitOptions): Promise<string> {
  const { execFileSync } = await import('node:child_process');
  try {
    const output = execFileSync('git', args, {
      cwd,
      env: spawnableEnv(env),
      encoding: 'utf8',
      timeout: TIMEOUT_MS,
      maxBuffer: MAX_OUTPUT_BYTES,
      stdio: ['ignore', 'pipe', 'ignore'],
      windowsHide: true,
    });
    return output.replace(/\r?\n$/, '');
  } catch (error) {
    log.debug(`git ${args.join(' ')} gave nothing: ${reason(error)}.`);
    return '';
  }
}

/**
 * `env` with a PATH Node can spawn with. A PATH that is one entry of 4096 bytes or more makes
 * Node's spawn never return, its timeout included (libuv 1.46 in Node 20, 1.52 in Node 24: no
 * child is left to time out). Entries that long are left out: no git could be found in them anyway.
 */
export function spawnableEnv(env: Env): Env {
  const path = env.PATH;
  if (path === undefined) return env;
  const entries = path.split(delimiter);
  const kept = entries.filter((entry) => Buffer.byteLength(entry) < MAX_PATH_ENTRY_BYTES);
  return kept.length === entries.length ? env : { ...env, PATH: kept.join(delimiter) };
}

function reason(error: unknown): string {
  const { code, status } = (error ?? {}) as { code?: unknown; status?: unknown };
  if (typeof code === 'string') return code === 'ETIMEDOUT' ? `no answer in ${TIMEOUT_MS / 1000} s` : code;
  return typeof status === 'number' ? `exit status ${status}` : 'it failed';
}
