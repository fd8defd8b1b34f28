// `run`'s flow in-process (src/cli/run.ts and recorder.ts), for speed and for mutation testing: real
// commands (node fixtures), a fake service on loopback, and signals from an emitter standing for the
// process's, with the witness standing in for what the process group did. The packed CLI's own
// tests (test/cli/run.test.ts, signals.test.ts) judge the same with real signals.
import { EventEmitter } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCommandLine, type ParsedArgs } from '../../src/cli/args.ts';
import { openCliLog } from '../../src/cli/log.ts';
import type { RecordingSteps } from '../../src/cli/recorder.ts';
import { execute } from '../../src/core/execute.ts';
import { plan } from '../../src/core/plan.ts';
import { setStatusAll } from '../../src/core/service.ts';
import { INTERRUPTED_WAIT_MS, isInteractive, relayLine, runWrapped } from '../../src/cli/run.ts';
import type { StopSignal } from '../../src/cli/signals.ts';
import type { OutsideReach, Witness } from '../../src/cli/witness.ts';
import { useFakeService } from '../helpers/fixture.ts';
import { running, until } from '../helpers/processes.ts';
import { fixtureCommand } from '../helpers/run-cli.ts';

// A bug of ours deep in a request (nothing known throws there any more: what did, proxy credentials
// undici could not decode, is now a bad setting): `bug` makes planning, the create or the update throw.
const bug = { inCreate: false, inUpdate: false, inPlan: false };
afterEach(() => Object.assign(bug, { inCreate: false, inUpdate: false, inPlan: false }));
const steps: RecordingSteps = {
  plan: (...args) => {
    if (bug.inPlan) throw new Error('boom in plan');
    return plan(...args);
  },
  execute: (...args) => (bug.inCreate ? Promise.reject(new Error('boom in create')) : execute(...args)),
  setStatusAll: (...args) => (bug.inUpdate ? Promise.reject(new Error('boom in update')) : setStatusAll(...args)),
};

const fake = useFakeService();
const FIELDS = ['--artifact-id', '42', '--commit-sha', 'c0ffee', '--user', 'alice', '--branch', 'main'];
const env = (extra: Record<string, string> = {}) => ({
  DEPLOY_TRACKER_URL: fake.service.url,
  DEPLOY_TRACKER_API_KEY: fake.service.apiKey,
  ...extra,
});
const statuses = () => [...fake.service.deployments.values()].map((deployment) => deployment.statuses);
const patches = () => fake.received().filter((request) => request.startsWith('PATCH'));

let dir: string;
beforeEach(() => void (dir = mkdtempSync(join(tmpdir(), 'report-deployment-run-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A witness that says what the test decides (for a command outside the group, `outside`). */
const witnessSaying = (
  reached: boolean | undefined,
  outside: OutsideReach = 'not-reached',
): Witness & { asked: string[]; stopped: boolean } => {
  const witness = {
    asked: [] as string[],
    stopped: false,
    alsoReached: (signal: NodeJS.Signals) => {
      witness.asked.push(signal);
      return Promise.resolve(reached);
    },
    reachedOutside: (signal: NodeJS.Signals) => {
      witness.asked.push(`outside ${signal}`);
      return Promise.resolve(outside);
    },
    stop: () => void (witness.stopped = true),
  };
  return witness;
};

interface Run {
  code: number;
  lines: string[];
  /** The stop signal the CLI is told to end by (index.ts), where it is. */
  endedBy: StopSignal[];
}

/**
 * runWrapped with `argv` (after `run`), its log captured a line at a time; `onLine` sees each line
 * and may send the CLI a signal.
 */
async function run(
  argv: string[],
  options: {
    env?: Record<string, string>;
    witness?: Witness;
    interactive?: boolean;
    onLine?: (line: string, signal: (name: StopSignal) => void) => void;
    act?: (signal: (name: StopSignal) => void) => void;
    args?: (args: ParsedArgs) => ParsedArgs;
    waitMs?: number;
  } = {},
): Promise<Run> {
  const signals = new EventEmitter();
  const signal = (name: StopSignal) => void signals.emit(name, name);
  const lines: string[] = [];
  const log = openCliLog(fake.service.apiKey, options.env ?? env(), (text) => {
    for (const line of text.split('\n').filter((part) => part !== '')) {
      lines.push(line.replace(/^report-deployment: /, ''));
      options.onLine?.(lines.at(-1) as string, signal);
    }
  });
  const parsed = parseCommandLine(['run', ...argv]) as ParsedArgs;
  const args = options.args ? options.args(parsed) : parsed;
  const endedBy: StopSignal[] = [];
  const running = runWrapped(args, options.env ?? env(), log, {
    endedBy: (by) => endedBy.push(by),
    steps,
    signals,
    interactive: options.interactive ?? false,
    witness: options.witness ?? witnessSaying(false),
    interruptedWaitMs: options.waitMs ?? 300,
  });
  options.act?.(signal);
  const code = await running;
  expect(signals.eventNames()).toEqual([]); // every listener removed
  return { code, lines, endedBy };
}

/** The count fixture, writing its lines to a file of the test's; `ready()` resolves with its pid. */
function counting(code = 0) {
  const file = join(dir, `count-${Math.random()}`);
  const read = () => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return '';
    }
  };
  return {
    command: fixtureCommand('count.cjs', String(code), file),
    read,
    got: (signal: string) =>
      read()
        .split('\n')
        .filter((line) => line.startsWith(`count: got ${signal} `)).length,
    ready: async () => {
      await until(() => /count: ready (\d+)/.test(read()));
      return Number(/count: ready (\d+)/.exec(read())?.[1]);
    },
  };
}

describe('the command’s ending is recorded, and its exit code kept', () => {
  it.each([
    ['0', 0, ['STARTED', 'SUCCEEDED']],
    ['3', 3, ['STARTED', 'FAILED']],
    ['SIGTERM', 143, ['STARTED', 'FAILED']],
    ['130', 130, ['STARTED', 'FAILED']],
    ['SIGKILL', 137, ['STARTED', 'FAILED']],
  ])('a command that ends with %s: exit %i, recorded %o', async (how, code, recorded) => {
    const result = await run([...FIELDS, '--', ...fixtureCommand('exit.cjs', how)]);

    expect(result.code).toBe(code);
    // Where it died of a stop signal, the CLI ends by it too; not where it exited (130 included).
    expect(result.endedBy).toEqual(how === 'SIGTERM' ? ['SIGTERM'] : []);
    expect(statuses()).toEqual([recorded]);
    expect(result.lines[0]).toBe('Recorded deployment 1: artifact 42 version c0ffee to Production (STARTED).');
    expect(result.lines.at(-1)).toMatch(new RegExp(`^Deployment 1 set to ${recorded[1]} after \\d+s\\.$`));
  });

  it('a command that is not found: 127, said, recorded FAILED', async () => {
    const result = await run([...FIELDS, '--', join(dir, 'no-such-deploy')]);

    expect(result.code).toBe(127);
    expect(result.lines).toContain(`error: '${join(dir, 'no-such-deploy')}' was not found.`);
    expect(statuses()).toEqual([['STARTED', 'FAILED']]);
  });

  it('--fail-on-error turns a success that was not recorded into 1, never a failure into a success', async () => {
    fake.service.fail('POST', { status: 500, body: { detail: 'down' } }, { status: 500, body: { detail: 'down' } });
    const success = await run([...FIELDS, '--fail-on-error', '--', ...fixtureCommand('exit.cjs', '0')]);
    const failure = await run([...FIELDS, '--fail-on-error', '--', ...fixtureCommand('exit.cjs', '4')]);
    const without = await run([...FIELDS, '--', ...fixtureCommand('exit.cjs', '0')]);

    expect(success.code).toBe(1);
    expect(success.lines).toContain('error: Could not record the deployment of artifact 42: HTTP 500: down');
    expect(failure.code).toBe(4);
    expect(without.code).toBe(0);
  });

  it('--fail-on-error: a final update that fails makes a success 1', async () => {
    fake.service.fail('PATCH', { status: 400, body: { detail: 'no' } });
    const result = await run([...FIELDS, '--fail-on-error', '--', ...fixtureCommand('exit.cjs', '0')]);

    expect(result.code).toBe(1);
    expect(result.lines).toContain('error: Could not set deployment 1 to SUCCEEDED: HTTP 400: no');
  });

  it('no key: said, the command runs, nothing sent; --fail-on-error makes its success 1', async () => {
    const noKey = { DEPLOY_TRACKER_URL: fake.service.url };
    const result = await run([...FIELDS, '--', ...fixtureCommand('exit.cjs', '5')], { env: noKey });
    const failOnError = await run([...FIELDS, '--fail-on-error', '--', ...fixtureCommand('exit.cjs', '0')], {
      env: noKey,
    });

    expect(result.code).toBe(5);
    expect(result.lines[0]).toMatch(/^warning: DEPLOY_TRACKER_API_KEY is not set, so nothing is recorded\./);
    expect(failOnError.code).toBe(1);
    expect(fake.service.requests).toEqual([]);
  });

  it('a bad setting: said, the command runs and keeps its exit code, nothing sent', async () => {
    const result = await run([...FIELDS, '--retries', 'many', '--', ...fixtureCommand('exit.cjs', '6')]);

    expect(result.code).toBe(6);
    expect(result.lines).toEqual([
      "error: --retries must be a whole number from 0 to 10, got 'many'.",
      '       Nothing is recorded; the command runs.',
    ]);
    expect(fake.service.requests).toEqual([]);
  });

  it('--environment "" (a CI variable left unset): said as a bad setting, the command runs, nothing sent', async () => {
    const result = await run([...FIELDS, '--environment', '', '--', ...fixtureCommand('exit.cjs', '6')]);

    expect(result.code).toBe(6);
    expect(result.lines).toEqual([
      "error: --environment is empty (was the variable given to it unset?): name the environment as the service does, or leave the flag out for the service's default.",
      '       Nothing is recorded; the command runs.',
    ]);
    expect(fake.service.requests).toEqual([]);
  });

  it('proxy credentials undici cannot decode: a bad setting naming the variable; the command runs', async () => {
    const proxied = {
      ...env(),
      DEPLOY_TRACKER_URL: 'https://tracker.invalid/api',
      HTTPS_PROXY: 'http://us%ZZer:pw@p.invalid:1',
    };
    const result = await run([...FIELDS, '--', ...fixtureCommand('exit.cjs', '5')], { env: proxied });

    expect(result.code).toBe(5);
    expect(result.lines).toEqual([
      "error: Environment variable HTTPS_PROXY has a user name or password that is not percent-encoded: 'http://***@p.invalid:1'. Write each `%` in them as `%25` (and `@`, `:`, `/` as `%40`, `%3A`, `%2F`).",
      '       Nothing is recorded; the command runs.',
    ]);
  });

  it('a create that throws (a bug) is said; the command runs', async () => {
    bug.inCreate = true;
    const result = await run([...FIELDS, '--', ...fixtureCommand('exit.cjs', '0')]);

    expect(result.code).toBe(0);
    expect(result.lines[0]).toBe(
      'warning: Could not record the deployment: unexpected error (a bug of report-deployment: please report it):',
    );
    expect(result.lines[1]).toMatch(/^\s+Error: boom in create$/);
    // Said once: nothing was left open to finish.
    expect(result.lines.filter((line) => line.includes('a bug of report-deployment'))).toHaveLength(1);
    expect(fake.service.requests).toEqual([]);
  });

  it('a slow service (its answer after the command started): the command starts at the deadline, and the record is still finished', async () => {
    fake.service.fail('POST', { delayMs: 1500 });
    const command = counting(0);
    let startedBeforeAnswer = false;
    const result = await run([...FIELDS, '--timeout-seconds', '1', '--', ...command.command], {
      act: () =>
        void command.ready().then((pid) => {
          startedBeforeAnswer = fake.service.deployments.size === 0;
          process.kill(pid, 'SIGUSR2');
        }),
    });

    expect(result.code).toBe(0);
    expect(startedBeforeAnswer).toBe(true);
    expect(statuses()).toEqual([['STARTED', 'SUCCEEDED']]);
  });

  it('a service slower than twice the timeout: said as maybe recorded, not sent again; the command runs', async () => {
    fake.service.fail('POST', { hang: true });
    const result = await run([...FIELDS, '--timeout-seconds', '0.3', '--', ...fixtureCommand('exit.cjs', '0')]);

    expect(result.code).toBe(0);
    expect(result.lines[0]).toMatch(
      /^warning: Could not record the deployment of artifact 42: no answer in time \(127\.0\.0\.1:\d+\); it may have reached the service, so it is not sent again$/,
    );
    expect(fake.received()).toEqual(['POST /deployment']);
  });

  it('a command that dies at once of the signal: what became of it is still said (the witness answers later)', async () => {
    const command = counting();
    const slowWitness: Witness = {
      alsoReached: () => new Promise((resolve) => setTimeout(() => resolve(true), 200)),
      reachedOutside: () => Promise.resolve('not-reached'),
      stop: () => undefined,
    };
    const result = await run([...FIELDS, '--', ...command.command], {
      witness: slowWitness,
      act: (signal) =>
        void command.ready().then((pid) => {
          signal('SIGINT');
          process.kill(pid, 'SIGKILL');
        }),
    });

    expect(result.code).toBe(137);
    expect(result.lines).toContain(
      'SIGINT received: the command got it too (sent to the whole process group, or to each process), so it is not passed on again.',
    );
  });

  it('--deployment-id "": the warning, the command runs, nothing sent', async () => {
    const result = await run(['--deployment-id', '', '--', ...fixtureCommand('exit.cjs', '0')]);

    expect(result.code).toBe(0);
    expect(result.lines).toEqual([
      'warning: --deployment-id is an empty list: the job that started the deployment recorded none (see its log), so there is nothing to update.',
    ]);
    expect(fake.service.requests).toEqual([]);
  });

  it('--deployment-id given: finished from the command’s exit code', async () => {
    const created = await run([...FIELDS, '--', ...fixtureCommand('exit.cjs', '0')]);
    expect(created.code).toBe(0);
    const result = await run(['--deployment-id', '1', '--', ...fixtureCommand('exit.cjs', '2')]);

    expect(result.code).toBe(2);
    expect(statuses()).toEqual([['STARTED', 'SUCCEEDED', 'FAILED']]);
  });

  it('--dry-run: the requests shown, nothing sent', async () => {
    const result = await run([...FIELDS, '--dry-run', '--', ...fixtureCommand('exit.cjs', '0')]);

    expect(result.code).toBe(0);
    expect(result.lines).toContain('PATCH ' + `${fake.service.url}/deployment/{id}`);
    expect(fake.service.requests).toEqual([]);
  });

  it('a create that never answers: the command starts at one attempt’s timeout (--timeout-seconds), then runs', async () => {
    fake.service.fail('POST', { hang: true });
    const stamp = join(dir, 'started');
    const started = Date.now();
    const result = await run([...FIELDS, '--timeout-seconds', '1', '--', ...fixtureCommand('stamp.cjs', stamp)]);

    expect(result.code).toBe(0);
    const commandStarted = Number(readFileSync(stamp, 'utf8')) - started;
    expect(commandStarted).toBeGreaterThanOrEqual(900);
    expect(commandStarted).toBeLessThan(5_000);
  });

  it('a create that answers: the command starts then, not at the timeout', async () => {
    const stamp = join(dir, 'started');
    const started = Date.now();
    const result = await run([...FIELDS, '--timeout-seconds', '30', '--', ...fixtureCommand('stamp.cjs', stamp)]);

    expect(result.code).toBe(0);
    expect(Number(readFileSync(stamp, 'utf8')) - started).toBeLessThan(5_000);
  });

  it('--fail-on-error and everything recorded: the command’s 0', async () => {
    const result = await run([...FIELDS, '--fail-on-error', '--', ...fixtureCommand('exit.cjs', '0')]);

    expect(result.code).toBe(0);
  });

  it('--fail-on-error and a bad setting: a success is 1 (nothing was recorded)', async () => {
    const result = await run([
      ...FIELDS,
      '--retries',
      'many',
      '--fail-on-error',
      '--',
      ...fixtureCommand('exit.cjs', '0'),
    ]);

    expect(result.code).toBe(1);
  });

  it('--fail-on-error and --deployment-id "": nothing to update is no failure (0)', async () => {
    const result = await run(['--deployment-id', '', '--fail-on-error', '--', ...fixtureCommand('exit.cjs', '0')]);

    expect(result.code).toBe(0);
  });

  it('a bug while reading the settings is said as one; nothing is recorded; the command runs', async () => {
    const result = await run([...FIELDS, '--', ...fixtureCommand('exit.cjs', '0')], {
      args: (args) => ({
        ...args,
        // Read whole by the settings (not by the start's deadline): a bug there.
        settings: new Proxy(args.settings, {
          ownKeys: () => {
            throw new Error('boom');
          },
        }),
      }),
    });

    expect(result.code).toBe(0);
    expect(result.lines[0]).toBe('error: unexpected error (a bug of report-deployment: please report it):');
    expect(result.lines).toContain('       Nothing is recorded; the command runs.');
  });

  it('a bug while setting the status is said as one (--fail-on-error: 1)', async () => {
    bug.inUpdate = true;
    const result = await run(['--deployment-id', '7', '--fail-on-error', '--', ...fixtureCommand('exit.cjs', '0')]);

    expect(result.code).toBe(1);
    expect(result.lines).toContain('error: unexpected error (a bug of report-deployment: please report it):');
  });

  it('a bug before the create is sent (planning it): said as one; the command runs, its exit code kept', async () => {
    bug.inPlan = true;
    const result = await run([...FIELDS, '--', ...fixtureCommand('exit.cjs', '4')]);

    expect(result.code).toBe(4);
    expect(result.lines[0]).toBe(
      'warning: unexpected error while recording the start (a bug of report-deployment: please report it):',
    );
    expect(result.lines[1]).toMatch(/^\s+Error: boom in plan$/);
    expect(fake.service.requests).toEqual([]);
  });

  it('--fail-on-error: a create that throws is an error, not a warning', async () => {
    bug.inCreate = true;
    const result = await run([...FIELDS, '--fail-on-error', '--', ...fixtureCommand('exit.cjs', '0')]);

    expect(result.code).toBe(1);
    expect(result.lines[0]).toMatch(/^error: Could not record the deployment: unexpected error \(a bug/);
  });

  it.each([
    [[...FIELDS], true],
    [['--deployment-id', '7'], false],
  ])('--dry-run %o: the placeholder said where the id is one (%s)', async (flags, placeholder) => {
    const result = await run([...flags, '--dry-run', '--', ...fixtureCommand('exit.cjs', '0')]);

    expect(result.code).toBe(0);
    expect(result.lines.some((line) => line.includes('{id} stands for the id'))).toBe(placeholder);
    expect(fake.service.requests).toEqual([]);
  });

  it('a slow service and no signal: the final update is waited for, not cut', async () => {
    await fake.restart({ answerDelayMs: 600 });
    const result = await run([...FIELDS, '--fail-on-error', '--', ...fixtureCommand('exit.cjs', '0')]);

    expect(result.code).toBe(0);
    expect(statuses()).toEqual([['STARTED', 'SUCCEEDED']]);
    expect(result.lines.some((line) => line.startsWith('warning: Stopped waiting'))).toBe(false);
  });
});

describe('relayLine, isInteractive', () => {
  it.each([
    ['passed-on', 'SIGTERM received: passed on to the command.'],
    [
      'own-group',
      "SIGTERM received: passed on to the command, which runs in a process group of its own (what is sent to the CLI's group does not reach it).",
    ],
    [
      'passed-on-already',
      'SIGTERM received: passed on to the command once already (it was sent to the CLI and to its process group alike), so not again.',
    ],
    [
      'reached',
      'SIGTERM received: the command got it too (sent to the whole process group, or to each process), so it is not passed on again.',
    ],
    [
      'terminal',
      'SIGTERM received: in a terminal, the terminal sends it to the command too, so it is not passed on again.',
    ],
    [
      'console',
      'SIGTERM received: Windows sends it to every process of the console, the command included, so it is not passed on again.',
    ],
    ['ended', 'SIGTERM received: the command has ended.'],
  ] as const)('%s: %s', (relay, line) => {
    expect(relayLine('SIGTERM', relay)).toBe(line);
  });

  it.each([
    [false, false, false, false],
    [true, false, false, true],
    [false, true, false, true],
    [false, false, true, true],
  ])('stdin %s, stdout %s, stderr %s a terminal: interactive %s', (stdin, stdout, stderr, interactive) => {
    expect(isInteractive({ stdin: { isTTY: stdin }, stdout: { isTTY: stdout }, stderr: { isTTY: stderr } })).toBe(
      interactive,
    );
  });

  it('reads the process’s own streams by default', () => {
    expect(isInteractive()).toBe(Boolean(process.stdin.isTTY || process.stdout.isTTY || process.stderr.isTTY));
  });
});

describe('a stop signal before the command starts: it never does, and the CLI exits 128+N at once', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)(
    '%s while a create that never answers is under way: %i after the short wait, said',
    async (signal, code) => {
      fake.service.fail('POST', { hang: true });
      const command = counting();
      const result = await run([...FIELDS, '--timeout-seconds', '60', '--', ...command.command], {
        env: env({ DEPLOY_TRACKER_DEBUG: '1' }),
        onLine: (line, send) => {
          if (line.startsWith('debug: POST ')) send(signal);
        },
      });

      expect(result.code).toBe(code);
      expect(result.endedBy).toEqual([signal]);
      expect(command.read()).toBe('');
      expect(result.lines).toContain(`warning: ${signal} received before the command started, so it is not run.`);
      expect(result.lines).toContain(
        `warning: The request recording its start had no answer 0.3 s after ${signal}: if the service received it, the deployment shows STARTED.`,
      );
    },
  );

  it.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)(
    '%s while the create is under way, answered within the short wait: set FAILED, never left STARTED',
    async (signal) => {
      let answer: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (answer = resolve));
      await fake.restart({ gate: (request) => (request.method === 'POST' ? held : undefined) });
      const command = counting();
      const result = await run([...FIELDS, '--', ...command.command], {
        env: env({ DEPLOY_TRACKER_DEBUG: '1' }),
        waitMs: 10_000,
        onLine: (line, send) => {
          if (line.startsWith('debug: POST ')) send(signal);
          // The service answers once the CLI has taken the signal.
          if (line.endsWith('received before the command started, so it is not run.')) answer();
        },
      });

      expect(result.code).toBe(128 + constants.signals[signal]);
      expect(result.endedBy).toEqual([signal]);
      expect(command.read()).toBe('');
      expect(statuses()).toEqual([['STARTED', 'FAILED']]);
      expect(result.lines.some((line) => line.includes('no answer'))).toBe(false);
    },
  );

  it('while the settings are read: nothing is sent, ever', async () => {
    const result = await run([...FIELDS, '--', ...fixtureCommand('exit.cjs', '0')], { act: (send) => send('SIGTERM') });
    // "Ever": a request still on its way after the run would arrive within this. An absence has no event.
    await new Promise((resolve) => setTimeout(resolve, 100));

    expect(result.code).toBe(143);
    expect(result.lines).toEqual(['warning: SIGTERM received before the command started, so it is not run.']);
    expect(fake.service.requests).toEqual([]);
  });

  it('while git is asked for the commit: git is stopped at once, not left to the deadline', async () => {
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'git'), `#!/bin/sh\necho $$ > '${join(dir, 'git.pid')}'\nexec sleep 30\n`, { mode: 0o755 });
    const gitPid = () => Number(readFileSync(join(dir, 'git.pid'), 'utf8'));
    let pid = 0;
    let sent = 0;
    const result = await run(['--artifact-id', '42', '--user', 'alice', '--timeout-seconds', '60', '--', 'true'], {
      env: env({ PATH: `${bin}:${process.env.PATH ?? ''}` }),
      act: (send) =>
        void until(() => existsSync(join(dir, 'git.pid'))).then(() => {
          pid = gitPid();
          sent = Date.now();
          send('SIGINT');
        }),
    });

    expect(result.code).toBe(130);
    expect(pid).toBeGreaterThan(0);
    await until(() => !running(pid));
    // At once: git's own bound (5 s a call) or the start's deadline (60 s) would come much later.
    expect(Date.now() - sent).toBeLessThan(2_000);
  });

  it('once the start is recorded (the command about to start): set FAILED, never left STARTED', async () => {
    const result = await run([...FIELDS, '--', ...fixtureCommand('exit.cjs', '0')], {
      onLine: (line, send) => {
        if (line.startsWith('Recorded deployment 1')) send('SIGINT');
      },
    });

    expect(result.code).toBe(130);
    expect(statuses()).toEqual([['STARTED', 'FAILED']]);
  });

  it('once the start is recorded: FAILED in one attempt, no retry', async () => {
    fake.service.fail('PATCH', { status: 500, body: { detail: 'busy' } }, { status: 500, body: { detail: 'busy' } });
    const result = await run([...FIELDS, '--', ...fixtureCommand('exit.cjs', '0')], {
      waitMs: 3_000,
      onLine: (line, send) => {
        if (line.startsWith('Recorded deployment 1')) send('SIGINT');
      },
    });

    expect(result.code).toBe(130);
    expect(patches()).toHaveLength(1);
  });

  it('once the start is recorded, a service that never answers the update: given the short wait, no more', async () => {
    fake.service.fail('PATCH', { hang: true });
    const started = Date.now();
    const result = await run([...FIELDS, '--timeout-seconds', '60', '--', ...fixtureCommand('exit.cjs', '0')], {
      onLine: (line, send) => {
        if (line.startsWith('Recorded deployment 1')) send('SIGINT');
      },
    });

    expect(result.code).toBe(130);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('a stop signal while the command runs', () => {
  async function interrupted(
    signal: StopSignal,
    options: { witness: Witness; interactive?: boolean; code?: number; twice?: boolean; setsid?: boolean },
  ) {
    const command = counting(options.code ?? 0);
    let pid = 0;
    const said: string[] = [];
    const running = run([...FIELDS, '--', ...(options.setsid ? ['setsid'] : []), ...command.command], {
      witness: options.witness,
      interactive: options.interactive,
      onLine: (line) => said.push(line),
      act: (send) =>
        void command.ready().then(async (ready) => {
          pid = ready;
          send(signal);
          if (options.twice) send(signal);
          // The command is ended only once the CLI has decided what to do with the signal, and has
          // done it: on a busy machine, FAILED can be sent before the signal is passed on.
          await until(() => patches().length > 0 && said.some((line) => line.startsWith(`${signal} received:`)));
          if (said.some((line) => /received: passed on to the command(\.|, which)/.test(line)))
            await until(() => command.got(signal) > 0);
          process.kill(pid, 'SIGUSR2');
        }),
    });
    const result = await running;
    return { ...result, got: command.got(signal) };
  }

  it('sent to the CLI alone: passed on once, said; FAILED at once, then the command’s own ending', async () => {
    const witness = witnessSaying(false);
    const result = await interrupted('SIGTERM', { witness });

    expect(result.got).toBe(1);
    expect(witness.asked).toEqual(['SIGTERM']);
    expect(result.lines).toContain('SIGTERM received: passed on to the command.');
    expect(statuses()).toEqual([['STARTED', 'FAILED', 'SUCCEEDED']]);
    expect(result.lines).toContain(
      'The command ended with exit code 0 after SIGTERM, so the deployment is set to SUCCEEDED after all.',
    );
    expect(result.code).toBe(0);
    expect(witness.stopped).toBe(true); // once the command has ended
  });

  it('that reached the command too (its group, its tree): not passed on, said', async () => {
    const result = await interrupted('SIGINT', { witness: witnessSaying(true) });

    expect(result.got).toBe(0);
    expect(result.lines).toContain(
      'SIGINT received: the command got it too (sent to the whole process group, or to each process), so it is not passed on again.',
    );
  });

  it('to a command in a process group of its own (setsid): passed on whatever the group’s witness says, said', async () => {
    const witness = witnessSaying(true, 'not-reached');
    const result = await interrupted('SIGTERM', { witness, setsid: true });

    expect(result.got).toBe(1);
    expect(witness.asked).toEqual(['outside SIGTERM']);
    expect(result.lines).toContain(
      "SIGTERM received: passed on to the command, which runs in a process group of its own (what is sent to the CLI's group does not reach it).",
    );
    expect(statuses()).toEqual([['STARTED', 'FAILED', 'SUCCEEDED']]);
  });

  it.each([
    [
      'reached',
      'the command got it too (sent to the whole process group, or to each process), so it is not passed on again.',
    ],
    [
      'passed-on-already',
      'passed on to the command once already (it was sent to the CLI and to its process group alike), so not again.',
    ],
  ] as const)('to a command in a process group of its own that it %s: not passed on, said', async (reach, line) => {
    const result = await interrupted('SIGINT', { witness: witnessSaying(false, reach), setsid: true });

    expect(result.got).toBe(0);
    expect(result.lines).toContain(`SIGINT received: ${line}`);
  });

  it('a second one: FAILED is sent once', async () => {
    const result = await interrupted('SIGHUP', { witness: witnessSaying(false), twice: true });

    expect(result.got).toBeGreaterThanOrEqual(1);
    expect(patches().length).toBe(2); // FAILED at the first, SUCCEEDED at the end
  });

  it('then the command exits non-zero: FAILED stays, sent once, said', async () => {
    const result = await interrupted('SIGINT', { witness: witnessSaying(false), code: 3 });

    expect(result.code).toBe(3);
    expect(statuses()).toEqual([['STARTED', 'FAILED']]);
    expect(patches()).toHaveLength(1);
    expect(result.lines).toContain('The command ended with exit code 3 after SIGINT, so the deployment is FAILED.');
  });

  it('FAILED that could not be recorded at the signal is sent again at the end, each in one attempt', async () => {
    fake.service.fail('PATCH', { status: 500, body: { detail: 'busy' } });
    const result = await interrupted('SIGINT', { witness: witnessSaying(false), code: 3 });

    expect(result.code).toBe(3);
    expect(patches()).toHaveLength(2);
    expect(statuses()).toEqual([['STARTED', 'FAILED']]);
  });

  it('after a signal every update is one attempt: FAILED, and the last word', async () => {
    const fault = { status: 500, body: { detail: 'busy' } };
    fake.service.fail('PATCH', fault, fault, fault);
    const result = await interrupted('SIGINT', { witness: witnessSaying(false), code: 0 });

    expect(result.code).toBe(0);
    expect(patches()).toHaveLength(2);
    expect(statuses()).toEqual([['STARTED']]);
    expect(result.lines).toContain('warning: Could not set deployment 1 to SUCCEEDED: HTTP 500: busy');
  });

  it.each([
    ['SIGINT', 0],
    ['SIGHUP', 0],
    ['SIGTERM', 1],
  ] as const)(
    'no witness, in a terminal: %s is taken to reach the command from the terminal (passed on %i times)',
    async (signal, passed) => {
      const result = await interrupted(signal, { witness: witnessSaying(undefined), interactive: true });

      expect(result.got).toBe(passed);
      if (!passed) {
        expect(result.lines).toContain(
          `${signal} received: in a terminal, the terminal sends it to the command too, so it is not passed on again.`,
        );
      }
    },
  );

  it('no witness, not in a terminal: passed on', async () => {
    const result = await interrupted('SIGINT', { witness: witnessSaying(undefined), interactive: false });

    expect(result.got).toBe(1);
  });

  it('updates that never answer: the CLI waits the short wait after the command’s end, no more', async () => {
    fake.service.fail('PATCH', { hang: true }, { hang: true });
    const command = counting(0);
    let ended = 0;
    const result = await run([...FIELDS, '--timeout-seconds', '60', '--fail-on-error', '--', ...command.command], {
      act: (send) =>
        void command.ready().then(async (pid) => {
          send('SIGINT');
          await until(() => patches().length > 0);
          ended = Date.now();
          process.kill(pid, 'SIGUSR2');
        }),
    });

    expect(Date.now() - ended).toBeLessThan(3_000);
    expect(result.code).toBe(1); // --fail-on-error: the success was not recorded
    expect(result.lines).toContain(
      'warning: Stopped waiting for the service 0.3 s after being told to stop: the deployment may not show how the command ended.',
    );
  });
});

describe('a stop signal once the command has ended', () => {
  it('stops the final update’s retries: no request is tried again, said', async () => {
    fake.service.fail('PATCH', ...Array.from({ length: 4 }, () => ({ status: 503, headers: { 'retry-after': '1' } })));
    const result = await run([...FIELDS, '--retries', '3', '--', ...fixtureCommand('exit.cjs', '0')], {
      onLine: (line, send) => {
        if (line.includes('retrying in')) {
          send('SIGTERM');
          send('SIGINT');
        }
      },
    });

    expect(patches()).toHaveLength(1);
    expect(result.code).toBe(0);
    expect(
      result.lines.filter((line) =>
        line.endsWith('no request is tried again, and the service is waited for 0.3 s at most.'),
      ),
    ).toEqual(['SIGTERM received: no request is tried again, and the service is waited for 0.3 s at most.']);
  });

  it('an update that never answers: the CLI ends after the short wait', async () => {
    fake.service.fail('PATCH', { hang: true });
    let sent = 0;
    const result = await run([...FIELDS, '--timeout-seconds', '60', '--', ...fixtureCommand('exit.cjs', '0')], {
      env: env({ DEPLOY_TRACKER_DEBUG: '1' }),
      onLine: (line, send) => {
        if (line.startsWith('debug: PATCH ')) {
          sent = Date.now();
          send('SIGTERM');
        }
      },
    });

    expect(Date.now() - sent).toBeLessThan(3_000);
    expect(result.code).toBe(0);
  });
});

it('INTERRUPTED_WAIT_MS is a few seconds: within the grace period every CI gives', () => {
  expect(INTERRUPTED_WAIT_MS).toBe(3_000);
});
