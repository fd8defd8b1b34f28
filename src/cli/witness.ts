// Whether a stop signal the CLI received reached the command too. The command runs in the CLI's
// process group and tree, so that whatever a CI does to the job (SIGKILL to the group or to each
// process) reaches it. Then a signal sent to the CLI alone (`kill PID`, a container's stop) must be
// passed on, and one sent to the whole group (a terminal's Ctrl-C, GNU timeout, `kill -- -PGID`,
// GitLab's and Buildkite's agents) or to each process of the tree (Jenkins) must not: the command
// has it already, and a second SIGINT or SIGTERM makes many tools (Terraform among them) stop at once.
// Node cannot tell the two apart, so a witness does: a child of the CLI beside the command, in the
// same group and tree, holding every default disposition (libuv resets them in a child): `cat` reading
// a pipe only the CLI writes, which also ends it when the CLI ends, however it ends. A signal the
// witness died of reached the command too. It is started again after each death (a second Ctrl-C).

import { spawn, type ChildProcess } from 'node:child_process';
import { delimiter } from 'node:path';
import { resolveCommand } from './find-command.js';

/**
 * How long the CLI waits for the witness to die of a signal sent to the group: it dies within a few
 * milliseconds even on a loaded machine, and a signal sent to the CLI alone is passed on this late.
 */
export const WITNESS_WAIT_MS = 250;
/**
 * How long a death of the witness counts for a signal the CLI receives later: Jenkins signals each
 * process of the tree, children first, waiting for each to end (5 s by default) before the next.
 */
export const WITNESS_WINDOW_MS = 10_000;
/** The witnesses one run starts at most (one, and one after each stop signal the group gets). */
export const WITNESS_STARTS = 16;

export interface Witness {
  /**
   * Whether `signal` reached the command too (the witness died of it lately, or does within
   * WITNESS_WAIT_MS); undefined when no witness runs, and so none can tell.
   */
  alsoReached(signal: NodeJS.Signals): Promise<boolean | undefined>;
  /** Ends the witness: the command has ended. */
  stop(): void;
}

export interface WitnessOptions {
  waitMs?: number;
  windowMs?: number;
  now?: () => number;
}

/**
 * `cat` in a folder of PATH, or where systems keep it (never the current folder: an empty PATH entry
 * is skipped); undefined where there is none, and on Windows, which has no process groups.
 */
export function witnessProgram(
  path: string,
  platform: NodeJS.Platform = process.platform,
  systemFolders = ['/usr/bin', '/bin'],
): string | undefined {
  if (platform === 'win32') return undefined;
  const folders = [...path.split(delimiter), ...systemFolders].filter((folder) => folder !== '');
  try {
    return resolveCommand('cat', folders.join(delimiter));
  } catch {
    // None: undefined.
  }
}

/** A witness running `program` (witnessProgram's); one that tells nothing where there is none. */
export function startWitness(program: string | undefined, options: WitnessOptions = {}): Witness {
  const { waitMs = WITNESS_WAIT_MS, windowMs = WITNESS_WINDOW_MS, now = Date.now } = options;
  const deaths: { signal: NodeJS.Signals | null; at: number }[] = [];
  const wakers = new Set<() => void>();
  let current: ChildProcess | undefined;
  let starts = 0;

  function start(from: string): void {
    current = undefined;
    if (starts >= WITNESS_STARTS) return;
    starts += 1;
    let child: ChildProcess;
    try {
      // Its stdin is the pipe that ends it; nothing of the CLI's stdio reaches it.
      child = spawn(from, [], { stdio: ['pipe', 'ignore', 'ignore'] });
    } catch {
      return;
    }
    current = child;
    // A witness that cannot start (removed since it was found) tells nothing.
    child.once('error', () => (current = undefined));
    child.once('exit', (_code, signal) => {
      deaths.push({ signal, at: now() });
      for (const wake of wakers) wake();
      if (current === child) start(from);
    });
  }
  if (program !== undefined) start(program);

  return {
    alsoReached(signal) {
      const since = now() - windowMs;
      const diedOf = () => deaths.some((death) => death.signal === signal && death.at >= since);
      if (diedOf()) return Promise.resolve(true);
      if (!current) return Promise.resolve(undefined);
      return new Promise((resolve) => {
        const timer = setTimeout(() => settle(false), waitMs);
        const wake = () => {
          if (diedOf()) settle(true);
        };
        function settle(reached: boolean) {
          clearTimeout(timer);
          wakers.delete(wake);
          resolve(reached);
        }
        wakers.add(wake);
      });
    },
    stop() {
      const child = current;
      current = undefined;
      child?.kill('SIGKILL');
    },
  };
}
