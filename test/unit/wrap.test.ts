import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  readSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveCommand } from '../../src/cli/find-command.ts';
import { processGroupOf } from '../../src/cli/process-group.ts';
import type { OutsideReach, Witness } from '../../src/cli/witness.ts';
import { commandStdio, exitCodeOf, startCommand } from '../../src/cli/wrap.ts';
import { running, tree, until } from '../helpers/processes.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'report-deployment-wrap-'));
  for (const sub of ['a', 'b']) mkdirSync(join(dir, sub));
  writeFileSync(join(dir, 'a', 'deploy'), '#!/bin/sh\n');
  chmodSync(join(dir, 'a', 'deploy'), 0o644);
  writeFileSync(join(dir, 'b', 'deploy'), '#!/bin/sh\n');
  chmodSync(join(dir, 'b', 'deploy'), 0o755);
  writeFileSync(join(dir, 'a', 'plain'), 'x');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('resolveCommand', () => {
  it('finds the first executable file of the name on PATH, as a shell does', () => {
    const path = [join(dir, 'a'), join(dir, 'b')].join(delimiter);
    expect(resolveCommand('deploy', path)).toBe(join(dir, 'b', 'deploy'));
  });

  it('passes over an entry no file system can hold', () => {
    const path = [`/${'x'.repeat(5000)}`, join(dir, 'b')].join(delimiter);
    expect(resolveCommand('deploy', path)).toBe(join(dir, 'b', 'deploy'));
  });

  it('leaves a path with a slash to spawn', () => {
    expect(resolveCommand('./deploy.sh', '')).toBe('./deploy.sh');
  });

  it.each([
    ['nothing of that name', 'missing', 'ENOENT'],
    ['a file of that name that is not executable', 'plain', 'EACCES'],
  ])('throws for %s (%s)', (_, name, code) => {
    expect(() => resolveCommand(name, join(dir, 'a'))).toThrow(
      expect.objectContaining({ code, message: `spawn ${name} ${code}` }),
    );
  });

  it('passes over a folder of the name, as a shell does', () => {
    mkdirSync(join(dir, 'a', 'tool'));
    writeFileSync(join(dir, 'b', 'tool'), '#!/bin/sh\n', { mode: 0o755 });
    expect(resolveCommand('tool', [join(dir, 'a'), join(dir, 'b')].join(delimiter))).toBe(join(dir, 'b', 'tool'));
  });
});

describe('exitCodeOf', () => {
  it.each([
    [{ kind: 'exited', code: 0 }, 0],
    [{ kind: 'exited', code: 3 }, 3],
    [{ kind: 'signalled', signal: 'SIGINT' }, 130],
    [{ kind: 'signalled', signal: 'SIGTERM' }, 143],
    [{ kind: 'not-started', exitCode: 127, reason: '' }, 127],
  ] as const)('%o exits %i', (ending, code) => {
    expect(exitCodeOf(ending)).toBe(code);
  });
});

describe('startCommand', () => {
  const witness = (reached: boolean | undefined) => ({
    stopped: 0,
    alsoReached: () => Promise.resolve(reached),
    reachedOutside: () => Promise.resolve('not-reached' as const),
    stop() {
      this.stopped += 1;
    },
  });

  it('ends as the command does, and stops the witness then', async () => {
    const seen = witness(false);
    const wrapped = startCommand(process.execPath, ['-e', 'process.exit(4)'], { interactive: false, witness: seen });

    expect(await wrapped.ended).toEqual({ kind: 'exited', code: 4 });
    await Promise.resolve();
    expect(seen.stopped).toBe(1);
    expect(await wrapped.relay('SIGTERM')).toBe('ended');
  });

  it.each([
    [false, false, 'SIGINT', 'passed-on'],
    [true, false, 'SIGINT', 'reached'],
    [undefined, true, 'SIGINT', 'terminal'],
    [undefined, true, 'SIGHUP', 'terminal'],
    [undefined, true, 'SIGTERM', 'passed-on'],
    [undefined, false, 'SIGINT', 'passed-on'],
    [false, true, 'SIGINT', 'passed-on'],
  ] as const)('witness %s, in a terminal %s: %s is %s', async (reached, interactive, signal, relay) => {
    const pidFile = join(dir, 'pid');
    const wrapped = startCommand(
      process.execPath,
      [
        '-e',
        `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setTimeout(() => {}, 20000)`,
      ],
      { interactive, witness: witness(reached) },
    );

    expect(await wrapped.relay(signal)).toBe(relay);
    if (relay === 'passed-on') expect(await wrapped.ended).toEqual({ kind: 'signalled', signal });
    else {
      expect(await Promise.race([wrapped.ended, Promise.resolve('running')])).toBe('running');
      // Not left running past the test.
      await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '');
      process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
      expect(await wrapped.ended).toEqual({ kind: 'signalled', signal: 'SIGKILL' });
    }
  });

  it('with PATH unset (env -i), a bare name is looked for where libuv and glibc look: /usr/bin, /bin', async () => {
    const wrapped = startCommand('true', [], { interactive: false, env: {}, witness: witness(false) });

    expect(await wrapped.ended).toEqual({ kind: 'exited', code: 0 });
  });

  it('on Windows passes nothing on: the console sends its Ctrl-C to every process', async () => {
    writeFileSync(join(dir, 'deploy.cmd'), '@echo off\r\n');
    const wrapped = startCommand(join(dir, 'deploy.cmd'), [], {
      interactive: false,
      platform: 'win32',
      env: {},
      witness: witness(false),
    });

    expect(await wrapped.relay('SIGINT')).toBe('console');
    await wrapped.ended;
  });

  it.each([
    ['a command found nowhere', join('no', 'such', 'deploy'), [], 127, "'no/such/deploy' was not found"],
    [
      'a NUL in an argument (refused by Node at once)',
      process.execPath,
      ['a\0b'],
      126,
      'could not be run (ERR_INVALID_ARG_VALUE)',
    ],
  ])('%s does not start', async (_, command, args, code, reason) => {
    const wrapped = startCommand(command, args, { interactive: false, witness: witness(false) });
    const ending = await wrapped.ended;

    expect(ending).toMatchObject({ kind: 'not-started', exitCode: code });
    expect((ending as { reason: string }).reason).toContain(reason);
    expect(exitCodeOf(ending)).toBe(code);
    expect(await wrapped.relay('SIGINT')).toBe('ended');
  });

  it('a batch file cmd.exe cannot be given its arguments (a line break) does not start: 126, said', async () => {
    writeFileSync(join(dir, 'deploy.cmd'), '@echo off\r\n');
    const wrapped = startCommand(join(dir, 'deploy.cmd'), ['a\nb'], {
      interactive: false,
      platform: 'win32',
      env: {},
      witness: witness(false),
    });

    expect(await wrapped.ended).toEqual({
      kind: 'not-started',
      exitCode: 126,
      reason: `'${join(dir, 'deploy.cmd')}' was not run: an argument holds a line break, which cmd.exe cannot pass to a batch file`,
    });
  });

  it('starts its own witness where none is given, and stops it with the command', async () => {
    const wrapped = startCommand(process.execPath, ['-e', 'setTimeout(() => {}, 20000)'], { interactive: false });
    // Sent to this process alone, the signal is not the group's: the witness lives, and it is passed on.
    expect(await wrapped.relay('SIGTERM')).toBe('passed-on');
    expect(await wrapped.ended).toEqual({ kind: 'signalled', signal: 'SIGTERM' });
  });
});

/** A FIFO of the test's, opened for reading (never read unless asked) and for writing. */
function fifo(): { reader: number; writer: number } {
  const path = join(dir, `fifo-${Math.random()}`);
  execFileSync('mkfifo', [path]);
  const reader = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  return { reader, writer: openSync(path, constants.O_WRONLY) };
}

const openFiles = () => readdirSync('/proc/self/fd').length;

describe('commandStdio', () => {
  it('on Linux, gives the command a stderr pipe through an open file of its own (closed once it is started)', () => {
    const { reader, writer } = fifo();
    const before = openFiles();
    const given = commandStdio('linux', writer);
    const fd = (given.stdio as number[])[2] as number;

    expect(given.stdio).toEqual(['inherit', 'inherit', fd]);
    expect(fd).not.toBe(writer);
    expect(openFiles()).toBe(before + 1);
    given.close();
    expect(openFiles()).toBe(before);
    closeSync(reader);
    closeSync(writer);
  });

  it.each([
    ['a file', 'linux', () => openSync(join(dir, 'file'), 'w')],
    ['a pipe on another OS', 'darwin', () => fifo().writer],
    [
      'a pipe whose reader has gone',
      'linux',
      () => {
        const { reader, writer } = fifo();
        closeSync(reader);
        return writer;
      },
    ],
  ] as const)('gives the CLI’s own stderr as it is for %s', (_, platform, open) => {
    const fd = open();
    const given = commandStdio(platform, fd);

    expect(given.stdio).toEqual(['inherit', 'inherit', fd]);
    given.close();
  });

  it('is the CLI’s stderr (2) by default', () => {
    const given = commandStdio('darwin');
    expect(given.stdio).toEqual(['inherit', 'inherit', 2]);
  });
});

describe('startCommand, further', () => {
  const witness = {
    alsoReached: () => Promise.resolve(false),
    reachedOutside: () => Promise.resolve('not-reached' as const),
    stop: () => undefined,
  };

  it('the command writes on the CLI’s stderr pipe, through its own open file of it', async () => {
    const { reader, writer } = fifo();
    const wrapped = startCommand(process.execPath, ['-e', "process.stderr.write('hello')"], {
      interactive: false,
      stderr: writer,
      witness,
    });

    expect(await wrapped.ended).toEqual({ kind: 'exited', code: 0 });
    const buffer = Buffer.alloc(16);
    expect(buffer.toString('utf8', 0, readSync(reader, buffer))).toBe('hello');
    closeSync(reader);
    closeSync(writer);
  });

  it('finds a bare name on the PATH it is given', async () => {
    const wrapped = startCommand('node', ['-e', 'process.exit(5)'], {
      interactive: false,
      env: { PATH: dirname(process.execPath) },
      witness,
    });

    expect(await wrapped.ended).toEqual({ kind: 'exited', code: 5 });
  });

  it('closes its own open file of the CLI’s stderr pipe once the command has started', async () => {
    const path = join(dir, 'stderr');
    execFileSync('mkfifo', [path]);
    const reader = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = openSync(path, constants.O_WRONLY);
    const ofThePipe = () =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`) === path;
        } catch {
          return false;
        }
      }).length;
    const wrapped = startCommand(process.execPath, ['-e', ''], { interactive: false, stderr: writer, witness });

    expect(ofThePipe()).toBe(2); // the test's own two
    await wrapped.ended;
    closeSync(reader);
    closeSync(writer);
  });

  it('a command that died of a signal has ended: nothing is passed on', async () => {
    const wrapped = startCommand(process.execPath, ['-e', "process.kill(process.pid, 'SIGKILL')"], {
      interactive: false,
      witness,
    });

    expect(await wrapped.ended).toEqual({ kind: 'signalled', signal: 'SIGKILL' });
    expect(await wrapped.relay('SIGTERM')).toBe('ended');
  });

  it('a file that is not executable: 126, permission denied', async () => {
    const ending = await startCommand(join(dir, 'a', 'deploy'), [], { interactive: false, witness }).ended;

    expect(ending).toEqual({
      kind: 'not-started',
      exitCode: 126,
      reason: `'${join(dir, 'a', 'deploy')}' could not be run (permission denied, or not a program)`,
    });
  });

  it('on Windows, a command found nowhere: 127', async () => {
    const ending = await startCommand('deploy', [], {
      interactive: false,
      platform: 'win32',
      env: { PATH: join(dir, 'a') },
      witness,
    }).ended;

    expect(ending).toEqual({ kind: 'not-started', exitCode: 127, reason: "'deploy' was not found" });
  });

  it('its own witness is the cat of the command’s PATH', async () => {
    const marker = join(dir, 'witnessed');
    writeFileSync(join(dir, 'b', 'cat'), `#!/bin/sh\necho > '${marker}'\nexec /bin/cat\n`, { mode: 0o755 });
    const wrapped = startCommand(process.execPath, ['-e', 'setTimeout(() => {}, 300)'], {
      interactive: false,
      env: { PATH: `${join(dir, 'b')}${delimiter}${process.env.PATH ?? ''}` },
    });
    await wrapped.ended;

    expect(readFileSync(marker, 'utf8')).toBe('\n');
  });
});

describe('startCommand, a command that leaves the CLI’s process group (setsid)', () => {
  const outside = (reach: OutsideReach) => ({
    asked: [] as string[],
    alsoReached(signal: NodeJS.Signals) {
      this.asked.push(`group ${signal}`);
      return Promise.resolve(true);
    },
    reachedOutside(signal: NodeJS.Signals) {
      this.asked.push(`outside ${signal}`);
      return Promise.resolve(reach);
    },
    stop: () => undefined,
  });

  /** `setsid node` waiting, started by startCommand; resolves once it runs in its own group. */
  async function setsid(witness: Witness, platform?: NodeJS.Platform) {
    const pidFile = join(dir, 'pid');
    const wrapped = startCommand(
      'setsid',
      [
        process.execPath,
        '-e',
        `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setTimeout(() => {}, 20000)`,
      ],
      { interactive: false, witness, platform },
    );
    await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '');
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(await processGroupOf(pid)).toBe(pid);
    return { wrapped, pid };
  }

  it('a signal that did not reach it is passed on, whatever the group’s witness says', async () => {
    const witness = outside('not-reached');
    const { wrapped } = await setsid(witness);

    expect(await wrapped.relay('SIGTERM')).toBe('own-group');
    expect(witness.asked).toEqual(['outside SIGTERM']);
    expect(await wrapped.ended).toEqual({ kind: 'signalled', signal: 'SIGTERM' });
  });

  it.each(['reached', 'passed-on-already'] as const)('one that %s it is not passed on', async (reach) => {
    const { wrapped, pid } = await setsid(outside(reach));

    expect(await wrapped.relay('SIGINT')).toBe(reach);
    expect(running(pid)).toBe(true);
    process.kill(pid, 'SIGKILL');
    await wrapped.ended;
  });

  it('has ended while the witnesses were asked: nothing is passed on', async () => {
    const witness = outside('not-reached');
    const { wrapped, pid } = await setsid(witness);
    // It ends after its group was read, before the witnesses answer.
    witness.reachedOutside = async () => {
      process.kill(pid, 'SIGKILL');
      await wrapped.ended;
      return 'not-reached';
    };

    expect(await wrapped.relay('SIGTERM')).toBe('ended');
    expect(await wrapped.ended).toEqual({ kind: 'signalled', signal: 'SIGKILL' });
  });

  it('where its group cannot be seen (not Linux): the rule for a command in the group', async () => {
    const witness = outside('not-reached');
    const { wrapped, pid } = await setsid(witness, 'darwin');

    expect(await wrapped.relay('SIGTERM')).toBe('reached');
    expect(witness.asked).toEqual(['group SIGTERM']);
    process.kill(pid, 'SIGKILL');
    await wrapped.ended;
  });

  it('a command in the group is asked of the group’s witness alone', async () => {
    const witness = outside('not-reached');
    const wrapped = startCommand(process.execPath, ['-e', 'setTimeout(() => {}, 300)'], {
      interactive: false,
      witness,
    });

    expect(await wrapped.relay('SIGTERM')).toBe('reached');
    expect(witness.asked).toEqual(['group SIGTERM']);
    expect(await wrapped.ended).toEqual({ kind: 'exited', code: 0 });
  });

  it('its own witnesses: on Linux the group’s and the tree’s, in a group of its own; elsewhere the group’s', async () => {
    const cats = () =>
      tree(process.pid).filter((pid) => readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'cat' && running(pid));
    const groups = async (platform: NodeJS.Platform) => {
      const wrapped = startCommand(process.execPath, ['-e', 'setTimeout(() => {}, 20000)'], {
        interactive: false,
        platform,
      });
      await until(() => cats().length === (platform === 'linux' ? 2 : 1));
      const found = await Promise.all(cats().map(async (pid) => (await processGroupOf(pid)) === pid));
      expect(await wrapped.relay('SIGTERM')).toBe('passed-on');
      await wrapped.ended;
      await until(() => cats().length === 0);
      return found.sort();
    };

    expect(await groups('linux')).toEqual([false, true]);
    expect(await groups('darwin')).toEqual([false]);
  });
});
