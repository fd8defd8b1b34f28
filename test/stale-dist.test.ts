// The guard that keeps the end-to-end tests from judging a dist/ built from other sources.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUILD_INPUTS, SOURCE_HASH_FILE, sourceHash } from '../scripts/source-hash.ts';
import { assertDistBuiltFrom, assertFreshDist, STALE_DIST_MESSAGE } from './helpers/stale-dist.ts';

const ROOT = join(import.meta.dirname, '..');
const HASH = 'e4e36c5a0b5a5be0cd56b6296ad207a974a1db00da4844c8a9e59ebdca23d83b';
const OTHER = '27809bd5bc25f2d2533fb37a5488a3fd006b1640eb2368e55c24f729d80778bf';

describe('assertDistBuiltFrom', () => {
  it('accepts the fingerprint of the sources, as the build writes it (with a newline)', () => {
    expect(() => assertDistBuiltFrom(HASH, `${HASH}\n`)).not.toThrow();
    expect(() => assertDistBuiltFrom(HASH, HASH)).not.toThrow();
    expect(() => assertDistBuiltFrom(HASH, `${HASH}\r\n`)).not.toThrow();
  });

  it('refuses another fingerprint, naming both', () => {
    expect(() => assertDistBuiltFrom(HASH, `${OTHER}\n`)).toThrow(
      new Error(`${STALE_DIST_MESSAGE} (sources e4e36c5a0b5a, dist/ 27809bd5bc25)`),
    );
  });

  it('refuses a dist/ without a fingerprint, and an empty one', () => {
    expect(() => assertDistBuiltFrom(HASH, undefined)).toThrow(
      new Error(`${STALE_DIST_MESSAGE} (there is no dist/source-hash.txt)`),
    );
    expect(() => assertDistBuiltFrom(HASH, '')).toThrow(STALE_DIST_MESSAGE);
  });

  it('says what to run', () => {
    expect(STALE_DIST_MESSAGE).toBe(
      'dist/ is stale (built from other sources than src/ now holds): run `npm run build`',
    );
  });
});

describe('assertFreshDist on a checkout', () => {
  let root: string;
  beforeEach(() => {
    // The files the fingerprint covers, copied: src/ and the build inputs.
    root = mkdtempSync(join(tmpdir(), 'stale-dist-'));
    cpSync(join(ROOT, 'src'), join(root, 'src'), { recursive: true });
    for (const file of BUILD_INPUTS) cpSync(join(ROOT, file), join(root, file));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('passes when dist/source-hash.txt is the fingerprint of the sources', () => {
    mkdirSync(join(root, 'dist'));
    writeFileSync(join(root, SOURCE_HASH_FILE), `${sourceHash(root)}\n`);
    expect(() => assertFreshDist(root)).not.toThrow();
  });

  it('fails once a source file changes after the build', () => {
    mkdirSync(join(root, 'dist'));
    writeFileSync(join(root, SOURCE_HASH_FILE), `${sourceHash(root)}\n`);
    writeFileSync(join(root, 'src', 'main.ts'), '// edited after the build\n', { flag: 'a' });
    expect(() => assertFreshDist(root)).toThrow(STALE_DIST_MESSAGE);
  });

  it('fails when dist/ was never built', () => {
    expect(() => assertFreshDist(root)).toThrow(`${STALE_DIST_MESSAGE} (there is no dist/source-hash.txt)`);
  });
});
