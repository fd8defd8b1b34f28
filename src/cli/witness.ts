// Whether a stop signal the CLI received reached the command too: if it did not (`kill PID`, a
// container's stop), the CLI passes it on; if it did (Ctrl-C, GNU timeout, a CI agent that signals
// the whole process group, Jenkins signalling each process), a second one would make many tools
// (Terraform among them) stop at once. Node cannot tell the two apart, so a "witness" does: a `cat`
// the CLI starts beside the command, in the same process group, with every signal at its default,
// reading a pipe only the CLI writes (so it ends with the CLI). If the witness died of the signal,
// the signal reached the command's group too. A second witness, in a group of its own, tells a
// signal sent to each process of the tree, for a command that left the group (`setsid`).
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
/** The witnesses of each kind one run starts at most (one, and one after each stop signal that kills it). */
export const WITNESS_STARTS = 16;

/**
 * What became of a stop signal the CLI received, for a command in a process group of its own:
 * `reached` it, sent to each process (the tree's witness died of it); `passed-on-already`, the same
 * signal sent to the CLI and to its group (GNU timeout), the group's half passed on; `not-reached`.
 */
export type OutsideReach = 'reached' | 'passed-on-already' | 'not-reached';

export interface Witness {
  /**
   * Whether `signal` reached the command too (the witness died of it lately, or does within
   * WITNESS_WAIT_MS); undefined when no witness runs, and so none can tell.
   */
  alsoReached(signal: NodeJS.Signals): Promise<boolean | undefined>;
  /**
   * The same question for a command that has left the CLI's process group, which a signal sent to
   * the group never reaches: it got `signal` only where it was sent to each process of the tree.
   * Otherwise each death of the group's witness is passed on once, and so is a signal it never died of.
   */
  reachedOutside(signal: NodeJS.Signals): Promise<OutsideReach>;
  /** Ends the witnesses: the command has ended. */
  stop(): void;
}

interface WitnessOptions {
  waitMs?: number;
  windowMs?: number;
  now?: () => number;
  /**
   * A second witness, in a process group of its own, which only a signal sent to each process of the
   * tree reaches (Jenkins, systemd's control group): for a command that has left the group (Linux,
   * where that can be seen).
   */
  tree?: boolean;
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

interface Death {
  signal: NodeJS.Signals | null;
  at: number;
  /** Taken to mean that the signal is passed on to a command outside the group: once per death. */
  claimed: boolean;
}

/** A `cat` running `program`, in the CLI's process group or in one of its own, started again after each death. */
function watcher(program: string, ownGroup: boolean, now: () => number, onDeath: () => void) {
  const deaths: Death[] = [];
  let current: ChildProcess | undefined;
  let starts = 0;

  function start(): void {
    current = undefined;
    if (starts >= WITNESS_STARTS) return;
    starts += 1;
    let child: ChildProcess;
    try {
      // Its stdin is the pipe that ends it; nothing of the CLI's stdio reaches it.
      child = spawn(program, [], { stdio: ['pipe', 'ignore', 'ignore'], detached: ownGroup });
    } catch {
      return;
    }
    current = child;
    // A witness that cannot start (removed since it was found) tells nothing.
    child.once('error', () => (current = undefined));
    child.once('exit', (_code, signal) => {
      deaths.push({ signal, at: now(), claimed: false });
      onDeath();
      if (current === child) start();
    });
  }
  start();

  return {
    deaths,
    running: () => current !== undefined,
    stop() {
      const child = current;
      current = undefined;
      child?.kill('SIGKILL');
    },
  };
}

/** A witness running `program` (witnessProgram's); one that tells nothing where there is none. */
export function startWitness(program: string | undefined, options: WitnessOptions = {}): Witness {
  const { waitMs = WITNESS_WAIT_MS, windowMs = WITNESS_WINDOW_MS, now = Date.now } = options;
  const wakers = new Set<() => void>();
  const wake = () => {
    for (const waker of wakers) waker();
  };
  const inGroup = program === undefined ? undefined : watcher(program, false, now, wake);
  const ofTree = program === undefined || !options.tree ? undefined : watcher(program, true, now, wake);
  /** The deaths of `signal` that count now. */
  const recent = (deaths: Death[] | undefined, signal: NodeJS.Signals) =>
    (deaths ?? []).filter((death) => death.signal === signal && death.at >= now() - windowMs);

  /** Whether `done()` holds, now or within waitMs (each death asks again). */
  function within(done: () => boolean): Promise<boolean> {
    if (done()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => settle(false), waitMs);
      const waker = () => {
        if (done()) settle(true);
      };
      function settle(reached: boolean) {
        clearTimeout(timer);
        wakers.delete(waker);
        resolve(reached);
      }
      wakers.add(waker);
    });
  }

  return {
    alsoReached(signal) {
      const diedOf = () => recent(inGroup?.deaths, signal).length > 0;
      if (diedOf()) return Promise.resolve(true);
      if (!inGroup?.running()) return Promise.resolve(undefined);
      return within(diedOf);
    },
    async reachedOutside(signal) {
      const toEachProcess = () => recent(ofTree?.deaths, signal).length > 0;
      // Either witness may die of it a moment after the CLI got it (the order is the scheduler's).
      if (inGroup?.running() || ofTree?.running()) await within(toEachProcess);
      if (toEachProcess()) return 'reached';
      const toGroup = recent(inGroup?.deaths, signal);
      const unclaimed = toGroup.find((death) => !death.claimed);
      if (unclaimed) {
        unclaimed.claimed = true;
        return 'not-reached';
      }
      // The group's death was claimed by the same signal sent to the CLI too: one signal, passed on once.
      return toGroup.length > 0 ? 'passed-on-already' : 'not-reached';
    },
    stop() {
      inGroup?.stop();
      ofTree?.stop();
    },
  };
}
