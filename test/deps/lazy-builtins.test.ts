// The stand-ins scripts/lazy-builtins.ts writes next to a bundle, as dist/ ships them: loading one
// loads nothing, the constants it fixes are answered without the builtin, and everything else is the
// real builtin's, loaded on first use. Every failure names the file to update.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lazyBuiltins } from '../../scripts/lazy-builtins.ts';
import { ROOT } from '../helpers/run-action.ts';

const UPDATE = 'update scripts/lazy-builtins.ts';
const work = mkdtempSync(join(tmpdir(), 'lazy-builtins-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * Runs `body` in a fresh Node process (from a file: `node -e` loads crypto first), with `loaded(name)`
 * saying whether the builtin `name` has been loaded, and returns what it prints as JSON.
 */
function inFreshProcess(body: string): Record<string, unknown> {
  const file = join(work, `probe-${Math.random().toString(36).slice(2)}.cjs`);
  writeFileSync(file, `const loaded = (name) => process.moduleLoadList.includes('NativeModule ' + name);\n${body}\n`);
  const ran = spawnSync(process.execPath, [file], { encoding: 'utf8' });
  if (ran.status !== 0) throw new Error(ran.stderr);
  return JSON.parse(ran.stdout) as Record<string, unknown>;
}

/** A property each stand-in's builtin is first used for, and a constant it does not fix (with its value). */
const FIRST_USE: Record<string, { property: string; otherConstant?: string; otherValue?: string }> = {
  'node:http2': { property: 'connect', otherConstant: 'HTTP2_HEADER_COOKIE', otherValue: 'cookie' },
  crypto: { property: 'randomUUID' },
};

describe.each(Object.entries(lazyBuiltins(true)))('the stand-in for %s in dist/', (name, { file, constants }) => {
  const standIn = join(ROOT, 'dist', file);

  it('loads nothing when required, and answers its constants without the builtin', () => {
    const result = inFreshProcess(`
      const standIn = require(${JSON.stringify(standIn)});
      const afterRequire = loaded('${name.replace(/^node:/, '')}');
      const answered = Object.fromEntries(Object.keys(${JSON.stringify(constants ?? {})}).map((key) => [key, standIn.constants[key]]));
      console.log(JSON.stringify({ afterRequire, answered, afterConstants: loaded('${name.replace(/^node:/, '')}') }));`);

    expect(result, UPDATE).toEqual({ afterRequire: false, answered: constants ?? {}, afterConstants: false });
  });

  it('is the real builtin for everything else, loaded on first use', () => {
    const use = FIRST_USE[name];
    const base = name.replace(/^node:/, '');
    const result = inFreshProcess(`
      const standIn = require(${JSON.stringify(standIn)});
      const first = standIn.${use?.property};
      const loadedOnUse = loaded('${base}');
      const real = require('${name}');
      const keys = Object.keys(real);
      console.log(JSON.stringify({
        loadedOnUse,
        firstIsReal: first === real.${use?.property},
        differing: keys.filter((key) => key !== 'constants' && standIn[key] !== real[key]),
        sameKeys: JSON.stringify(Object.keys(standIn)) === JSON.stringify(keys),
        otherConstant: ${use?.otherConstant ? `standIn.constants.${use.otherConstant}` : 'null'},
      }));`);

    expect(use, `${UPDATE}: and say here what the stand-in for ${name} is first used for`).toBeDefined();
    expect(result, UPDATE).toEqual({
      loadedOnUse: true,
      firstIsReal: true,
      differing: [],
      sameKeys: true,
      otherConstant: use?.otherValue ?? null,
    });
  });
});
