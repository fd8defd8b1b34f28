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
import { running, tree, until } from '../processes.ts';

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
    const missing = startWitness('/no/such/cat');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await missing.alsoReached('SIGINT')).toBeUndefined();
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
