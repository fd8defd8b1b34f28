// Whether the command has left the CLI's process group (`setsid ./deploy.sh`, a tool that calls
// setsid or setpgid itself): then no signal sent to the CLI's group reaches it, and the CLI must pass
// each one on (wrap.ts). Linux shows a process's group in /proc/<pid>/stat; elsewhere this says
// nothing (undefined), and the rule for a command in the group holds. Read when a signal comes (the
// command may change its group any time), asynchronously, a bounded number of bytes.
import { open } from 'node:fs/promises';

/** More than a stat line holds: some 300 bytes, its one free-form field (the name) cut short by the kernel. */
const STAT_BYTES = 4096;

/**
 * The process group in the text of /proc/<pid>/stat: the fifth field, "pid (name) state ppid pgrp ...".
 * The name may hold spaces and parentheses, so the fields are counted from its last `)`.
 */
export function processGroupInStat(stat: string): number | undefined {
  const nameEnd = stat.lastIndexOf(')');
  if (nameEnd < 0) return undefined;
  const group = Number(
    stat
      .slice(nameEnd + 1)
      .trim()
      .split(' ')[2],
  );
  return Number.isSafeInteger(group) && group > 0 ? group : undefined;
}

/** The process group of `pid` (or of this process, `self`); undefined where it cannot be read. */
export async function processGroupOf(pid: number | 'self'): Promise<number | undefined> {
  try {
    const file = await open(`/proc/${pid}/stat`, 'r');
    try {
      const buffer = Buffer.alloc(STAT_BYTES);
      const { bytesRead } = await file.read(buffer, 0, STAT_BYTES, 0);
      return processGroupInStat(buffer.toString('latin1', 0, bytesRead));
    } finally {
      await file.close();
    }
  } catch {
    // No /proc (macOS), or the process has gone: nothing known.
    return undefined;
  }
}

/**
 * Whether the process `pid` runs in a process group other than this process's: true or false on
 * Linux, undefined elsewhere, or where either group cannot be read (the process has gone).
 */
export async function leftOurGroup(pid: number | undefined, platform = process.platform): Promise<boolean | undefined> {
  if (platform !== 'linux' || pid === undefined) return undefined;
  const [theirs, ours] = await Promise.all([processGroupOf(pid), processGroupOf('self')]);
  return theirs === undefined || ours === undefined ? undefined : theirs !== ours;
}
