// The CIs beyond the seven, through env-ci: what is taken from it (commit, branch, tag, link), what
// is left out (values built from missing variables, a tag given as the branch), and when a process
// counts as in a CI at all. Run in a folder that is no git repository.
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UNKNOWN_CI } from '../../src/ci/env-ci-fallback.ts';
import {
  MAX_PROPERTIES_BYTES,
  parseProperties,
  readBoundedFile,
  teamCityBranch,
  type OpenFile,
} from '../../src/ci/env-ci-teamcity-branch.ts';
import { contextOf, freshDir } from './ci-context.ts';

const dir = freshDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SHA = '0123456789abcdef0123456789abcdef01234567';

/** A file of a test's: `read` fills the buffer as a read would, and says how many bytes it read. */
function fakeFile(read: (buffer: Uint8Array, offset: number, length: number) => number) {
  let closed = 0;
  const handle = {
    stat: () => Promise.resolve({ isFile: () => true, size: 0 }),
    read: (buffer: Uint8Array, offset: number, length: number) =>
      Promise.resolve({ bytesRead: read(buffer, offset, length), buffer }),
    close: () => Promise.resolve(void (closed += 1)),
  };
  return {
    open: (() => Promise.resolve(handle)) as unknown as OpenFile,
    closed: () => closed,
  };
}

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
    const { user, ...sources } = seen.sources;
    expect(seen.values).toEqual({ ...values, user: 'Travis CI' });
    for (const source of Object.values(sources)) expect(source).toBe('Travis CI (through env-ci)');
    expect(user).toBe("the CI's name (neither its variables nor git name a user)");
  });

  it("takes no user from the agent's account: the CI's name stands in", async () => {
    const seen = await contextOf({ ...base, TRAVIS_BRANCH: 'main', USER: 'travis' }, dir);
    expect(seen.values.user).toBe('Travis CI');
  });
});

describe('values env-ci builds from missing variables', () => {
  it('leaves out "https://cirrus-ci.com/task/undefined"', async () => {
    const seen = await contextOf(
      { CI: 'true', CIRRUS_CI: 'true', CIRRUS_CHANGE_IN_REPO: SHA, CIRRUS_BRANCH: 'main' },
      dir,
    );
    expect(seen.name).toBe('Cirrus CI');
    expect(seen.values).toEqual({ commitSha: SHA, branch: 'main', user: 'Cirrus CI' });
  });

  it('keeps a link whose variables are set', async () => {
    const seen = await contextOf({ CI: 'true', CIRRUS_CI: 'true', CIRRUS_TASK_ID: '42', CIRRUS_BRANCH: 'main' }, dir);
    expect(seen.values).toEqual({ branch: 'main', link: 'https://cirrus-ci.com/task/42', user: 'Cirrus CI' });
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

describe("TeamCity's properties files, read here with a bound (env-ci never reads a file)", () => {
  const teamcity = (extra: Record<string, string> = {}) => ({ TEAMCITY_VERSION: '2024.1', ...extra });

  it('takes the branch from the build properties file', async () => {
    const file = join(dir, 'build.properties');
    writeFileSync(file, 'teamcity.build.branch=release/7\n');
    const seen = await contextOf(teamcity({ TEAMCITY_BUILD_PROPERTIES_FILE: file }), dir);
    expect(seen.values).toEqual({ branch: 'release/7', user: 'TeamCity' });
    expect(seen.sources.branch).toBe('TeamCity (teamcity.build.branch)');
  });

  it('else from the configuration properties file the build properties name', async () => {
    const configuration = join(dir, 'config.properties');
    writeFileSync(configuration, '#TeamCity\nteamcity.build.branch = feat\\:x\\u00e9\n');
    const build = join(dir, 'build-naming-config.properties');
    writeFileSync(build, `teamcity.configuration.properties.file=${configuration.replaceAll('\\', '\\\\')}\n`);
    const seen = await contextOf(teamcity({ TEAMCITY_BUILD_PROPERTIES_FILE: build, BUILD_VCS_NUMBER: SHA }), dir);
    expect(seen.values).toEqual({ commitSha: SHA, branch: 'feat:xé', user: 'TeamCity' });
  });

  it('reads neither a pipe, nor a folder, nor a device, nor a file over 1 MiB, and waits on none', async () => {
    const pipe = join(dir, 'pipe');
    execFileSync('mkfifo', [pipe]);
    const big = join(dir, 'big.properties');
    writeFileSync(big, `teamcity.build.branch=big\n${'#'.repeat(MAX_PROPERTIES_BYTES)}\n`);
    for (const named of [pipe, dir, '/dev/zero', big, join(dir, 'none')]) {
      // As the build properties file, and as the configuration file the build properties name.
      const build = join(dir, 'naming.properties');
      writeFileSync(build, `teamcity.configuration.properties.file=${named}\n`);
      for (const file of [named, build]) {
        const debug: string[] = [];
        expect(
          await teamCityBranch(
            { TEAMCITY_BUILD_PROPERTIES_FILE: file },
            { debug: (text) => void debug.push(String(text)) },
          ),
        ).toBe('');
        expect(debug.join('\n')).toMatch(
          /is not read: it (is not a regular file|is over 1048576 bytes|cannot be opened)/,
        );
      }
    }
    // The whole context too: no value from them, and no wait.
    const seen = await contextOf(teamcity({ TEAMCITY_BUILD_PROPERTIES_FILE: pipe }), dir);
    expect(seen.values).toEqual({ user: 'TeamCity' });
  });

  it('reads a file up to its bound whatever its size says, and no further', async () => {
    const file = join(dir, 'exact.properties');
    writeFileSync(file, 'a=1\n');
    expect(await readBoundedFile(file, 4)).toBe('a=1\n');
    await expect(readBoundedFile(file, 3)).rejects.toThrow('it is over 3 bytes');
    // A file whose size says less than it holds (as /proc's say 0): the bound is kept while reading.
    const lying = fakeFile((buffer, offset, length) => {
      buffer.fill(0x41, offset, offset + length);
      return length;
    });
    await expect(readBoundedFile('/proc/lying', 10, lying.open)).rejects.toThrow('it is over 10 bytes');
  });

  it('leaves env-ci no variable that names a file to read', async () => {
    // Were it passed on, env-ci would read the event file of a CI it detects as GitHub Actions.
    const seen = await contextOf(
      { CI: 'true', TRAVIS: 'true', TRAVIS_BRANCH: 'main', GITHUB_EVENT_PATH: join(dir, 'pipe') },
      dir,
    );
    expect(seen.values.branch).toBe('main');
  });
});

describe('Java properties, as TeamCity writes them', () => {
  it.each([
    ['key=value', { key: 'value' }],
    ['key = value ', { key: 'value ' }],
    ['key:value', { key: 'value' }],
    ['key value', { key: 'value' }],
    ['  key\t=\t\tvalue', { key: 'value' }],
    ['key', { key: '' }],
    ['a\\:b\\=c\\ d=e', { 'a:b=c d': 'e' }],
    ['k=\\u00e9\\t\\n\\r\\f\\x\\\\', { k: 'é\t\n\r\fx\\' }],
    ['k=one \\\n    two', { k: 'one two' }],
    ['k=ends in a backslash \\\\', { k: 'ends in a backslash \\' }],
    ['# comment \\\nk=v', { k: 'v' }],
    ['! comment\n  # comment\n\nk=v', { k: 'v' }],
    ['k=first\nk=second', { k: 'first' }],
    ['k=a\r\nj=b\rl=c', { k: 'a', j: 'b', l: 'c' }],
    ['k=continued at the end \\', { k: 'continued at the end ' }],
  ])('%j', (text, expected) => {
    expect(Object.fromEntries(parseProperties(text))).toEqual(expected);
  });
});

describe("env-ci's edges", () => {
  it('an unknown CI is named so', async () => {
    expect((await contextOf({ CI: 'true' }, dir)).name).toBe('an unknown CI');
  });

  it('never lets env-ci run git: a CI whose variables are missing gets nothing from the repository around it', async () => {
    // This test process runs inside a git repository: env-ci's git would find its HEAD there.
    const seen = await contextOf({ CI: 'true', CODEBUILD_BUILD_ID: 'x' }, dir);
    expect(seen.name).toBe('AWS CodeBuild');
    expect(seen.values.commitSha).toBeUndefined();
  });

  it('a tag given as the branch is no branch', async () => {
    const seen = await contextOf(
      { CI: 'true', JB_SPACE_EXECUTION_NUMBER: '1', JB_SPACE_GIT_BRANCH: 'refs/tags/v1', JB_SPACE_GIT_REVISION: SHA },
      dir,
    );
    expect(seen.name).toBe('JetBrains Space');
    expect(seen.values.branch).toBeUndefined();
  });
});

describe("TeamCity's files: what the debug log says, and what is never left open", () => {
  const debugOf = async (fileEnv: Record<string, string>) => {
    const debug: string[] = [];
    const branch = await teamCityBranch(fileEnv, { debug: (text) => void debug.push(String(text)) });
    return { branch, debug };
  };

  it('a file that cannot be opened: its code', async () => {
    const missing = join(dir, 'missing.properties');
    expect(await debugOf({ TEAMCITY_BUILD_PROPERTIES_FILE: missing })).toEqual({
      branch: '',
      debug: [`TeamCity's properties file ${missing} is not read: it cannot be opened (ENOENT).`],
    });
  });

  it('a file that never answers (a mount that hangs): given up at its bound, or at the run’s deadline', async () => {
    const hanging = (() =>
      Promise.resolve({
        stat: () => new Promise(() => undefined),
        read: () => new Promise(() => undefined),
        close: () => Promise.resolve(),
      })) as unknown as OpenFile;
    const env = { TEAMCITY_BUILD_PROPERTIES_FILE: '/mnt/hung/build.properties' };
    const debug: string[] = [];
    const log = { debug: (text: unknown) => void debug.push(String(text)) };

    expect(await teamCityBranch(env, log, { openFile: hanging, timeoutMs: 30 })).toBe('');
    const deadline = new AbortController();
    const atDeadline = teamCityBranch(env, log, { openFile: hanging, timeoutMs: 60_000, signal: deadline.signal });
    deadline.abort();
    expect(await atDeadline).toBe('');
    expect(debug).toEqual([
      "TeamCity's properties file /mnt/hung/build.properties is not read: no answer before the deadline.",
      "TeamCity's properties file /mnt/hung/build.properties is not read: no answer before the deadline.",
    ]);
    // A deadline already over: nothing is opened.
    let opened = 0;
    const counting = (() => {
      opened += 1;
      return new Promise(() => undefined);
    }) as unknown as OpenFile;
    expect(await teamCityBranch(env, log, { openFile: counting, signal: AbortSignal.abort() })).toBe('');
    expect(opened).toBe(0);
  });

  it('no configuration file named: nothing more read, nothing said', async () => {
    const build = join(dir, 'plain.properties');
    writeFileSync(build, 'other=1\n');
    expect(await debugOf({ TEAMCITY_BUILD_PROPERTIES_FILE: build })).toEqual({ branch: '', debug: [] });
    expect(await debugOf({})).toEqual({ branch: '', debug: [] });
  });

  it('a file read a few bytes at a time is still bounded, and always closed', async () => {
    const trickling = (bytes: number) =>
      fakeFile((buffer, offset, length) => {
        const read = Math.min(5, length, bytes - offset);
        buffer.fill(0x61, offset, offset + Math.max(0, read));
        return Math.max(0, read);
      });
    const long = trickling(100);
    const exact = trickling(10);
    await expect(readBoundedFile('/x', 10, long.open)).rejects.toThrow('it is over 10 bytes');
    expect(await readBoundedFile('/x', 10, exact.open)).toBe('a'.repeat(10));
    expect([long.closed(), exact.closed()]).toEqual([1, 1]);
  });

  it.each([
    ['k=one \\\ntwo three', { k: 'one two three' }],
    ['k=a \\\n#b', { k: 'a #b' }],
    ['k=a#b', { k: 'a#b' }],
    ['k=a#b \\\nc', { k: 'a#b c' }],
    ['k=a\\\n\\\nb', { k: 'ab' }],
    ['k=a \\\n#b\\\nc', { k: 'a #bc' }],
  ])('continuations and comments: %j', (text, expected) => {
    expect(Object.fromEntries(parseProperties(text))).toEqual(expected);
  });
});
