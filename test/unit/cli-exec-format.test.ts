// exec-format.ts: which files `run` refuses as programs for another machine (126, "Exec format error"),
// told as bash tells them, and those binfmt_misc makes runnable (QEMU, Wine), which it leaves to exec.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkRunsHere, entryMatches, ExecFormatError, looksBinary } from '../../src/cli/exec-format.ts';

let dir = '';
beforeEach(() => void (dir = mkdtempSync(join(tmpdir(), 'report-deployment-exec-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A 64-bit ELF header for `machine` (62 x86-64, 183 arm64, 22 s390x big-endian). */
function elf(machine: number, bigEndian = false): Buffer {
  const header = Buffer.alloc(64);
  header.write('\x7fELF', 0, 'latin1');
  header.set([2, bigEndian ? 2 : 1, 1], 4);
  if (bigEndian) header.writeUInt16BE(machine, 18);
  else header.writeUInt16LE(machine, 18);
  return header;
}

function file(name: string, content: Buffer | string): string {
  const path = join(dir, name);
  writeFileSync(path, content, { mode: 0o755 });
  return path;
}

const noBinfmt = () => join(dir, 'no-binfmt');

describe('checkRunsHere', () => {
  it.each([
    ['an arm64 ELF on x64', elf(183), 'x64'],
    ['an x86-64 ELF on arm64', elf(62), 'arm64'],
    ['an s390x ELF (big-endian) on x64', elf(22, true), 'x64'],
    ['a Windows PE on x64', Buffer.concat([Buffer.from('MZ\x90\x00', 'latin1'), Buffer.alloc(60)]), 'x64'],
  ] as const)('refuses %s', (_, content, arch) => {
    expect(() => checkRunsHere(file('program', content), arch, 'linux', noBinfmt())).toThrow(ExecFormatError);
  });

  it.each([
    ['an x86-64 ELF on x64', elf(62), 'x64'],
    ['an i386 ELF on x64', elf(3), 'x64'],
    ['an s390x ELF on s390x', elf(22, true), 's390x'],
    ['a script with #!', '#!/bin/sh\nexit 0\n', 'x64'],
    ['a script without #! (sh runs it, as shells do)', 'exit 0\n', 'x64'],
    ['a first line without NUL', 'echo hi\n\0\0\0', 'x64'],
  ] as const)('leaves %s to exec', (_, content, arch) => {
    expect(() => checkRunsHere(file('program', content), arch, 'linux', noBinfmt())).not.toThrow();
  });

  it('leaves to exec what it cannot open, a folder, and everything off Linux', () => {
    const foreign = file('foreign', elf(183));
    expect(() => checkRunsHere(join(dir, 'missing'), 'x64', 'linux', noBinfmt())).not.toThrow();
    expect(() => checkRunsHere(dir, 'x64', 'linux', noBinfmt())).not.toThrow();
    expect(() => checkRunsHere(foreign, 'x64', 'darwin', noBinfmt())).not.toThrow();
  });

  it('leaves to exec a binary that an enabled binfmt_misc entry runs (QEMU), by magic or by extension', () => {
    const binfmt = join(dir, 'binfmt');
    mkdirSync(binfmt);
    writeFileSync(join(binfmt, 'status'), 'enabled\n');
    writeFileSync(join(binfmt, 'register'), '');
    writeFileSync(
      join(binfmt, 'qemu-aarch64'),
      'enabled\ninterpreter /usr/bin/qemu-aarch64-static\nflags: F\noffset 0\nmagic 7f454c460201010000000000000000000200b700\nmask ffffffffffffff00fffffffffffffffffeffffff\n',
    );
    writeFileSync(join(binfmt, 'wine'), 'enabled\ninterpreter /usr/bin/wine\nflags: \nextension .exe\n');
    const arm = elf(183);
    arm.writeUInt16LE(2, 16);
    const pe = Buffer.concat([Buffer.from('MZ\x90\x00', 'latin1'), Buffer.alloc(60)]);

    expect(() => checkRunsHere(file('deploy-arm', arm), 'x64', 'linux', binfmt)).not.toThrow();
    expect(() => checkRunsHere(file('deploy.exe', pe), 'x64', 'linux', binfmt)).not.toThrow();
    expect(() => checkRunsHere(file('deploy-s390x', elf(22, true)), 'x64', 'linux', binfmt)).toThrow(ExecFormatError);
    // Disabled, it runs nothing.
    writeFileSync(join(binfmt, 'status'), 'disabled\n');
    expect(() => checkRunsHere(file('deploy-arm2', arm), 'x64', 'linux', binfmt)).toThrow(ExecFormatError);
  });
});

describe('entryMatches, looksBinary', () => {
  it('a disabled entry matches nothing; magic beyond the file does not match', () => {
    const head = elf(183);
    expect(entryMatches('disabled\noffset 0\nmagic 7f454c46\n', head, 'x')).toBe(false);
    expect(entryMatches('enabled\noffset 0\nmagic 7f454c46\n', head, 'x')).toBe(true);
    expect(entryMatches('enabled\noffset 62\nmagic 0000ff\nmask 0000ff\n', head, 'x')).toBe(false);
  });

  it('any bytes: binary exactly where a NUL comes before the first line break within 80 bytes (bash’s rule)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const head = Buffer.from(bytes).subarray(0, 80);
        const newline = head.indexOf(0x0a);
        const nul = head.indexOf(0);
        expect(looksBinary(Buffer.from(bytes))).toBe(nul !== -1 && (newline === -1 || nul < newline));
      }),
    );
  });
});
