// Whether a file `run` is about to start is a program this machine cannot run (an executable built for
// another CPU, or another system's): the kernel refuses it (ENOEXEC), and glibc's exec then hands it
// to /bin/sh as a script, which fails with a "Syntax error" and exit 2. Shells instead say "Exec
// format error" and exit 126 for a file that looks binary; so does `run` (wrap.ts), on Linux. Told
// as bash tells it: a file that starts with `#!`, or holds no NUL byte in its first line, is a script
// and left to exec; an ELF file for this machine runs; any other binary runs only where the kernel
// has been told how (binfmt_misc: QEMU for another CPU, Wine, ...).
import { closeSync, constants, fstatSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';

/** ELF's e_machine of the CPUs each Node arch runs programs of (its own, and the 32-bit one it runs too). */
const MACHINES: Partial<Record<NodeJS.Architecture, readonly number[]>> = {
  x64: [62, 3],
  ia32: [3],
  arm64: [183, 40],
  arm: [40],
  ppc64: [21, 20],
  s390x: [22],
  riscv64: [243],
  loong64: [258],
  mips: [8],
  mipsel: [8],
};

const HEAD_BYTES = 256;
/** What bash reads of a file to decide whether it is binary. */
const SAMPLE_BYTES = 80;
const BINFMT_MISC = '/proc/sys/fs/binfmt_misc';

/** An Error whose code, ENOEXEC, says the file is a program for another machine (126). */
export class ExecFormatError extends Error {
  readonly code = 'ENOEXEC';
}

/** Throws ExecFormatError where `file` is a binary this machine cannot run; else does nothing. */
export function checkRunsHere(
  file: string,
  arch: NodeJS.Architecture = process.arch,
  platform: NodeJS.Platform = process.platform,
  binfmtDir = BINFMT_MISC,
): void {
  if (platform !== 'linux') return;
  const head = readHead(file);
  // Unreadable (an executable one may not read): left to exec, which knows.
  if (!head || runsHere(head, file, arch, binfmtDir)) return;
  throw new ExecFormatError('Exec format error');
}

function runsHere(head: Buffer, file: string, arch: NodeJS.Architecture, binfmtDir: string): boolean {
  if (head.subarray(0, 2).toString('latin1') === '#!' || !looksBinary(head)) return true;
  const machines = MACHINES[arch];
  if (!machines) return true;
  if (isElf(head) && machines.includes(elfMachine(head))) return true;
  return binfmtHandles(head, file, binfmtDir);
}

/** bash's test: a NUL byte before the first line break, within the first 80 bytes. */
export function looksBinary(head: Buffer): boolean {
  for (const byte of head.subarray(0, SAMPLE_BYTES)) {
    if (byte === 0x0a) return false;
    if (byte === 0) return true;
  }
  return false;
}

function isElf(head: Buffer): boolean {
  return head.length >= 20 && head.readUInt32BE(0) === 0x7f454c46;
}

/** e_machine, at byte 18, in the file's own byte order (EI_DATA: 1 little-endian, 2 big-endian). */
function elfMachine(head: Buffer): number {
  return head[5] === 2 ? head.readUInt16BE(18) : head.readUInt16LE(18);
}

/** Whether an enabled binfmt_misc entry matches the file (its magic bytes under its mask, or its extension). */
function binfmtHandles(head: Buffer, file: string, dir: string): boolean {
  let names: string[];
  try {
    if (!readFileSync(`${dir}/status`, 'utf8').startsWith('enabled')) return false;
    names = readdirSync(dir).filter((name) => name !== 'status' && name !== 'register');
  } catch {
    return false;
  }
  return names.some((name) => {
    try {
      return entryMatches(readFileSync(`${dir}/${name}`, 'utf8'), head, file);
    } catch {
      return false;
    }
  });
}

export function entryMatches(entry: string, head: Buffer, file: string): boolean {
  const lines = entry.split('\n');
  if (lines[0] !== 'enabled') return false;
  const field = (key: string) => lines.find((line) => line.startsWith(`${key} `))?.slice(key.length + 1);
  const extension = field('extension');
  if (extension !== undefined) return file.endsWith(extension);
  const magic = Buffer.from(field('magic') ?? '', 'hex');
  if (magic.length === 0) return false;
  const mask = field('mask') === undefined ? undefined : Buffer.from(field('mask') as string, 'hex');
  const offset = Number(field('offset') ?? '0');
  return magic.every((byte, index) => {
    const actual = head[offset + index];
    return actual !== undefined && (actual & (mask?.[index] ?? 0xff)) === byte;
  });
}

function readHead(file: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    // Not blocking on a FIFO; only a regular file is read.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    if (!fstatSync(fd).isFile()) return undefined;
    const head = Buffer.alloc(HEAD_BYTES);
    return head.subarray(0, readSync(fd, head, 0, HEAD_BYTES, 0));
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
