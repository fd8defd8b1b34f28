// The CIs beyond the seven, through env-ci: what is taken from it (commit, branch, tag, link), what
// is left out (values built from missing variables, a tag given as the branch), and when a process
// counts as in a CI at all. Run in a folder that is no git repository.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isReadableFile, UNKNOWN_CI } from '../../src/ci/env-ci-fallback.ts';
import { contextOf, freshDir } from './ci-context.ts';

const dir = freshDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SHA = '0123456789abcdef0123456789abcdef01234567';

describe('Travis CI through env-ci', () => {
  const base = {
    TRAVIS: 'true',
    CI: 'true',
    TRAVIS_COMMIT: SHA,
    TRAVIS_BUILD_WEB_URL: 'https://app.travis-ci.com/acme/shop/builds/9',
    TRAVIS_PULL_REQUEST: 'false',
  };
  it.each([
    [
      'branch build',
      { ...base, TRAVIS_BRANCH: 'main' },
      { commitSha: SHA, branch: 'main', link: base.TRAVIS_BUILD_WEB_URL },
    ],
    [
      'pull request build: its source branch, not TRAVIS_BRANCH (the target)',
      { ...base, TRAVIS_BRANCH: 'main', TRAVIS_PULL_REQUEST: '5', TRAVIS_PULL_REQUEST_BRANCH: 'feat/login' },
      { commitSha: SHA, branch: 'feat/login', link: base.TRAVIS_BUILD_WEB_URL },
    ],
    [
      'tag build: TRAVIS_BRANCH holds the tag, the branch is the tag',
      { ...base, TRAVIS_BRANCH: 'v1.2.3', TRAVIS_TAG: 'v1.2.3' },
      { commitSha: SHA, version: 'v1.2.3', branch: 'v1.2.3', link: base.TRAVIS_BUILD_WEB_URL },
    ],
    [
      'the job page before the build page',
      { ...base, TRAVIS_BRANCH: 'main', TRAVIS_JOB_WEB_URL: 'https://app.travis-ci.com/acme/shop/jobs/91' },
      { commitSha: SHA, branch: 'main', link: 'https://app.travis-ci.com/acme/shop/jobs/91' },
    ],
    ['variables missing', { CI: 'true', TRAVIS: 'true' }, {}],
  ])('%s', async (_label, env, values) => {
    const seen = await contextOf(env, dir);
    expect(seen.name).toBe('Travis CI');
    expect(seen.values).toEqual(values);
    for (const source of Object.values(seen.sources)) expect(source).toBe('Travis CI (through env-ci)');
  });

  it('takes no user from the agent, and says so', async () => {
    const seen = await contextOf({ ...base, TRAVIS_BRANCH: 'main', USER: 'travis' }, dir);
    expect(seen.values.user).toBeUndefined();
    expect(seen.missing('user')).toBe(
      "is not set, and the variables of Travis CI name no user (a CI agent's git or OS user is not taken for one). Set `--user`.",
    );
  });
});

describe('values env-ci builds from missing variables', () => {
  it('leaves out "https://cirrus-ci.com/task/undefined"', async () => {
    const seen = await contextOf(
      { CI: 'true', CIRRUS_CI: 'true', CIRRUS_CHANGE_IN_REPO: SHA, CIRRUS_BRANCH: 'main' },
      dir,
    );
    expect(seen.name).toBe('Cirrus CI');
    expect(seen.values).toEqual({ commitSha: SHA, branch: 'main' });
  });

  it('keeps a link whose variables are set', async () => {
    const seen = await contextOf({ CI: 'true', CIRRUS_CI: 'true', CIRRUS_TASK_ID: '42', CIRRUS_BRANCH: 'main' }, dir);
    expect(seen.values).toEqual({ branch: 'main', link: 'https://cirrus-ci.com/task/42' });
  });
});

describe('in a CI, or not', () => {
  it.each([
    ['CI=true and no CI anyone knows', { CI: 'true' }, UNKNOWN_CI],
    ['CI=1', { CI: '1' }, UNKNOWN_CI],
    ['CI=false', { CI: 'false' }, undefined],
    ['CI=FALSE', { CI: 'FALSE' }, undefined],
    ['CI empty', { CI: '' }, undefined],
    ['no CI variable', {}, undefined],
    ['a CI env-ci detects without CI (TeamCity)', { TEAMCITY_VERSION: '2024.1' }, 'TeamCity'],
    // env-ci is loaded only where CI says there may be one (or TeamCity's, Bamboo's own mark), so that
    // a developer's terminal never pays for it: a CI's mark beside CI=false is not asked about.
    ['a CI mark beside CI=false', { TRAVIS: 'true', CI: 'false' }, undefined],
    ['Bamboo, which sets no CI', { bamboo_agentId: '7' }, 'Bamboo'],
  ])('%s', async (_label, env, name) => {
    expect((await contextOf(env, dir)).name).toBe(name);
  });
});

describe("TeamCity's properties file", () => {
  it('is read by env-ci when it is a regular file', async () => {
    const file = join(dir, 'build.properties');
    writeFileSync(file, 'teamcity.build.branch=release/7\n');
    const seen = await contextOf({ TEAMCITY_VERSION: '2024.1', TEAMCITY_BUILD_PROPERTIES_FILE: file }, dir);
    expect(seen.values).toEqual({ branch: 'release/7' });
  });

  it('is not read when it is a pipe or a folder: env-ci would wait on it', () => {
    const pipe = join(dir, 'pipe');
    execFileSync('mkfifo', [pipe]);
    const folder = join(dir, 'folder');
    mkdirSync(folder);
    expect([pipe, folder, join(dir, 'none'), '/dev/zero'].map(isReadableFile)).toEqual([false, false, false, false]);
  });

  it('is not read when larger than 1 MiB', () => {
    const big = join(dir, 'big.properties');
    writeFileSync(big, Buffer.alloc(1024 * 1024 + 1, 0x41));
    expect(isReadableFile(big)).toBe(false);
  });
});
