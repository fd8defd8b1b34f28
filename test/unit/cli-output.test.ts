// The CLI's own writes (src/cli/output.ts) on streams that fail, are gone or are not read: lost, never
// thrown, never held without bound.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  drained,
  outputWritten,
  QUEUE_BYTES,
  writeOutput,
  writeStderr,
  writeStdout,
  writeTo,
  type Writable,
} from '../../src/cli/output.ts';

/** A stream that takes what it is given, holding `queued` bytes unread. */
class FakeStream extends EventEmitter implements Writable {
  written: string[] = [];
  writableLength = 0;
  destroyed = false;
  throws = false;
  /** The callbacks of writes not yet handed to the reader. */
  pending: Array<(error?: Error | null) => void> = [];
  write(text: string, done?: (error?: Error | null) => void) {
    if (this.throws) throw new Error('EBADF');
    this.written.push(text);
    if (done) this.pending.push(done);
    return true;
  }
}

describe('writeTo', () => {
  it('writes, and listens for the stream’s errors once (an EPIPE is never uncaught)', () => {
    const stream = new FakeStream();
    writeTo(stream, 'a');
    writeTo(stream, 'b');

    expect(stream.written).toEqual(['a', 'b']);
    expect(stream.listenerCount('error')).toBe(1);
  });

  it('after an error, writes nothing more', () => {
    const stream = new FakeStream();
    writeTo(stream, 'a');
    stream.emit('error', new Error('EPIPE'));
    writeTo(stream, 'b');

    expect(stream.written).toEqual(['a']);
  });

  it('writes nothing on a destroyed stream, and survives a write that throws', () => {
    const destroyed = Object.assign(new FakeStream(), { destroyed: true });
    writeTo(destroyed, 'a');
    const throwing = Object.assign(new FakeStream(), { throws: true });
    writeTo(throwing, 'a');
    throwing.throws = false;
    writeTo(throwing, 'b');

    expect(destroyed.written).toEqual([]);
    expect(throwing.written).toEqual([]);
  });

  it(`holds at most ${QUEUE_BYTES} bytes for a reader that does not read; later text is dropped`, () => {
    const stream = new FakeStream();
    stream.writableLength = QUEUE_BYTES - 2;
    writeTo(stream, 'ab'); // up to the bound
    writeTo(stream, 'abc'); // past it
    stream.writableLength = QUEUE_BYTES;
    writeTo(stream, 'c');
    stream.writableLength = 0;
    writeTo(stream, 'd');

    expect(stream.written).toEqual(['ab', 'd']);
  });
});

describe("writeOutput, outputWritten (a command's own output)", () => {
  it(`writes text of any size, whatever waits unread (never dropped at ${QUEUE_BYTES} bytes)`, async () => {
    const stream = Object.assign(new FakeStream(), { writableLength: QUEUE_BYTES * 4 });
    const listing = 'x'.repeat(QUEUE_BYTES * 2);
    writeOutput(stream, listing);
    writeOutput(stream, 'end\n');

    expect(stream.written).toEqual([listing, 'end\n']);
    let settled: boolean | undefined;
    const written = outputWritten(stream).then((ok) => (settled = ok));
    stream.pending.shift()?.();
    await Promise.resolve();
    expect(settled).toBeUndefined(); // the last write is not with the reader yet: waited for
    stream.pending.shift()?.();

    expect(await written).toBe(true);
  });

  it('says false where the stream failed: an error on a write, a write that throws, a stream destroyed', async () => {
    const failing = new FakeStream();
    writeOutput(failing, 'a');
    failing.pending.shift()?.(new Error('EPIPE'));
    const throwing = Object.assign(new FakeStream(), { throws: true });
    writeOutput(throwing, 'a');
    const destroyed = Object.assign(new FakeStream(), { destroyed: true });
    writeOutput(destroyed, 'a');

    expect(await outputWritten(failing)).toBe(false);
    expect(await outputWritten(throwing)).toBe(false);
    expect(await outputWritten(destroyed)).toBe(false);
    expect(destroyed.written).toEqual([]);
  });

  it('says true at once where nothing was written', async () => {
    expect(await outputWritten(new FakeStream())).toBe(true);
  });
});

describe('drained', () => {
  it('at once where nothing waits (or only a stream that failed, or was destroyed)', async () => {
    const failed = Object.assign(new FakeStream(), { writableLength: 10 });
    writeTo(failed, '');
    failed.emit('error', new Error('EPIPE'));
    const destroyed = Object.assign(new FakeStream(), { writableLength: 10, destroyed: true });

    expect(await drained([new FakeStream(), failed, destroyed], 60_000)).toBe(true);
  });

  it('once every waiting stream has drained or failed', async () => {
    const [a, b] = [new FakeStream(), new FakeStream()];
    a.writableLength = b.writableLength = 5;
    const done = drained([a, b], 60_000);
    a.emit('drain');
    b.emit('error', new Error('EPIPE'));

    expect(await done).toBe(true);
  });

  it('false after the bound, for a reader that never reads', async () => {
    const stuck = Object.assign(new FakeStream(), { writableLength: 5 });
    const started = Date.now();

    expect(await drained([stuck, new FakeStream()], 50)).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });
});

describe('writeStdout, writeStderr', () => {
  it('write on the process’s own stdout and stderr', () => {
    const { stdout, stderr } = process;
    const saved = { out: stdout.write.bind(stdout), err: stderr.write.bind(stderr) };
    const written: string[] = [];
    try {
      // A stream calls a write's callback once the text is handed over: a stand-in that never did would
      // leave the process's output forever unwritten for the tests that share this worker.
      stdout.write = ((text: string | Uint8Array, done?: () => void) => {
        written.push(`out:${String(text)}`);
        done?.();
        return true;
      }) as typeof stdout.write;
      stderr.write = (text: string | Uint8Array) => Boolean(written.push(`err:${String(text)}`));
      writeStdout('a');
      writeStderr('b');
    } finally {
      stdout.write = saved.out;
      stderr.write = saved.err;
    }
    expect(written).toEqual(['out:a', 'err:b']);
  });
});
