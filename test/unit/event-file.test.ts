// The event file read with a bound, every error one warning (src/ci/event-file.ts), through an
// injected file system where a real one cannot play the case here: a permission error (the tests
// may run as root, whom no file mode stops), a special file with nothing to read yet, an endless one.
import { describe, expect, it } from 'vitest';
import { readEventFile, type EventFileSystem } from '../../src/ci/event-file.ts';
import { Limits } from '../../src/core/constants.ts';

const FALLBACK = ': the defaults come from the GITHUB_* variables alone.';
type Stats = ReturnType<EventFileSystem['fstatSync']>;
const stats = (isFile: boolean, size: number) => ({ isFile: () => isFile, size }) as Stats;
const regular = stats(true, 0);
const failing = (code: string) => () => {
  throw Object.assign(new Error(`${code}: it failed`), { code });
};

/** A file system with one file of `content` (chunks of it, read after read), and what it was asked. */
function fileSystem(overrides: Partial<EventFileSystem> = {}, chunks: Buffer[] = [Buffer.from('{"a":1}')]) {
  const asked = { reads: 0, bytes: 0, closed: 0 };
  const fs = {
    statSync: () => regular,
    openSync: () => 7,
    fstatSync: () => regular,
    readSync: (_fd: number, buffer: Buffer) => {
      asked.reads++;
      const chunk = chunks.shift() ?? Buffer.alloc(0);
      chunk.copy(buffer);
      asked.bytes += chunk.length;
      return chunk.length;
    },
    closeSync: () => void asked.closed++,
    ...overrides,
  } as EventFileSystem;
  return { fs, asked };
}

function read(fs: EventFileSystem) {
  const warnings: string[] = [];
  const payload = readEventFile(
    '/github/workflow/event.json',
    { warning: (text) => void warnings.push(String(text)) },
    fs,
  );
  return { payload, warnings };
}

describe('readEventFile', () => {
  it('reads the payload of a regular file, and closes it', () => {
    const { fs, asked } = fileSystem();
    expect(read(fs)).toEqual({ payload: { a: 1 }, warnings: [] });
    expect(asked.closed).toBe(1);
  });

  it.each([
    ['EACCES', 'openSync', 'may not be read (permission denied)'],
    ['EPERM', 'openSync', 'may not be read (operation not permitted)'],
    ['EACCES', 'statSync', 'may not be read (permission denied)'],
    ['EAGAIN', 'readSync', 'would make the step wait (a special file with nothing to read yet)'],
    ['EIO', 'readSync', 'could not be read (EIO)'],
  ] as const)('%s from %s: {} and one warning', (code, call, problem) => {
    const { fs } = fileSystem({ [call]: failing(code) });
    expect(read(fs)).toEqual({ payload: {}, warnings: [`The event file (GITHUB_EVENT_PATH) ${problem}${FALLBACK}`] });
  });

  it('reads a file whose size says 0 but has no end with a bound: no more than 25 MiB and a chunk', () => {
    const endless = (_fd: number, buffer: Buffer) => {
      asked.reads++;
      asked.bytes += buffer.length;
      return buffer.length;
    };
    const { fs, asked } = fileSystem();
    fs.readSync = endless as EventFileSystem['readSync'];

    expect(read(fs)).toEqual({
      payload: {},
      warnings: [`The event file (GITHUB_EVENT_PATH) is over 25 MiB${FALLBACK}`],
    });
    expect(asked.bytes).toBeGreaterThan(Limits.eventFileBytes);
    expect(asked.bytes).toBeLessThanOrEqual(Limits.eventFileBytes + 64 * 1024);
    expect(asked.closed).toBe(1);
  });

  it('reads nothing from a file that says it is over the bound, or is no regular file once open', () => {
    const big = fileSystem({ statSync: (() => stats(true, Limits.eventFileBytes + 1)) as EventFileSystem['statSync'] });
    expect(read(big.fs).warnings).toEqual([`The event file (GITHUB_EVENT_PATH) is over 25 MiB${FALLBACK}`]);
    expect(big.asked.reads).toBe(0);
    const swapped = fileSystem({ fstatSync: (() => stats(false, 0)) as EventFileSystem['fstatSync'] });
    expect(read(swapped.fs).warnings).toEqual([`The event file (GITHUB_EVENT_PATH) is not a file${FALLBACK}`]);
    expect(swapped.asked.reads).toBe(0);
  });
});
