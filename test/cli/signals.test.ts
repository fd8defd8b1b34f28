// `report-deployment run`, as npm pack ships it, stopped the ways a person, a tool and each CI stop a
// job: every stop signal reaches the command once, whoever sends it to whom (the CLI alone, its
// process group, each process of its tree); a job killed whole never leaves the command running;
// and the last word recorded is how the command ended. Real processes, real signals.
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFakeService } from '../helpers/fixture.ts';
import { commandReady as countReady, listeningPorts, running, tree, until, witnessed } from '../helpers/processes.ts';
import {
  fixtureCommand,
  INSTALL_TIMEOUT_MS,
  installedCli,
  runCli,
  waitForText,
  type CliResult,
} from '../helpers/run-cli.ts';

beforeAll(() => void installedCli(), INSTALL_TIMEOUT_MS);

const fake = useFakeService();
const FIELDS = ['--artifact-id', '42', '--commit-sha', 'c0ffee', '--user', 'alice', '--branch', 'main'];
const env = () => ({ DEPLOY_TRACKER_URL: fake.service.url, DEPLOY_TRACKER_API_KEY: fake.service.apiKey });
const statuses = () => [...fake.service.deployments.values()].map((deployment) => deployment.statuses);
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** The command's pid once it is ready and the CLI runs its witnesses. */
async function commandReady(child: ChildProcess): Promise<number> {
  const command = await countReady(child);
  await witnessed(child.pid as number);
  return command;
}

/** How many times the count fixture got `signal`. */
const got = (result: CliResult, signal: string) =>
  result.stderr.split('\n').filter((line) => line.startsWith(`count: got ${signal} `)).length;

/** Runs the count fixture under the CLI; `act` signals them, then the fixture is ended with SIGUSR2 (exit `code`). */
function runCounting(
  act: (child: ChildProcess, command: number) => Promise<unknown>,
  options: { code?: number; detached?: boolean; through?: string[]; extra?: string[]; setsid?: boolean } = {},
): Promise<CliResult> {
  const command = [...(options.setsid ? ['setsid'] : []), ...fixtureCommand('count.cjs', String(options.code ?? 0))];
  return runCli(['run', ...FIELDS, ...(options.extra ?? []), '--', ...command], {
    env: env(),
    detached: options.detached,
    through: options.through,
    onSpawn: (child) =>
      void commandReady(child)
        .then((command) => act(child, command).then(() => process.kill(command, 'SIGUSR2')))
        .catch(() => undefined),
  });
}

/** Waits until the CLI has said what it did with `signal`. */
const decided = (child: ChildProcess, signal: string) =>
  waitForText(child.stderr as NodeJS.ReadableStream, `${signal} received:`);

describe('each stop signal reaches the command once, whoever it was sent to', () => {
  it.each(STOP_SIGNALS)('%s sent to the CLI alone (kill PID, a container stop): passed on, once', async (signal) => {
    const result = await runCounting(async (child) => {
      child.kill(signal);
      await decided(child, signal);
    });

    expect(got(result, signal)).toBe(1);
    expect(result.messages).toContain(`${signal} received: passed on to the command.`);
    // Recorded FAILED at the signal; the command then ended 0: its last word.
    expect(statuses()).toEqual([['STARTED', 'FAILED', 'SUCCEEDED']]);
    expect(result.exitCode).toBe(0);
  });

  it.each(STOP_SIGNALS)(
    '%s sent to the whole process group (kill -- -PGID, Ctrl-C, GitLab, Buildkite): not passed on again',
    async (signal) => {
      const result = await runCounting(
        async (child) => {
          process.kill(-(child.pid as number), signal);
          await decided(child, signal);
        },
        { detached: true },
      );

      expect(got(result, signal)).toBe(1);
      expect(result.messages).toContain(
        `${signal} received: the command got it too (sent to the whole process group, or to each process), so it is not passed on again.`,
      );
      expect(statuses()).toEqual([['STARTED', 'FAILED', 'SUCCEEDED']]);
    },
  );

  it('a second Ctrl-C to the group reaches it once more, not twice', async () => {
    const result = await runCounting(
      async (child) => {
        for (let time = 1; time <= 2; time++) {
          const said = decided(child, 'SIGINT');
          // Two SIGINTs that reach a process before it has taken the first are one (the kernel keeps
          // one pending): the second is sent once the command has counted the first.
          const counted = waitForText(child.stderr as NodeJS.ReadableStream, `count: got SIGINT ${time}\n`);
          process.kill(-(child.pid as number), 'SIGINT');
          await Promise.all([said, counted]);
        }
      },
      { detached: true, code: 130 },
    );

    expect(got(result, 'SIGINT')).toBe(2);
    expect(statuses()).toEqual([['STARTED', 'FAILED']]);
    // The command exited 130 itself: so does the CLI (it did not die of the signal).
    expect(result.exitCode).toBe(130);
    expect(result.signal).toBeNull();
  });

  it('Ctrl-C on a script that deploys in a loop stops the script, as it would without the CLI', async () => {
    // bash goes on after a child that exited 130, and stops after one that died of the SIGINT it got
    // too: the CLI dies of the signal its command died of.
    const loop = 'for round in 1 2 3; do "$@"; echo "round $round ended: $?" >&2; done';
    const sleeping = (cli: number) =>
      tree(cli).some((pid) => {
        try {
          return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'sleep';
        } catch {
          return false;
        }
      });
    const result = await runCli(['run', ...FIELDS, '--', 'sleep', '10'], {
      env: env(),
      detached: true,
      through: ['bash', '-c', loop, 'bash'],
      onSpawn: (child) =>
        void until(() => sleeping(child.pid as number))
          .then(() => witnessed(child.pid as number))
          .then(() => process.kill(-(child.pid as number), 'SIGINT')),
    });

    expect(result.signal).toBe('SIGINT');
    expect(result.stderr).not.toContain('round');
    expect(statuses()).toEqual([['STARTED', 'FAILED']]);
  });

  it('GNU timeout (the CLI, then its whole group): SIGTERM once', async () => {
    const result = await runCounting((child) => decided(child, 'SIGTERM'), { through: ['timeout', '-s', 'TERM', '3'] });

    expect(got(result, 'SIGTERM')).toBe(1);
    expect(result.exitCode).toBe(124); // timeout's own, for a command it timed out
    expect(statuses()).toEqual([['STARTED', 'FAILED', 'SUCCEEDED']]);
  });

  it('SIGTERM to each process of the tree, children first (Jenkins): once', async () => {
    const result = await runCounting(async (child) => {
      const cli = child.pid as number;
      for (const pid of tree(cli)) process.kill(pid, 'SIGTERM');
      process.kill(cli, 'SIGTERM');
      await decided(child, 'SIGTERM');
    });

    expect(got(result, 'SIGTERM')).toBe(1);
    expect(result.messages.join('\n')).toContain('SIGTERM received: the command got it too');
  });
});

describe('a command that signals its own process group as it starts', () => {
  it('SIGTERM to the group at once (kill -TERM 0): the command gets it once (the witness was there first)', async () => {
    // The shell counts each SIGTERM after the command it is running; the sleep leaves time for one
    // passed on wrongly (the CLI waits 250 ms for its witness) to arrive.
    const script = 'trap "echo trapped >&2" TERM; kill -TERM 0; sleep 1; exit 0';
    const result = await runCli(['run', ...FIELDS, '--', 'sh', '-c', script], { env: env(), detached: true });

    expect(result.stderr.split('\n').filter((line) => line === 'trapped')).toHaveLength(1);
    expect(result.messages).toContain(
      'SIGTERM received: the command got it too (sent to the whole process group, or to each process), so it is not passed on again.',
    );
    expect(statuses()).toEqual([['STARTED', 'FAILED', 'SUCCEEDED']]);
    expect(result.exitCode).toBe(0);
  });
});

describe('a command in a process group of its own (setsid) gets each stop signal once too', () => {
  const OWN_GROUP =
    "passed on to the command, which runs in a process group of its own (what is sent to the CLI's group does not reach it).";

  it.each(STOP_SIGNALS)('%s sent to the CLI’s whole process group (kill -- -PGID): passed on, once', async (signal) => {
    const result = await runCounting(
      async (child) => {
        process.kill(-(child.pid as number), signal);
        await decided(child, signal);
      },
      { detached: true, setsid: true },
    );

    expect(got(result, signal)).toBe(1);
    expect(result.messages).toContain(`${signal} received: ${OWN_GROUP}`);
    expect(statuses()).toEqual([['STARTED', 'FAILED', 'SUCCEEDED']]);
  });

  it('SIGTERM sent to the CLI alone: passed on, once', async () => {
    const result = await runCounting(
      async (child) => {
        child.kill('SIGTERM');
        await decided(child, 'SIGTERM');
      },
      { setsid: true },
    );

    expect(got(result, 'SIGTERM')).toBe(1);
    expect(result.messages).toContain(`SIGTERM received: ${OWN_GROUP}`);
  });

  it('a second Ctrl-C to the group: passed on once more', async () => {
    const result = await runCounting(
      async (child) => {
        for (let time = 1; time <= 2; time++) {
          const said = decided(child, 'SIGINT');
          process.kill(-(child.pid as number), 'SIGINT');
          await said;
        }
      },
      { detached: true, setsid: true, code: 130 },
    );

    expect(got(result, 'SIGINT')).toBe(2);
    expect(result.exitCode).toBe(130);
  });

  it('GNU timeout (the CLI, then its whole group): SIGTERM once', async () => {
    const result = await runCounting((child) => decided(child, 'SIGTERM'), {
      through: ['timeout', '-s', 'TERM', '3'],
      setsid: true,
    });

    expect(got(result, 'SIGTERM')).toBe(1);
    expect(result.exitCode).toBe(124);
  });

  it('SIGTERM to each process of the tree, children first (Jenkins): once, from the sender', async () => {
    const result = await runCounting(
      async (child) => {
        const cli = child.pid as number;
        for (const pid of tree(cli)) process.kill(pid, 'SIGTERM');
        process.kill(cli, 'SIGTERM');
        await decided(child, 'SIGTERM');
      },
      { setsid: true },
    );

    expect(got(result, 'SIGTERM')).toBe(1);
    expect(result.messages.join('\n')).toContain('SIGTERM received: the command got it too');
  });

  it('SIGTERM to every process at once, the CLI first (systemd’s stop of a control group): once', async () => {
    const result = await runCounting(
      async (child) => {
        const cli = child.pid as number;
        for (const pid of [cli, ...tree(cli)]) process.kill(pid, 'SIGTERM');
        await decided(child, 'SIGTERM');
      },
      { setsid: true },
    );

    expect(got(result, 'SIGTERM'), result.stderr).toBe(1);
    expect(result.messages.join('\n')).toContain('SIGTERM received: the command got it too');
  });
});

describe('a job that is killed never leaves the command running', () => {
  it('a CI’s stop: SIGTERM to the group, then after its grace period SIGKILL to the group', async () => {
    let pids: number[] = [];
    const result = await runCli(['run', ...FIELDS, '--', ...fixtureCommand('count.cjs')], {
      env: env(),
      detached: true,
      onSpawn: (child) =>
        void commandReady(child).then(async () => {
          const group = child.pid as number;
          pids = [group, ...tree(group)];
          // Listening for both first: the update may be said before what became of the signal.
          const said = [decided(child, 'SIGTERM'), waitForText(child.stderr as NodeJS.ReadableStream, 'set to FAILED')];
          process.kill(-group, 'SIGTERM');
          await Promise.all(said);
          process.kill(-group, 'SIGKILL');
        }),
    });

    expect(result.signal).toBe('SIGKILL');
    expect(got(result, 'SIGTERM')).toBe(1);
    // Recorded FAILED in the grace period: nothing is left STARTED.
    expect(statuses()).toEqual([['STARTED', 'FAILED']]);
    expect(pids.length, pids.join(' ')).toBeGreaterThanOrEqual(4); // the CLI, the command, the witnesses of the group and of the tree
    await expect.poll(() => pids.filter(running)).toEqual([]);
  });

  it('SIGKILL to each process of the tree', async () => {
    let pids: number[] = [];
    await runCli(['run', ...FIELDS, '--', ...fixtureCommand('count.cjs')], {
      env: env(),
      onSpawn: (child) =>
        void commandReady(child).then(() => {
          pids = [child.pid as number, ...tree(child.pid as number)];
          for (const pid of pids) process.kill(pid, 'SIGKILL');
        }),
    });

    await expect.poll(() => pids.filter(running)).toEqual([]);
  });

  it('SIGKILL to the CLI alone: the command runs on (as under any wrapper), but nothing of the CLI’s does', async () => {
    let witness: number[] = [];
    let commandRanOn = false;
    await runCli(['run', ...FIELDS, '--', ...fixtureCommand('count.cjs')], {
      env: env(),
      onSpawn: (child) =>
        void commandReady(child).then(async (command) => {
          witness = tree(child.pid as number).filter((pid) => pid !== command);
          child.kill('SIGKILL');
          await until(() => !witness.some(running));
          commandRanOn = running(command);
          process.kill(command, 'SIGKILL');
        }),
    });

    expect(witness.length).toBe(2); // the group's and the tree's
    expect(witness.filter(running)).toEqual([]);
    expect(commandRanOn).toBe(true);
  });
});

describe('nohup', () => {
  it('cannot protect the command: Node resets the ignored SIGHUP it inherits, and a hang-up stops the run', async () => {
    const result = await runCounting(
      async (child) => {
        process.kill(-(child.pid as number), 'SIGHUP');
        await decided(child, 'SIGHUP');
      },
      { detached: true, through: ['nohup'] },
    );

    expect(got(result, 'SIGHUP')).toBe(1);
    expect(statuses()).toEqual([['STARTED', 'FAILED', 'SUCCEEDED']]);
  });
});

describe('SIGUSR1 never opens a debugger', () => {
  // Node opens its inspector on 127.0.0.1:9229 on SIGUSR1, where any local user could read the key
  // out of the CLI; `kill -USR1` is what dd and log rotation use.
  it('SIGUSR1 to the CLI while its command runs: nothing listens, and the run goes on as before', async () => {
    let listening: number[] | undefined;
    const result = await runCounting(async (child) => {
      const cli = child.pid as number;
      child.kill('SIGUSR1');
      // A signal after it, handled by the CLI: the inspector would have been started by then.
      child.kill('SIGTERM');
      await decided(child, 'SIGTERM');
      listening = listeningPorts(cli);
    });

    expect(listening).toEqual([]);
    expect(result.stderr).not.toMatch(/Debugger|inspector|9229/i);
    expect(got(result, 'SIGTERM')).toBe(1);
    expect(statuses()).toEqual([['STARTED', 'FAILED', 'SUCCEEDED']]);
    expect(result.exitCode).toBe(0);
  });
});
