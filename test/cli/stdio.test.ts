// The CLI, as npm pack ships it, with a stdout or stderr it cannot write: a full device, a closed
// descriptor, a pipe whose reader has gone, a pipe nobody reads. What it says there is lost, and
// nothing else: no uncaught EPIPE, ENOSPC or EBADF, the command runs to its end, the final update is
// sent, the exit code is the command's (`run`) or the record's (`start`, `record`); and a reader
// that does not read holds the CLI at most DRAIN_MS past the command's end.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DRAIN_MS } from '../../src/cli/output.ts';
import { useFakeService } from '../helpers/fixture.ts';
import { fixtureCommand, INSTALL_TIMEOUT_MS, installedCli, runCli, waitForText } from '../helpers/run-cli.ts';

beforeAll(() => void installedCli(), INSTALL_TIMEOUT_MS);

const fake = useFakeService();
const FIELDS = ['--artifact-id', '42', '--commit-sha', 'c0ffee', '--user', 'alice', '--branch', 'main'];
const env = () => ({ DEPLOY_TRACKER_URL: fake.service.url, DEPLOY_TRACKER_API_KEY: fake.service.apiKey });
const statuses = () => [...fake.service.deployments.values()].map((deployment) => deployment.statuses);

let dir: string;
const opened: number[] = [];
beforeEach(() => void (dir = mkdtempSync(join(tmpdir(), 'report-deployment-stdio-'))));
afterEach(() => {
  for (const fd of opened.splice(0)) closeSync(fd);
  rmSync(dir, { recursive: true, force: true });
});

/** A FIFO of its own, opened by the test: `reader` (which never reads) and `writer`. */
function fifo(): { reader: number; writer: number } {
  const path = join(dir, `fifo-${opened.length}`);
  execFileSync('mkfifo', [path]);
  const reader = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const writer = openSync(path, constants.O_WRONLY);
  opened.push(reader, writer);
  return { reader, writer };
}

/** The ways a stream cannot be written, each given to the CLI as its descriptor (or through a shell). */
const UNWRITABLE = {
  'a full device (/dev/full, a full disk)': () => {
    const fd = openSync('/dev/full', 'w');
    opened.push(fd);
    return { fd };
  },
  'a pipe whose reader has gone': () => {
    const { reader, writer } = fifo();
    closeSync(reader);
    opened.splice(opened.indexOf(reader), 1);
    return { fd: writer };
  },
  'a closed descriptor': () => ({ closed: true }),
} as const;

type Stream = 'stdout' | 'stderr';
function given(stream: Stream, how: keyof typeof UNWRITABLE) {
  const unwritable: { fd?: number; closed?: boolean } = UNWRITABLE[how]();
  const number = stream === 'stdout' ? 1 : 2;
  return unwritable.closed ? { through: ['sh', '-c', `exec "$@" ${number}>&-`, 'sh'] } : { [stream]: unwritable.fd };
}

describe.each(Object.keys(UNWRITABLE) as (keyof typeof UNWRITABLE)[])('a stream that is %s', (how) => {
  it.each([0, 3])(
    'run, stderr: the command runs to its end (exit %i), is recorded, and keeps its exit code',
    async (code) => {
      const result = await runCli(['run', ...FIELDS, '--', ...fixtureCommand('exit.cjs', String(code))], {
        env: env(),
        ...given('stderr', how),
      });

      expect(result.exitCode).toBe(code);
      expect(statuses()).toEqual([['STARTED', code === 0 ? 'SUCCEEDED' : 'FAILED']]);
    },
  );

  it('run, stderr, and a signal: passed on, recorded', async () => {
    const result = await runCli(['run', ...FIELDS, '--', ...fixtureCommand('ready.cjs')], {
      env: env(),
      ...given('stderr', how),
      onSpawn: (child) =>
        void waitForText(child.stdout as NodeJS.ReadableStream, 'ready:').then(() => child.kill('SIGTERM')),
    });

    expect(result.exitCode).toBe(0); // ready.cjs ends 0 on SIGTERM
    expect(statuses()).toEqual([['STARTED', 'FAILED', 'SUCCEEDED']]);
  });

  it.each(['start', 'record'])('%s, stdout (its ids): recorded, exit 0', async (command) => {
    const status = command === 'record' ? ['--status', 'SUCCEEDED'] : [];
    const result = await runCli([command, ...FIELDS, ...status], { env: env(), ...given('stdout', how) });

    expect(result.exitCode).toBe(0);
    expect(statuses()).toEqual([[command === 'record' ? 'SUCCEEDED' : 'STARTED']]);
  });

  it('start, stderr: recorded, exit 0', async () => {
    const result = await runCli(['start', ...FIELDS], { env: env(), ...given('stderr', how) });

    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('1\n');
  });
});

describe('a stderr nobody reads (a pipe whose reader is stuck)', () => {
  it(`holds the CLI at most ${DRAIN_MS} ms past the command's end; the final update is sent, the exit code kept`, async () => {
    const { writer } = fifo();
    let filled = 0;

    const result = await runCli(['run', ...FIELDS, '--', ...fixtureCommand('fill.cjs')], {
      env: env(),
      stderr: writer,
      killAfterMs: 20_000,
      onSpawn: (child) => child.stdout?.once('data', () => (filled = Date.now())),
    });
    const ended = Date.now();

    expect(result.stdout).toBe('fill: full\n');
    expect(result.exitCode).toBe(0);
    expect(statuses()).toEqual([['STARTED', 'SUCCEEDED']]);
    // Its last words waited for the reader DRAIN_MS, then were given up: never for ever.
    expect(ended - filled).toBeLessThan(DRAIN_MS + 5_000);
    expect(ended - filled).toBeGreaterThanOrEqual(DRAIN_MS - 100);
  });
});

// What the command gets where the CLI was started with a descriptor closed, or in a script's
// background: Node.js reopens a closed 0, 1 or 2 on /dev/null and resets every ignored signal before
// any of the CLI's code runs, so neither can reach the command (docs/cli.md says so).
describe('what Node.js decides before the CLI runs (documented, not kept)', () => {
  it('a closed stdin reaches the command as /dev/null; a closed stdout reaches it open, never closed', async () => {
    const stdin = await runCli(['run', ...FIELDS, '--', 'readlink', '/proc/self/fd/0'], {
      env: env(),
      // The test's pipe kept open on 9, so that writing to it fails no one.
      through: ['sh', '-c', 'exec "$@" 9<&0 <&-', 'sh'],
    });
    const stdout = await runCli(['run', ...FIELDS, '--', 'sh', '-c', 'readlink /proc/$$/fd/1 >&2 && :'], {
      env: env(),
      through: ['sh', '-c', 'exec "$@" >&-', 'sh'],
    });

    expect(stdin.exitCode).toBe(0);
    expect(stdin.stdout).toBe('/dev/null\n');
    // readlink of a closed descriptor fails: it is open (Node chose where it leads).
    expect(stdout.exitCode).toBe(0);
    expect(stdout.messages.filter((line) => /^(\/|pipe:\[|socket:\[)/.test(line))).toHaveLength(1);
    expect(statuses()).toEqual([
      ['STARTED', 'SUCCEEDED'],
      ['STARTED', 'SUCCEEDED'],
    ]);
  });

  it('a command started in the background of a script (`&`: SIGINT ignored, by POSIX) gets SIGINT back', async () => {
    /** SigIgn of /proc/self/status: the mask of the signals a process ignores (SIGINT is bit 2). */
    const ignoresSigint = (status: string) =>
      (BigInt(`0x${/^SigIgn:\s*([0-9a-f]+)$/m.exec(status)?.[1] ?? '0'}`) & 2n) === 2n;
    const bare = execFileSync('sh', ['-c', 'cat /proc/self/status & wait $!'], { encoding: 'utf8' });
    const wrapped = await runCli(['run', ...FIELDS, '--', 'cat', '/proc/self/status'], {
      env: env(),
      through: ['sh', '-c', '"$@" & wait $!', 'sh'],
    });

    expect(ignoresSigint(bare)).toBe(true);
    expect(wrapped.exitCode).toBe(0);
    expect(ignoresSigint(wrapped.stdout)).toBe(false);
  });
});
