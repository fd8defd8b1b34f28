// The witness of signals sent to the CLI's process group or tree (src/cli/witness.ts), with a real
// `cat`: what killed it is what reached the command too. The test plays the group's sender by
// signalling the witness itself (signalling this test's own group would stop the test runner).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  startWitness,
  WITNESS_STARTS,
  WITNESS_WAIT_MS,
  WITNESS_WINDOW_MS,
  witnessProgram,
} from '../../src/cli/witness.ts';
import { processGroupInStat } from '../../src/cli/process-group.ts';
import { running, tree, until } from '../helpers/processes.ts';

const CAT = witnessProgram(process.env.PATH ?? '') as string;

/** The running witnesses: this process's `cat` children. */
const witnesses = () =>
  tree(process.pid).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'cat' && running(pid);
    } catch {
      return false;
    }
  });

/** The one witness running, once it runs (a new one after each death). */
async function current(except: number[] = []): Promise<number> {
  await until(() => witnesses().some((pid) => !except.includes(pid)));
  return witnesses().find((pid) => !except.includes(pid)) as number;
}

describe('witnessProgram', () => {
  it('finds cat on PATH, or where systems keep it, never in the current folder; none on Windows', () => {
    expect(CAT).toMatch(/\/cat$/);
    expect(witnessProgram('')).toMatch(/^\/(usr\/)?bin\/cat$/);
    expect(witnessProgram(['', '/nowhere'].join(delimiter))).toMatch(/^\/(usr\/)?bin\/cat$/);
    expect(witnessProgram(process.env.PATH ?? '', 'win32')).toBeUndefined();
    expect(witnessProgram('', 'linux', [])).toBeUndefined();
  });

  it('never takes a cat of the current folder, for an empty PATH entry', () => {
    const cwd = process.cwd();
    const here = mkdtempSync(join(tmpdir(), 'report-deployment-witness-'));
    writeFileSync(join(here, 'cat'), '#!/bin/sh\n', { mode: 0o755 });
    try {
      process.chdir(here);
      expect(witnessProgram(`${delimiter}/nowhere`, 'linux', [])).toBeUndefined();
    } finally {
      process.chdir(cwd);
      rmSync(here, { recursive: true, force: true });
    }
  });
});

describe('startWitness', () => {
  it('a signal it died of reached the command too: true, also for a while after (Jenkins waits between processes)', async () => {
    let now = 1_000_000;
    const witness = startWitness(CAT, { now: () => now });
    try {
      const first = await current();
      process.kill(first, 'SIGTERM');
      expect(await witness.alsoReached('SIGTERM')).toBe(true);
      now += WITNESS_WINDOW_MS;
      expect(await witness.alsoReached('SIGTERM')).toBe(true);
      now += 1;
      expect(await witness.alsoReached('SIGTERM')).toBe(false);
    } finally {
      witness.stop();
    }
  });

  it('another signal it died of says nothing of this one; one it never got: false after the wait', async () => {
    const witness = startWitness(CAT, { waitMs: 50 });
    try {
      const first = await current();
      process.kill(first, 'SIGHUP');
      await current([first]);
      const started = Date.now();
      expect(await witness.alsoReached('SIGINT')).toBe(false);
      expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    } finally {
      witness.stop();
    }
  });

  it('a death of another signal while it waits says nothing of this one', async () => {
    const witness = startWitness(CAT, { waitMs: 300 });
    try {
      const first = await current();
      const asked = witness.alsoReached('SIGINT');
      process.kill(first, 'SIGHUP');
      expect(await asked).toBe(false);
    } finally {
      witness.stop();
    }
  });

  it('waits for a death that comes after the CLI got the signal (the order is the scheduler’s)', async () => {
    const witness = startWitness(CAT);
    try {
      const first = await current();
      const asked = witness.alsoReached('SIGINT');
      // A death 20 ms after the question: the lateness is what is tested.
      setTimeout(() => process.kill(first, 'SIGINT'), 20);
      expect(await asked).toBe(true);
    } finally {
      witness.stop();
    }
  });

  it('is started again after each death, a bounded number of times, then tells nothing', async () => {
    const witness = startWitness(CAT, { waitMs: 10 });
    const seen: number[] = [];
    try {
      for (let start = 1; start <= WITNESS_STARTS; start++) {
        const pid = await current(seen);
        seen.push(pid);
        process.kill(pid, 'SIGKILL');
        await until(() => !running(pid));
      }
      // The last death reaches the witness's process a moment later: asked again, it tells nothing.
      let answer: boolean | undefined = false;
      for (let tries = 0; tries < 100 && answer !== undefined; tries++) answer = await witness.alsoReached('SIGTERM');
      expect(answer).toBeUndefined();
      expect(witnesses()).toEqual([]);
    } finally {
      witness.stop();
    }
  });

  it('stop() ends it; it is not started again', async () => {
    const witness = startWitness(CAT);
    const pid = await current();
    witness.stop();
    await until(() => !running(pid));
    expect(running(pid)).toBe(false);
    expect(await witness.alsoReached('SIGTERM')).toBeUndefined();
    expect(witnesses()).toEqual([]);
  });

  it('tells nothing where there is no program, or one that cannot start', async () => {
    expect(await startWitness(undefined).alsoReached('SIGINT')).toBeUndefined();
    // Refused by Node at once.
    expect(await startWitness('/bin/c\0at').alsoReached('SIGINT')).toBeUndefined();
    // Refused by the system: told as the spawn fails, a moment later. Until then the witness waits
    // its 10 ms for a death, and says none came.
    const missing = startWitness('/no/such/cat', { waitMs: 10 });
    let answer: boolean | undefined = false;
    for (let tries = 0; tries < 100 && answer !== undefined; tries++) answer = await missing.alsoReached('SIGINT');
    expect(answer).toBeUndefined();
  });

  it(`waits ${WITNESS_WAIT_MS} ms by default for a death`, async () => {
    const witness = startWitness(CAT);
    try {
      await current();
      const started = Date.now();
      expect(await witness.alsoReached('SIGINT')).toBe(false);
      expect(Date.now() - started).toBeGreaterThanOrEqual(WITNESS_WAIT_MS - 5);
    } finally {
      witness.stop();
    }
  });
});

/** A witness's process group, as /proc gives it. */
const groupOf = (pid: number) => processGroupInStat(readFileSync(`/proc/${pid}/stat`, 'latin1'));

/** The witnesses of `tree: true`, once both run: the one in this process's group, and the tree's, in a group of its own. */
async function both(except: number[] = []): Promise<{ inGroup: number; ofTree: number }> {
  const ours = groupOf(process.pid);
  const fresh = () => witnesses().filter((pid) => !except.includes(pid));
  await until(() => fresh().length === 2);
  const [inGroup, ofTree] = [fresh().find((pid) => groupOf(pid) === ours), fresh().find((pid) => groupOf(pid) === pid)];
  return { inGroup: inGroup as number, ofTree: ofTree as number };
}

describe('startWitness with the tree’s witness, for a command outside the group (reachedOutside)', () => {
  it('runs two: one in the CLI’s process group, one in a group of its own; none of its own without `tree`', async () => {
    const plain = startWitness(CAT);
    try {
      await current();
      expect(witnesses().map(groupOf)).toEqual([groupOf(process.pid)]);
    } finally {
      plain.stop();
    }
    await until(() => witnesses().length === 0);
    const witness = startWitness(CAT, { tree: true });
    try {
      const { inGroup, ofTree } = await both();
      expect(inGroup).not.toBe(ofTree);
      expect(groupOf(ofTree)).not.toBe(groupOf(process.pid));
    } finally {
      witness.stop();
    }
    await until(() => witnesses().length === 0);
    expect(witnesses()).toEqual([]);
  });

  it('sent to each process (the tree’s witness died of it): reached, also for a while after, then not', async () => {
    let now = 1_000_000;
    const witness = startWitness(CAT, { tree: true, waitMs: 50, now: () => now });
    try {
      const first = await both();
      process.kill(first.ofTree, 'SIGTERM');
      process.kill(first.inGroup, 'SIGTERM');
      // Both deaths seen (each witness started again), however slow the machine.
      await both(Object.values(first));
      expect(await witness.reachedOutside('SIGTERM')).toBe('reached');
      now += WITNESS_WINDOW_MS;
      expect(await witness.reachedOutside('SIGTERM')).toBe('reached');
      now += 1;
      // The group's death is old too: a signal sent to the CLI alone.
      expect(await witness.reachedOutside('SIGTERM')).toBe('not-reached');
    } finally {
      witness.stop();
    }
  });

  it('waits for the tree’s witness to die of it after the CLI got it (systemd signals all at once)', async () => {
    const witness = startWitness(CAT, { tree: true });
    try {
      const { ofTree } = await both();
      const asked = witness.reachedOutside('SIGHUP');
      // A death 20 ms after the question: the lateness is what is tested.
      setTimeout(() => process.kill(ofTree, 'SIGHUP'), 20);
      expect(await asked).toBe('reached');
    } finally {
      witness.stop();
    }
  });

  it('sent to the group alone: not reached, once per death of the group’s witness; the same signal again is the same one', async () => {
    const witness = startWitness(CAT, { tree: true, waitMs: 50 });
    try {
      const first = await both();
      process.kill(first.inGroup, 'SIGINT');
      // The death seen (the group's witness started again), however slow the machine.
      const { inGroup } = await both([first.inGroup]);
      expect(await witness.reachedOutside('SIGINT')).toBe('not-reached');
      // GNU timeout: the CLI, then its group; the group's death is passed on once.
      expect(await witness.reachedOutside('SIGINT')).toBe('passed-on-already');
      // A second Ctrl-C to the group: a second death, passed on.
      process.kill(inGroup, 'SIGINT');
      await both([first.inGroup, inGroup]);
      expect(await witness.reachedOutside('SIGINT')).toBe('not-reached');
      expect(await witness.reachedOutside('SIGINT')).toBe('passed-on-already');
      // Another signal's deaths say nothing of this one.
      expect(await witness.reachedOutside('SIGTERM')).toBe('not-reached');
    } finally {
      witness.stop();
    }
  });

  it('two asks at once for one death of the group’s witness (the CLI and its group): one is passed on', async () => {
    // Both asks wait for the tree's witness, which never dies: the wait is long enough for the group's death.
    const witness = startWitness(CAT, { tree: true, waitMs: 1000 });
    try {
      const { inGroup } = await both();
      const asked = [witness.reachedOutside('SIGTERM'), witness.reachedOutside('SIGTERM')];
      process.kill(inGroup, 'SIGTERM');
      expect((await Promise.all(asked)).sort()).toEqual(['not-reached', 'passed-on-already']);
    } finally {
      witness.stop();
    }
  });

  it('sent to the CLI alone: not reached, after the wait', async () => {
    const witness = startWitness(CAT, { tree: true, waitMs: 60 });
    try {
      await both();
      const started = Date.now();
      expect(await witness.reachedOutside('SIGTERM')).toBe('not-reached');
      expect(Date.now() - started).toBeGreaterThanOrEqual(55);
    } finally {
      witness.stop();
    }
  });

  it('without the tree’s witness, still once per death of the group’s', async () => {
    const witness = startWitness(CAT, { waitMs: 50 });
    try {
      const first = await current();
      process.kill(first, 'SIGTERM');
      await current([first]);
      expect(await witness.reachedOutside('SIGTERM')).toBe('not-reached');
      expect(await witness.reachedOutside('SIGTERM')).toBe('passed-on-already');
    } finally {
      witness.stop();
    }
  });

  it('where none runs: not reached, at once', async () => {
    const started = Date.now();
    expect(await startWitness(undefined, { tree: true }).reachedOutside('SIGTERM')).toBe('not-reached');
    expect(Date.now() - started).toBeLessThan(WITNESS_WAIT_MS);
  });

  it('stop() ends both', async () => {
    const witness = startWitness(CAT, { tree: true });
    const pids = Object.values(await both());
    witness.stop();
    await until(() => !pids.some(running));
    expect(pids.filter(running)).toEqual([]);
  });
});
