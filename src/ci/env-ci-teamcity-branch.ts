// TeamCity's branch, from its properties files, read here with a bound rather than by env-ci (which
// reads both whole and synchronously: a pipe named in the build properties file would hang the CLI
// for ever). TEAMCITY_BUILD_PROPERTIES_FILE names the build's properties; its
// `teamcity.configuration.properties.file` names the configuration's, where TeamCity puts
// `teamcity.build.branch` (www.jetbrains.com/help/teamcity/predefined-build-parameters.html). Each
// is read only if it is a regular file of at most MAX_PROPERTIES_BYTES; anything else gives nothing.
// Read asynchronously: a file on a mount that hangs holds a thread of libuv's pool, never the event
// loop, so the start's deadline and the stop signals still come (run.ts).
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import type { Log } from '../core/log.js';
import type { Env } from './variables.js';

/** More than any build's properties hold; a larger file is not read. */
export const MAX_PROPERTIES_BYTES = 1024 * 1024;
/** How long both files may take, as a git call (git.ts): a mount that hangs holds nothing longer. */
const READ_TIMEOUT_MS = 5_000;

const BRANCH = 'teamcity.build.branch';
const CONFIGURATION_FILE = 'teamcity.configuration.properties.file';

/** How the files are opened: node:fs/promises's open, or a test's. */
export type OpenFile = (path: string, flags: number) => Promise<Pick<FileHandle, 'stat' | 'read' | 'close'>>;

interface ReadOptions {
  /** How the files are opened (a test's). */
  openFile?: OpenFile;
  /** The run's deadline: no file is waited on past it. */
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** The build's branch as TeamCity's properties name it; '' where they name none or cannot be read in time. */
export async function teamCityBranch(env: Env, log: Pick<Log, 'debug'>, options: ReadOptions = {}): Promise<string> {
  const { openFile = open, signal, timeoutMs = READ_TIMEOUT_MS } = options;
  const bound = AbortSignal.any([AbortSignal.timeout(timeoutMs), ...(signal ? [signal] : [])]);
  const read = (path: string | undefined) => readProperties(path, log, openFile, bound);
  const build = await read(env.TEAMCITY_BUILD_PROPERTIES_FILE);
  const branch = build.get(BRANCH);
  if (branch) return branch;
  return (await read(build.get(CONFIGURATION_FILE))).get(BRANCH) ?? '';
}

async function readProperties(
  path: string | undefined,
  log: Pick<Log, 'debug'>,
  openFile: OpenFile,
  bound: AbortSignal,
): Promise<Map<string, string>> {
  if (!path) return new Map();
  try {
    // A read that does not end (a mount that hangs) is left to libuv's thread: nothing waits for it.
    return parseProperties(await untilAborted(() => readBoundedFile(path, MAX_PROPERTIES_BYTES, openFile), bound));
  } catch (error) {
    log.debug(`TeamCity's properties file ${path} is not read: ${(error as Error).message}.`);
    return new Map();
  }
}

/** `work()`'s result, or a rejection as soon as `bound` is aborted (not started where it is already). */
function untilAborted<T>(work: () => Promise<T>, bound: AbortSignal): Promise<T> {
  if (bound.aborted) return Promise.reject(new Error('no answer before the deadline'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('no answer before the deadline'));
    bound.addEventListener('abort', onAbort, { once: true });
    work()
      .then(resolve, reject)
      .finally(() => bound.removeEventListener('abort', onAbort));
  });
}

/**
 * A regular file's text, read up to `max` bytes whatever its size says. Opened without blocking and
 * checked once open, so that a pipe or a device in its place is never waited on. Throws otherwise.
 */
export async function readBoundedFile(path: string, max: number, openFile: OpenFile = open): Promise<string> {
  let file;
  try {
    file = await openFile(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new Error(`it cannot be opened (${String((error as { code?: unknown }).code ?? error)})`, { cause: error });
  }
  try {
    if (!(await file.stat()).isFile()) throw new Error('it is not a regular file');
    // Whatever its size says (a file of /proc says 0): at most one byte past the bound is read.
    const buffer = Buffer.alloc(max + 1);
    let size = 0;
    for (;;) {
      const { bytesRead } = await file.read(buffer, size, buffer.length - size, null);
      size += bytesRead;
      if (bytesRead === 0 || size > max) break;
    }
    if (size > max) throw new Error(`it is over ${max} bytes`);
    return buffer.subarray(0, size).toString('utf8');
  } finally {
    await file.close();
  }
}

/**
 * A Java properties file's keys and values, as java.util.Properties reads them: `#` and `!`
 * comments, `=`, `:` or white space between key and value, a backslash at a line's end continuing
 * it, `\uXXXX` and the other escapes. The first of a key's values is kept.
 */
export function parseProperties(text: string): Map<string, string> {
  const properties = new Map<string, string>();
  for (const line of logicalLines(text)) {
    const trimmed = line.replace(/^[ \t\f]+/, '');
    if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith('!')) continue;
    // The key ends at the first unescaped separator; the value starts after it and its white space.
    const match = /^((?:\\.|[^\\=: \t\f])*)[ \t\f]*[=:]?[ \t\f]*([\s\S]*)$/.exec(trimmed) as RegExpExecArray;
    const key = unescape(match[1] as string);
    if (!properties.has(key)) properties.set(key, unescape(match[2] as string));
  }
  return properties;
}

/** The file's lines, each joined with those a trailing (unescaped) backslash continues it with. */
function logicalLines(text: string): string[] {
  const lines: string[] = [];
  let current: string | undefined;
  for (const physical of text.split(/\r\n|\r|\n/)) {
    // A continuation line's leading white space is not part of the value.
    const part = current === undefined ? physical : physical.replace(/^[ \t\f]+/, '');
    const comment = current === undefined && /^[ \t\f]*[#!]/.test(part);
    const continued = !comment && /(?:^|[^\\])(?:\\\\)*\\$/.test(part);
    const joined = (current ?? '') + (continued ? part.slice(0, -1) : part);
    current = continued ? joined : undefined;
    if (!continued) lines.push(joined);
  }
  if (current !== undefined) lines.push(current);
  return lines;
}

const ESCAPES: Record<string, string> = { t: '\t', n: '\n', r: '\r', f: '\f' };

function unescape(text: string): string {
  // A backslash is never last: logicalLines takes it for a continuation.
  return text.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, escaped: string) => {
    if (escaped.length === 5) return String.fromCharCode(Number.parseInt(escaped.slice(1), 16));
    return ESCAPES[escaped] ?? escaped;
  });
}
