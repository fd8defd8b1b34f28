import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveCommand } from '../../src/cli/find-command.ts';
import { exitCodeOf } from '../../src/cli/wrap.ts';

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
    expect(() => resolveCommand(name, join(dir, 'a'))).toThrow(expect.objectContaining({ code }));
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
