// Processes as the CLI's signal tests see them, through /proc (Linux): whether one runs, the tree
// under one, and the count fixture's pid once it is ready.
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** A process's state letter (R, S, Z...), or undefined once it is gone. */
function state(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}
/** Whether `pid` still runs (a zombie has ended). */
export const running = (pid: number) => ![undefined, 'Z', 'X'].includes(state(pid));

/** Every process under `pid`, children before their parents (as Jenkins kills a tree). */
export function tree(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  const below = (parent: number): number[] =>
    [...parents].filter(([, ppid]) => ppid === parent).flatMap(([child]) => [...below(child), child]);
  return below(pid);
}

/** Resolves once `done()` holds, looking every 20 ms for 10 s at most. */
export async function until(done: () => boolean): Promise<void> {
  for (let waited = 0; !done() && waited < 10_000; waited += 20)
    await new Promise((resolve) => setTimeout(resolve, 20));
}

/**
 * Resolves once the CLI `cli` runs its witnesses (`cat`, started just after the command: on a busy
 * machine, after the command may be ready): one in its group, and on Linux one in a group of its own.
 */
export async function witnessed(cli: number, count = process.platform === 'linux' ? 2 : 1): Promise<void> {
  const cats = () =>
    tree(cli).filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'cat';
      } catch {
        return false;
      }
    });
  await until(() => cats().length >= count);
}

/** Resolves with the command's pid once the count fixture is ready. */
export function commandReady(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    let seen = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const ready = /count: ready (\d+)/.exec(seen);
      if (ready) resolve(Number(ready[1]));
    });
  });
}

/** The TCP ports `pid` listens on (IPv4 and IPv6): its sockets' inodes found in /proc/net/tcp*. */
export function listeningPorts(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const socket = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (socket) inodes.add(socket[1] as string);
    } catch {
      // Closed meanwhile.
    }
  }
  const ports: number[] = [];
  for (const table of ['tcp', 'tcp6']) {
    for (const line of readFileSync(`/proc/${pid}/net/${table}`, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local_address is HEX_IP:HEX_PORT; st 0A is LISTEN; the inode is the tenth field.
      if (fields[3] === '0A' && inodes.has(fields[9] as string)) {
        ports.push(parseInt((fields[1] as string).split(':')[1] as string, 16));
      }
    }
  }
  return ports;
}
