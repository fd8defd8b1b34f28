// What the git repository a process runs in says: its HEAD commit, the branch checked out, the
// user's name, a commit's author. git runs only when asked, and node:child_process loads then too
// (about 7 ms that a CI build whose variables say everything never pays). Never in the way: git runs
// as a child the event loop does not wait on (signals are handled, timers fire), each call bounded
// in time and by the caller's deadline (its AbortSignal), killed with SIGKILL then and never awaited
// past it: a git stuck on a hung network mount may never exit, nor close its pipes, whatever it is
// sent. Any failure (no git, no repository, no commit yet, a detached HEAD, a refusal) is no value,
// said in a debug line with git's own words; a refusal's gist is kept for the message of a field
// that is missing because of it.
import type { ChildProcess } from 'node:child_process';
import { delimiter } from 'node:path';
import type { Log } from '../core/log.js';
import { shorten } from '../core/text.js';
import type { Env } from './variables.js';

const TIMEOUT_MS = 5_000;
/** More than a commit, a branch or a name take; a longer answer is no answer. */
const MAX_OUTPUT_BYTES = 64 * 1024;
/** Of git's stderr, what is kept for the debug line (a refusal says itself in a few lines). */
const MAX_STDERR_BYTES = 4 * 1024;
/** Characters of a refusal's gist in a configuration error. */
const MAX_GIST_LENGTH = 200;
/** PATH_MAX on macOS (Linux: 4096): a PATH entry this long can hold no git. */
const MAX_PATH_ENTRY_BYTES = 1024;

export interface GitOptions {
  cwd: string;
  /** The environment git runs with: the one the defaults are read from, GIT_DIR and its kin included. */
  env: Env;
  log: Pick<Log, 'debug'>;
  /** The deadline: once aborted, git is killed and no call waits on it (nor starts). */
  signal?: AbortSignal;
  /** Each call's own bound; default 5 s. */
  timeoutMs?: number;
}

/** What git said: its output ('' for none), and, where it refused or gave no answer, why in a line. */
export interface GitAnswer {
  output: string;
  /** e.g. "detected dubious ownership in repository at '/work'", "no answer in 5 s". */
  refusal?: string;
}

/** The commit HEAD points at. */
export function headCommit(options: GitOptions): Promise<GitAnswer> {
  return git(['rev-parse', '--verify', '-q', 'HEAD'], options);
}

/** The branch checked out; '' on a detached HEAD. */
export function currentBranch(options: GitOptions): Promise<GitAnswer> {
  return git(['symbolic-ref', '--short', '-q', 'HEAD'], options);
}

/** user.name as git's configuration (the repository's, the user's, the system's) sets it. */
export function configuredUserName(options: GitOptions): Promise<GitAnswer> {
  return git(['config', '--get', 'user.name'], options);
}

/** An object name git is asked about: hex only, so that it can never be read as an option. */
const OBJECT_NAME = /^[0-9a-f]{4,64}$/i;

/** The name of `sha`'s author as the commit records it (no mailmap); '' when git does not have it. */
export function commitAuthor(sha: string, options: GitOptions): Promise<GitAnswer> {
  if (!OBJECT_NAME.test(sha)) return Promise.resolve({ output: '' });
  // No signature is checked: that would run gpg, whichever program the configuration names.
  return git(['log', '-1', '--no-show-signature', '--format=%an', sha, '--'], options);
}

/** git's output without its final line break; '' when git fails, or is not there. */
async function git(args: string[], { cwd, env, log, signal, timeoutMs = TIMEOUT_MS }: GitOptions): Promise<GitAnswer> {
  const command = `git ${args.join(' ')}`;
  const said = (answer: GitAnswer, why?: string, stderr = '') => {
    if (why !== undefined) log.debug(gitDebugLines(command, why, stderr));
    return answer;
  };
  if (signal?.aborted) return said(noAnswer(DEADLINE), DEADLINE);
  const { spawn } = await import('node:child_process');
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = spawn('git', args, {
        cwd,
        env: spawnableEnv(env),
        stdio: ['ignore', 'pipe', 'pipe'],
        windowsHide: true,
      });
    } catch (error) {
      resolve(said({ output: '' }, reason(error)));
      return;
    }
    const stdout = new Bounded(MAX_OUTPUT_BYTES);
    const stderr = new Bounded(MAX_STDERR_BYTES);
    let settled = false;
    const settle = (answer: GitAnswer, why?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onDeadline);
      resolve(said(answer, why, stderr.text()));
    };
    /** Ends it for good, without waiting on it: its 'exit' and 'close' may never come. */
    const abandon = (why: string) => {
      child.kill('SIGKILL');
      child.stdout?.destroy();
      child.stderr?.destroy();
      child.unref();
      settle(noAnswer(why), why);
    };
    const onDeadline = () => abandon(DEADLINE);
    const timer = setTimeout(() => abandon(`no answer in ${timeoutMs / 1000} s`), timeoutMs);
    signal?.addEventListener('abort', onDeadline, { once: true });
    child.stdout?.on('data', (chunk: Buffer) => {
      if (!stdout.add(chunk)) abandon(`an answer over ${MAX_OUTPUT_BYTES / 1024} KiB`);
    });
    child.stderr?.on('data', (chunk: Buffer) => void stderr.add(chunk));
    // Not found, or not startable (a folder that does not exist): no value.
    child.on('error', (error) => settle({ output: '' }, reason(error)));
    child.on('close', (code, killedBy) => {
      if (code === 0) return settle({ output: stdout.text().replace(/\r?\n$/, '') });
      const refusal = gistOf(stderr.text());
      const status = killedBy ? `killed by ${killedBy}` : `exit status ${String(code)}`;
      settle(refusal ? { output: '', refusal } : { output: '' }, status);
    });
  });
}

const DEADLINE = 'no answer before the deadline';

function noAnswer(why: string): GitAnswer {
  return { output: '', refusal: `git gave ${why}` };
}

/** The first bytes of a stream, and whether it went past them. */
class Bounded {
  readonly #max: number;
  readonly #chunks: Buffer[] = [];
  #size = 0;
  constructor(max: number) {
    this.#max = max;
  }
  /** Whether the stream is still within the bound. */
  add(chunk: Buffer): boolean {
    const room = this.#max - this.#size;
    if (room > 0) this.#chunks.push(chunk.subarray(0, room));
    this.#size += chunk.length;
    return this.#size <= this.#max;
  }
  text(): string {
    return Buffer.concat(this.#chunks).toString('utf8');
  }
}

/**
 * What git's stderr says, in a line: its first line without `fatal: ` (e.g. "detected dubious
 * ownership in repository at '/work'"). Nothing for what the message already says (no repository
 * here), nor for a git that refused in silence (`-q`: no commit yet, a detached HEAD).
 */
export function gistOf(stderr: string): string | undefined {
  const first = stderr.split(/\r?\n/).find((line) => line.trim() !== '');
  if (first === undefined || /not a git repository/i.test(first)) return undefined;
  return `git: ${shorten(first.trim().replace(/^(?:fatal|error): /i, ''), MAX_GIST_LENGTH)}`;
}

/** The debug line of a call that gave nothing, and git's own words (what the debug log shows, bounded). */
function gitDebugLines(command: string, why: string, stderr: string): string[] {
  const said = stderr.split(/\r?\n/).filter((line) => line.trim() !== '');
  return [`${command} gave nothing: ${why}.`, ...said.map((line) => `  git: ${line}`)];
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
  const { code } = (error ?? {}) as { code?: unknown };
  return typeof code === 'string' ? code : 'it failed';
}
