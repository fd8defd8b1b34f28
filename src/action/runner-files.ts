// The runner's files a step writes: GITHUB_OUTPUT, GITHUB_STATE and GITHUB_STEP_SUMMARY. Each is
// opened without blocking and written only when it is a regular file: @actions/core appends with
// appendFileSync, which waits for ever on a pipe nobody reads (a FIFO in the file's place), and a
// reporter must never hold a deployment job. A file that cannot be written is an Error that names
// it; the report turns it into a warning.
import { closeSync, constants, fstatSync, openSync, writeSync } from 'node:fs';
import { EOL } from 'node:os';

type RunnerFile = 'GITHUB_OUTPUT' | 'GITHUB_STATE' | 'GITHUB_STEP_SUMMARY';

/** Appends `text` to the file `variable` names, in one write; throws an Error naming the file if it cannot. */
export function appendToRunnerFile(variable: RunnerFile, text: string): void {
  const path = process.env[variable] ?? '';
  const name = `${variable} (${path})`;
  let fd: number;
  try {
    // O_NONBLOCK: a pipe with no reader fails at once (ENXIO) instead of waiting for one.
    fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_NONBLOCK);
  } catch (error) {
    throw new Error(`${name} ${openProblem(error)}`, { cause: error });
  }
  try {
    if (!fstatSync(fd).isFile()) throw new Error(`${name} is not a regular file (writing to it could hold the step)`);
    const bytes = Buffer.from(text, 'utf8');
    for (let written = 0; written < bytes.length;) {
      const count = writeSync(fd, bytes, written);
      if (count <= 0) throw new Error(`${name} took no more bytes`);
      written += count;
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Values as the runner reads a file command: `name<<delimiter`, the value, the delimiter, each
 * block on its own lines, with a random delimiter the value cannot hold (as @actions/core writes).
 */
export function keyValueBlocks(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([name, value]) => {
      // globalThis.crypto, not node:crypto: loaded on first use, not by every step at its start.
      const delimiter = `ghadelimiter_${crypto.randomUUID()}`;
      if (value.includes(delimiter)) throw new Error(`The value of ${name} holds its delimiter`);
      return `${name}<<${delimiter}${EOL}${value}${EOL}${delimiter}${EOL}`;
    })
    .join('');
}

const OPEN_PROBLEMS: Record<string, string> = {
  ENOENT: 'does not exist',
  ENOTDIR: 'does not exist (a part of its path is no folder)',
  ENXIO: 'is a pipe that nobody reads (writing to it would hold the step)',
  EISDIR: 'is a folder',
  EACCES: 'may not be written (permission denied)',
  EPERM: 'may not be written (operation not permitted)',
  ELOOP: 'is a loop of symbolic links',
  ENAMETOOLONG: 'has a name too long to open',
  EROFS: 'is on a read-only file system',
};

function openProblem(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && Object.hasOwn(OPEN_PROBLEMS, code)) return OPEN_PROBLEMS[code] as string;
  return `could not be opened (${typeof code === 'string' ? code : String(error)})`;
}
