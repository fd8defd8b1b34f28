// The webhook event that started a GitHub workflow (the JSON file at GITHUB_EVENT_PATH), read with a
// bound. Broken runner data is not a crash: whatever goes wrong (no file, a pipe, a loop of links,
// no permission, a file that is not JSON), the defaults then come from the GITHUB_* variables alone,
// and one warning says so.
import * as nodeFs from 'node:fs';
import { constants } from 'node:fs';
import { Limits } from '../core/constants.js';
import { isObject } from '../core/json.js';
import type { Log } from '../core/log.js';

const FALLBACK = 'the defaults come from the GITHUB_* variables alone';

/** The file system calls the event is read with: node:fs's, or a test's (a permission error as root). */
export type EventFileSystem = Pick<typeof nodeFs, 'statSync' | 'openSync' | 'fstatSync' | 'readSync' | 'closeSync'>;

/** The event's payload; {} (and one warning) when it cannot be read, {} without one where no path is set. */
export function readEventFile(
  path: string | undefined,
  log: Pick<Log, 'warning'>,
  fs: EventFileSystem = nodeFs,
): Record<string, unknown> {
  if (!path) return {};
  const said = (problem: string) => {
    log.warning(`The event file (GITHUB_EVENT_PATH) ${problem}: ${FALLBACK}.`);
    return {};
  };
  let text: string;
  try {
    const problem = fileProblem(fs.statSync(path));
    if (problem) return said(problem);
    text = readBounded(path, fs);
  } catch (error) {
    return said(describeReadError(error));
  }
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    return said('could not be read (it is not JSON)');
  }
  // A field of the wrong type is ignored where it is read; no object at all is said here.
  return isObject(payload) ? payload : said('holds no JSON object');
}

function fileProblem(stats: { isFile(): boolean; size: number }): string | undefined {
  if (!stats.isFile()) return 'is not a file';
  if (stats.size > Limits.eventFileBytes) return `is over ${Limits.eventFileBytes / 1024 / 1024} MiB`;
  return undefined;
}

/**
 * The file's text, read up to the bound whatever its size says (a file of /proc says 0). Opened
 * without blocking and checked again once open, so that a pipe put in its place is never waited on.
 */
function readBounded(path: string, fs: EventFileSystem): string {
  const fd = fs.openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const problem = fileProblem(fs.fstatSync(fd));
    if (problem) throw new EventFileError(problem);
    const chunks: Buffer[] = [];
    let size = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(64 * 1024);
      const read = fs.readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      chunks.push(chunk.subarray(0, read));
      size += read;
      if (size > Limits.eventFileBytes) throw new EventFileError(`is over ${Limits.eventFileBytes / 1024 / 1024} MiB`);
    }
    return Buffer.concat(chunks, size).toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}

class EventFileError extends Error {}

const ERRORS: Record<string, string> = {
  ENOENT: 'does not exist',
  ENOTDIR: 'does not exist (a part of its path is no folder)',
  ELOOP: 'is a loop of symbolic links',
  ENAMETOOLONG: 'has a name too long to open',
  EACCES: 'may not be read (permission denied)',
  EPERM: 'may not be read (operation not permitted)',
  EISDIR: 'is not a file',
  // A special file that says it is a regular one (/proc/kmsg) and has nothing to read yet.
  EAGAIN: 'would make the step wait (a special file with nothing to read yet)',
};

function describeReadError(error: unknown): string {
  if (error instanceof EventFileError) return error.message;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && Object.hasOwn(ERRORS, code)) return ERRORS[code] as string;
  return `could not be read (${typeof code === 'string' ? code : String(error)})`;
}
