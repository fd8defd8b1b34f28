// Whether the command has left the CLI's process group (src/cli/process-group.ts): the group as
// /proc/<pid>/stat gives it, for real processes (this one, a child in its group, one in a group of its
// own, one that has gone), and for stat lines whose name holds what a name may.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { leftOurGroup, processGroupInStat, processGroupOf } from '../../src/cli/process-group.ts';

/** The group `ps` gives for `pid`. */
const psGroup = (pid: number) => Number(execFileSync('ps', ['-o', 'pgid=', '-p', String(pid)], { encoding: 'utf8' }));

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** A `sleep` of this process, in its group or (detached) in one of its own. */
function sleeper(detached: boolean): ChildProcess {
  const child = spawn('sleep', ['30'], { stdio: 'ignore', detached });
  children.push(child);
  return child;
}

describe('processGroupInStat', () => {
  it.each([
    ['a plain line', '4242 (deploy.sh) S 4200 4100 4100 34816 4242 4194304', 4100],
    ['a name with spaces and parentheses', '4242 (a) S 1 2 (b) ) S 4200 4100 4100 0 -1', 4100],
    ['a name with a line break', '4242 (x\n) S 4200 4100 4100 0 -1', 4100],
    ['a group of one digit', '7 (init) S 1 7 7 0 -1', 7],
    ['a line cut after the group', '4242 (deploy) S 4200 4100', 4100],
  ])('%s', (_, stat, group) => {
    expect(processGroupInStat(stat)).toBe(group);
  });

  it.each([
    ['no name', '4242 S 4200 4100 4100'],
    ['no group', '4242 (deploy) S 4200'],
    ['group 0 (a kernel thread)', '2 (kthreadd) S 0 0 0 0 -1'],
    ['a group that is no number', '4242 (deploy) S 4200 x 4100'],
    ['a negative group', '4242 (deploy) S 4200 -5 4100'],
    ['a fraction', '4242 (deploy) S 4200 1.5 4100'],
    ['nothing', ''],
  ])('%s: none', (_, stat) => {
    expect(processGroupInStat(stat)).toBeUndefined();
  });
});

describe('processGroupOf', () => {
  it('reads this process’s group, and a child’s, as ps gives them', async () => {
    const inOurs = sleeper(false);
    const ofItsOwn = sleeper(true);

    expect(await processGroupOf('self')).toBe(psGroup(process.pid));
    expect(await processGroupOf(inOurs.pid as number)).toBe(psGroup(process.pid));
    expect(await processGroupOf(ofItsOwn.pid as number)).toBe(ofItsOwn.pid);
  });

  it('reads a process whose name holds a parenthesis and a space', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'report-deployment-group-'));
    try {
      const program = join(dir, 'a) (b');
      copyFileSync(execFileSync('sh', ['-c', 'command -v sleep'], { encoding: 'utf8' }).trim(), program);
      const child = spawn(program, ['30'], { stdio: 'ignore', detached: true });
      children.push(child);

      expect(await processGroupOf(child.pid as number)).toBe(child.pid);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is undefined for a process that has gone', async () => {
    const child = sleeper(false);
    const pid = child.pid as number;
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    // Reaped by Node once it has exited.
    await new Promise((resolve) => setImmediate(resolve));

    expect(await processGroupOf(pid)).toBeUndefined();
  });
});

describe('leftOurGroup', () => {
  it('false for a child in our group, true for one in its own', async () => {
    expect(await leftOurGroup(sleeper(false).pid)).toBe(false);
    expect(await leftOurGroup(sleeper(true).pid)).toBe(true);
  });

  it('undefined where it cannot be told: another OS, no pid (never started), a process gone', async () => {
    expect(await leftOurGroup(sleeper(true).pid, 'darwin')).toBeUndefined();
    expect(await leftOurGroup(undefined, 'linux')).toBeUndefined();
    expect(await leftOurGroup(2 ** 22 + 1, 'linux')).toBeUndefined(); // past Linux's highest pid
  });
});
