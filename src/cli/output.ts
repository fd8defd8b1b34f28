// What the CLI itself writes on stdout and stderr, written so that it can neither kill nor hold the
// CLI. A stream that cannot be written (`2>/dev/full`, a full disk, a pipe whose reader has gone)
// loses what the CLI says on it, and nothing else: no EPIPE, ENOSPC or EBADF is ever thrown, the
// command runs on, the final update is sent. The log (stderr) is not read by a stuck reader for
// ever: at most QUEUE_BYTES of it wait in memory (later text is dropped), and at exit the CLI waits
// at most DRAIN_MS for them. The command's own output on stdout (a listing, ids, help) is another
// matter: it is the product, so it is never dropped for its size and the CLI waits for its reader as
// `cat` would (outputWritten), and a command whose product is the output says so by its exit code
// where it could not be written. Node writes a pipe asynchronously, so waiting text never blocks the
// event loop (the command's own end of such a pipe is kept apart from the CLI's: see commandStdio in
// wrap.ts).

/** The most text of the CLI's own that waits for a slow reader; past it, text is dropped. */
export const QUEUE_BYTES = 64 * 1024;
/** How long the CLI waits at exit for a reader to take what it wrote. */
export const DRAIN_MS = 2_000;

/** The part of a stream the CLI writes through. */
export interface Writable {
  write(text: string, done?: (error?: Error | null) => void): unknown;
  on(event: 'error' | 'drain', listener: () => void): unknown;
  readonly writableLength: number;
  readonly destroyed: boolean;
}

const failed = new WeakSet<Writable>();
const guarded = new WeakSet<Writable>();

/**
 * Writes `text` on `stream` if it can be written: never throws, and drops the text of a stream that
 * failed (an error is kept as the stream's end, not the CLI's) or already holds QUEUE_BYTES unread.
 */
export function writeTo(stream: Writable, text: string): void {
  guard(stream);
  if (failed.has(stream) || stream.destroyed) return;
  if (stream.writableLength + text.length > QUEUE_BYTES) return;
  try {
    stream.write(text);
  } catch {
    failed.add(stream);
  }
}

/** The last write of each stream's output: it settles once all of it is handed over (writes keep their order). */
const lastOutput = new WeakMap<Writable, Promise<boolean>>();

/**
 * Writes `text`, a command's own output, on `stream`, whatever its size and however slow its reader:
 * never throws; a stream that failed takes nothing more, and outputWritten then says false.
 */
export function writeOutput(stream: Writable, text: string): void {
  guard(stream);
  if (failed.has(stream) || stream.destroyed) {
    failed.add(stream);
    return;
  }
  const handed = new Promise<boolean>((resolve) => {
    try {
      stream.write(text, (error) => {
        if (error) failed.add(stream);
        resolve(!error);
      });
    } catch {
      failed.add(stream);
      resolve(false);
    }
  });
  lastOutput.set(stream, handed);
}

/**
 * Resolves once the output written by writeOutput on `stream` is all with its reader (true), or once
 * the stream failed (false): a slow reader is waited for as long as it takes to read.
 */
export async function outputWritten(stream: Writable = process.stdout): Promise<boolean> {
  const handed = (await lastOutput.get(stream)) ?? true;
  return handed && !failed.has(stream);
}

function guard(stream: Writable): void {
  if (guarded.has(stream)) return;
  guarded.add(stream);
  // Without a listener, an EPIPE or ENOSPC is an uncaught exception, and the CLI dies of its log.
  stream.on('error', () => failed.add(stream));
}

/** Writes on the CLI's stdout its own output (the ids of `start` and `record`, help, the version, a listing). */
export const writeStdout = (text: string): void => writeOutput(process.stdout, text);
/** Writes on the CLI's stderr (its log). */
export const writeStderr = (text: string): void => writeTo(process.stderr, text);

/**
 * Resolves once every stream has handed what it holds to its reader, or failed (true), or after
 * `ms` (false): the CLI may then end without waiting on a reader that does not read.
 */
export function drained(streams: readonly Writable[], ms: number): Promise<boolean> {
  const waiting = streams.filter((stream) => stream.writableLength > 0 && !failed.has(stream) && !stream.destroyed);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    const each = waiting.map(
      (stream) =>
        new Promise<void>((done) => {
          stream.on('drain', done);
          stream.on('error', done);
        }),
    );
    void Promise.all(each).then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
