// Outside any CI, against real git repositories made here: the commit, the branch (none on a detached
// HEAD), git's user.name, else the OS user. And in a CI, git filling what its variables leave empty.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  commitAuthor,
  configuredUserName,
  currentBranch,
  gistOf,
  headCommit,
  spawnableEnv,
  type GitOptions,
} from '../../src/ci/git.ts';
import { osUser as readOsUser } from '../../src/ci/os-user.ts';
import type { Lines } from '../../src/core/log.ts';
import { contextOf, freshDir } from './ci-context.ts';

const root = freshDir('ci-git-');
const home = join(root, 'home');
/** What git runs with, here and in readCiContext: no system or global configuration of this machine. */
const env = {
  PATH: process.env.PATH ?? '',
  HOME: home,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: join(home, '.gitconfig'),
};

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    env: { ...env, GIT_AUTHOR_DATE: '2024-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2024-01-01T00:00:00Z' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  }).trim();
}

/** A repository with one commit on `main`, user.name set in its own configuration. */
function repository(name: string, userName?: string): { dir: string; sha: string } {
  const dir = join(root, name);
  mkdirSync(dir);
  git(dir, 'init', '-q', '-b', 'main');
  if (userName) git(dir, 'config', 'user.name', userName);
  writeFileSync(join(dir, 'file.txt'), 'one\n');
  git(dir, 'add', 'file.txt');
  git(dir, '-c', 'user.name=Committer', '-c', 'user.email=c@example.com', 'commit', '-q', '-m', 'one');
  return { dir, sha: git(dir, 'rev-parse', 'HEAD') };
}

let osUserName = '';
/** The OS user as the defaults' user: none where os.userInfo() throws and USER is unset. */
const osUser = () => (osUserName ? { user: osUserName } : {});
beforeAll(() => {
  mkdirSync(home);
  try {
    osUserName = userInfo().username;
  } catch {
    osUserName = '';
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('outside any CI', () => {
  it('takes the commit, the branch and user.name from git', async () => {
    const { dir, sha } = repository('on-main', 'Dana Deployer');
    const seen = await contextOf(env, dir);
    expect(seen.name).toBeUndefined();
    expect(seen.values).toEqual({ commitSha: sha, branch: 'main', user: 'Dana Deployer' });
    expect(seen.sources).toEqual({ commitSha: 'git', branch: 'git', user: 'git (user.name)' });
  });

  it('names a branch with slashes in full, from a folder below the top', async () => {
    const { dir, sha } = repository('on-feature', 'Dana Deployer');
    git(dir, 'checkout', '-q', '-b', 'feat/origin/x');
    const below = join(dir, 'sub');
    mkdirSync(below);
    const seen = await contextOf({ ...env, GIT_CEILING_DIRECTORIES: root }, below);
    expect(seen.values).toEqual({ commitSha: sha, branch: 'feat/origin/x', user: 'Dana Deployer' });
  });

  it('gives no branch on a detached HEAD, and says how to set one', async () => {
    const { dir, sha } = repository('detached', 'Dana Deployer');
    git(dir, 'checkout', '-q', '--detach');
    const seen = await contextOf(env, dir);
    expect(seen.values).toEqual({ commitSha: sha, user: 'Dana Deployer' });
    expect(seen.missing('branch')).toBe(
      'is not set, and no CI variable or git repository here gives a branch. Set `--branch`.',
    );
  });

  it('gives no commit in a repository with none yet, but its branch', async () => {
    const dir = join(root, 'unborn');
    mkdirSync(dir);
    git(dir, 'init', '-q', '-b', 'trunk');
    const seen = await contextOf(env, dir);
    expect(seen.values.commitSha).toBeUndefined();
    expect(seen.values.branch).toBe('trunk');
  });

  it('takes the global user.name where the repository sets none', async () => {
    const { dir } = repository('global-user');
    writeFileSync(env.GIT_CONFIG_GLOBAL, '[user]\n\tname = Global Greta\n');
    try {
      expect((await contextOf(env, dir)).values.user).toBe('Global Greta');
    } finally {
      rmSync(env.GIT_CONFIG_GLOBAL);
    }
  });

  it('takes the OS user where git names none, else USER', async () => {
    const { dir } = repository('os-user');
    const seen = await contextOf({ ...env, USER: 'from-user' }, dir);
    // os.userInfo() throws where the account has no entry in the user database.
    expect([seen.values.user, seen.sources.user]).toEqual(
      osUserName ? [osUserName, 'the OS user'] : ['from-user', 'USER'],
    );
  });

  it('gives no commit and no branch outside any repository, and says how to set them', async () => {
    const dir = join(root, 'no-repository');
    mkdirSync(dir);
    const seen = await contextOf(env, dir);
    expect(seen.values).toEqual(osUser());
    expect(seen.missing('commitSha')).toBe(
      'is not set, and no CI variable or git repository here gives a commit. Set `--commit-sha`.',
    );
    expect(seen.missing('user')).toBe(
      'is not set, and neither git (user.name) nor the OS names a user here. Set `--user`.',
    );
  });

  it('gives nothing from git where git is not installed, or the folder does not exist', async () => {
    const { dir } = repository('no-git', 'Dana Deployer');
    const emptyPath = join(root, 'empty-path');
    mkdirSync(emptyPath);
    expect((await contextOf({ ...env, PATH: emptyPath }, dir)).values).toEqual(osUser());
    expect((await contextOf(env, join(root, 'missing'))).values).toEqual(osUser());
  });
});

describe('in a CI, git fills only what the variables leave empty', () => {
  it('Jenkins without GIT_COMMIT: the commit from git, the branch from GIT_BRANCH', async () => {
    const { dir, sha } = repository('jenkins', 'Dana Deployer');
    git(dir, 'checkout', '-q', '--detach');
    const seen = await contextOf({ ...env, JENKINS_URL: 'https://ci.example.com/', GIT_BRANCH: 'origin/main' }, dir);
    // Stock Jenkins names no user: the deployed commit's author does (not git's user.name: the agent's).
    expect(seen.values).toEqual({ commitSha: sha, branch: 'main', user: 'Committer' });
    expect(seen.sources).toEqual({
      commitSha: 'git',
      branch: 'Jenkins (GIT_BRANCH)',
      user: `git (author of ${sha})`,
    });
  });

  it("a GitLab tag pipeline: the branch is the tag (git is not asked), the user never git's", async () => {
    const { dir } = repository('gitlab-tag', 'Dana Deployer');
    const seen = await contextOf(
      { ...env, GITLAB_CI: 'true', CI_COMMIT_SHA: 'abc', CI_COMMIT_TAG: 'v2', GITLAB_USER_LOGIN: 'gl' },
      dir,
    );
    expect(seen.values).toEqual({ commitSha: 'abc', version: 'v2', branch: 'v2', user: 'gl' });
    expect(seen.sources.branch).toBe('GitLab CI (CI_COMMIT_TAG)');
  });

  it('a CI that checked out a branch: git names it where the variables do not', async () => {
    const { dir } = repository('circle', 'Dana Deployer');
    const seen = await contextOf({ ...env, CIRCLECI: 'true', CIRCLE_SHA1: 'abc', CIRCLE_USERNAME: 'c' }, dir);
    expect(seen.values).toEqual({ commitSha: 'abc', branch: 'main', user: 'c' });
    expect(seen.sources.branch).toBe('git');
  });

  it('an unknown CI (CI=true): commit and branch from git, the user its author', async () => {
    const { dir, sha } = repository('unknown-ci', 'Dana Deployer');
    const seen = await contextOf({ ...env, CI: 'true' }, dir);
    expect(seen.values).toEqual({ commitSha: sha, branch: 'main', user: 'Committer' });
  });
});

describe("a user in every CI: the deployed commit's author, else the CI itself", () => {
  it("the author of the commit the CI names, as git records it (no mailmap), not git's user.name", async () => {
    const { dir, sha } = repository('author', 'Agent Account');
    writeFileSync(join(dir, '.mailmap'), 'Mapped Name <c@example.com>\n');
    const seen = await contextOf({ ...env, CIRCLECI: 'true', CIRCLE_SHA1: sha, CIRCLE_BRANCH: 'main' }, dir);
    expect([seen.values.user, seen.sources.user]).toEqual(['Committer', `git (author of ${sha})`]);
  });

  it('the author of the commit --commit-sha gives, where the flag gives one', async () => {
    const { dir, sha } = repository('flag-author', 'Dana Deployer');
    git(
      dir,
      '-c',
      'user.name=Second Author',
      '-c',
      'user.email=s@example.com',
      'commit',
      '-q',
      '--allow-empty',
      '-m',
      'two',
    );
    const seen = await contextOf(
      { ...env, JENKINS_URL: 'https://ci/', GIT_COMMIT: git(dir, 'rev-parse', 'HEAD') },
      dir,
      {
        given: { commitSha: sha },
      },
    );
    expect([seen.values.user, seen.sources.user]).toEqual(['Committer', `git (author of ${sha})`]);
  });

  it('nothing asked of git for a user --user gives', async () => {
    const { dir, sha } = repository('flag-user', 'Dana Deployer');
    const seen = await contextOf({ ...env, JENKINS_URL: 'https://ci/', GIT_COMMIT: sha }, dir, {
      given: { user: 'x' },
    });
    expect(seen.values.user).toBeUndefined();
  });

  it.each([
    ['a commit git does not have (a shallow clone)', 'fedcba9876543210fedcba9876543210fedcba98'],
    ['no commit name at all', 'HEAD'],
    ['a commit name that reads as an option', '--output=/tmp/x'],
  ])("the CI's own name where git names no author: %s", async (_label, commit) => {
    const { dir } = repository(`no-author-${commit.length}-${commit.slice(0, 2)}`, 'Dana Deployer');
    const seen = await contextOf({ ...env, JENKINS_URL: 'https://ci/', GIT_COMMIT: commit, GIT_BRANCH: 'main' }, dir);
    expect(seen.values.user).toBe('Jenkins');
    expect(seen.sources.user).toMatch(/^the CI's name \(neither its variables nor git name a user; Jenkins names/);
  });
});

/**
 * Characters that show nothing, of every Unicode category that has them: space separators (Zs), the
 * line and paragraph separators (Zl, Zp), controls (Cc, U+0085 too; NUL aside, which no argument can
 * hold), and format characters and fillers that display as nothing (U+FEFF, U+200B, U+3164...).
 */
const BLANKS = [...Array(0x110000).keys()]
  .filter((code) => code !== 0 && (code < 0xd800 || code > 0xdfff))
  .map((code) => String.fromCodePoint(code))
  .filter((char) => /^[\p{Zs}\p{Zl}\p{Zp}\p{Cc}]$/u.test(char))
  .concat(['\u00ad', '\u180e', '\u200b', '\u200c', '\u200d', '\u200e', '\u202e', '\u2060', '\u2066', '\ufeff'])
  .concat(['\u115f', '\u1160', '\u3164', '\uffa0', '\u{e0020}', '\ufe0f']);
/** Those git keeps in a name (it drops ASCII white space and controls at a name's ends, and refuses a name of them alone). */
const NON_ASCII_BLANKS = BLANKS.filter((char) => (char.codePointAt(0) as number) > 0x7f);

describe('a name of white space alone names no one: the next source stands in', () => {
  const blankNames = fc
    .tuple(fc.constantFrom(...NON_ASCII_BLANKS), fc.array(fc.constantFrom(...BLANKS), { maxLength: 6 }))
    .map(([first, rest]) => [first, ...rest].join(''));
  const { dir } = repository('blank-author');
  let commits = 0;
  /** A commit authored by `name` (and git's user.name set to it too). */
  const commitBy = (name: string) => {
    git(dir, 'config', 'user.name', name);
    git(dir, '-c', 'user.email=b@example.com', 'commit', '-q', '--allow-empty', '-m', `blank ${(commits += 1)}`);
    return git(dir, 'rev-parse', 'HEAD');
  };

  it.each([
    ['U+00A0', '\u00a0'],
    ['U+2028', '\u2028'],
    ['U+3000', '\u3000'],
    ['U+FEFF', '\ufeff'],
    ['U+3164 and U+200B', '\u3164\u200b'],
  ])("a commit author of %s: in a CI that names no user, the CI's name", async (_label, name) => {
    const sha = commitBy(name);
    const seen = await contextOf({ ...env, JENKINS_URL: 'https://ci/', GIT_COMMIT: sha, GIT_BRANCH: 'main' }, dir);
    expect(seen.values.user).toBe('Jenkins');
    expect(seen.sources.user).toMatch(/^the CI's name/);
  });

  it('any author and user.name of such characters: the CI’s name in a CI, the OS user outside one', async () => {
    await fc.assert(
      fc.asyncProperty(blankNames, async (name) => {
        const sha = commitBy(name);
        const inCi = await contextOf({ ...env, JENKINS_URL: 'https://ci/', GIT_COMMIT: sha, GIT_BRANCH: 'main' }, dir);
        const outside = await contextOf({ ...env, USER: 'fallback-user' }, dir);

        expect(inCi.values.user).toBe('Jenkins');
        expect(outside.values.user).toBe(osUserName || 'fallback-user');
        expect(outside.sources.user).not.toBe('git (user.name)');
      }),
      { numRuns: 40 },
    );
  });
});

describe('git never in the way: bounded, never blocking, its refusals said', () => {
  /** A folder on PATH whose `git` is this shell script. */
  function fakeGit(name: string, script: string): string {
    const bin = join(root, name);
    mkdirSync(bin);
    writeFileSync(join(bin, 'git'), `#!/bin/sh\n${script}\n`, { mode: 0o755 });
    return bin;
  }

  it('a git that hangs, ignores SIGTERM and leaves a child holding its pipes: no value at the deadline, and the event loop runs meanwhile', async () => {
    const bin = fakeGit('hanging-git', "trap '' TERM\nsleep 30\n");
    const dir = join(root, 'hang');
    mkdirSync(dir);
    let ticks = 0;
    const ticker = setInterval(() => (ticks += 1), 10);
    const started = performance.now();
    try {
      const seen = await contextOf({ ...env, PATH: `${bin}:${env.PATH}` }, dir, { signal: AbortSignal.timeout(300) });
      const took = performance.now() - started;
      expect(seen.values.commitSha).toBeUndefined();
      expect(seen.missing('commitSha')).toBe(
        'is not set, and no CI variable or git repository here gives a commit (git gave no answer before the deadline). Set `--commit-sha`.',
      );
      // Killed at the deadline, and not waited on after it (its `sleep` keeps the pipes open for 30 s).
      expect(took).toBeLessThan(3000);
      expect(ticks).toBeGreaterThan(5);
    } finally {
      clearInterval(ticker);
    }
  });

  it('asks git its independent questions at once, not one after the other', async () => {
    // Each call waits until three have started (or 3 s): one at a time, they would each time out.
    const bin = fakeGit(
      'parallel-git',
      `echo x >> "${join(root, 'parallel-calls')}"\nfor i in $(seq 60); do [ $(wc -l < "${join(root, 'parallel-calls')}") -ge 3 ] && break; sleep 0.05; done\n[ $(wc -l < "${join(root, 'parallel-calls')}") -ge 3 ] && echo answer`,
    );
    const dir = join(root, 'parallel');
    mkdirSync(dir);
    const seen = await contextOf({ ...env, PATH: `${bin}:${env.PATH}` }, dir);
    expect(seen.values).toEqual({ commitSha: 'answer', branch: 'answer', user: 'answer' });
  });

  it('an aborted deadline: git is not even started', async () => {
    const marker = join(root, 'started-marker');
    const bin = fakeGit('marking-git', `touch "${marker}"`);
    const dir = join(root, 'aborted');
    mkdirSync(dir);
    const seen = await contextOf({ ...env, PATH: `${bin}:${env.PATH}` }, dir, { signal: AbortSignal.abort() });
    expect(seen.values.commitSha).toBeUndefined();
    expect(existsSync(marker)).toBe(false);
  });

  it('an answer over 64 KiB is no answer', async () => {
    const bin = fakeGit('chatty-git', 'head -c 70000 /dev/zero | tr "\\0" a');
    const dir = join(root, 'chatty');
    mkdirSync(dir);
    const debug: string[] = [];
    const seen = await contextOf({ ...env, PATH: `${bin}:${env.PATH}` }, dir, { debug });
    expect(seen.values.commitSha).toBeUndefined();
    expect(debug.join('\n')).toContain('git rev-parse --verify -q HEAD gave nothing: an answer over 64 KiB.');
  });

  it("git's refusal of a repository it does not trust: its words in debug, their gist in the message", async () => {
    const { dir } = repository('dubious', 'Dana Deployer');
    const debug: string[] = [];
    // git's own switch for what a checkout owned by another user does (as a CI's cache or volume may be).
    const seen = await contextOf({ ...env, GIT_TEST_ASSUME_DIFFERENT_OWNER: '1' }, dir, { debug });
    expect(seen.values.commitSha).toBeUndefined();
    expect(seen.missing('commitSha')).toBe(
      `is not set, and no CI variable or git repository here gives a commit (git: detected dubious ownership in repository at '${dir}'). Set \`--commit-sha\`.`,
    );
    expect(seen.missing('branch')).toContain('(git: detected dubious ownership');
    const said = debug.join('\n');
    expect(said).toContain('git rev-parse --verify -q HEAD gave nothing: exit status 128.');
    expect(said).toContain(`  git: fatal: detected dubious ownership in repository at '${dir}'`);
    expect(said).toContain('safe.directory');
  });

  it('no gist where git refuses in silence or finds no repository: the message says that already', () => {
    expect(gistOf('')).toBeUndefined();
    expect(gistOf('\n  \n')).toBeUndefined();
    expect(gistOf('fatal: not a git repository (or any of the parent directories): .git\n')).toBeUndefined();
    expect(gistOf('\nerror: something else\nmore\n')).toBe('git: something else');
    expect(gistOf(`fatal: ${'x'.repeat(300)}`)).toBe(`git: ${'x'.repeat(200)}…`);
  });
});

describe('the environment git is spawned with', () => {
  // A PATH of one entry of 4096 bytes or more hangs Node's spawn for good, timeout included: it
  // cannot be tested by spawning (the test would never end), so the guard is tested alone.
  it.each([
    ['one entry too long', 'a'.repeat(5000), ''],
    ['one of several too long', `/usr/bin:${'é'.repeat(600)}:/bin`, '/usr/bin:/bin'],
    ['entries of sane length', '/usr/local/bin:/usr/bin', '/usr/local/bin:/usr/bin'],
  ])('%s', (_label, path, kept) => {
    expect(spawnableEnv({ PATH: path, HOME: '/h' })).toEqual({ PATH: kept, HOME: '/h' });
  });

  it('is the environment as given where PATH needs nothing left out', () => {
    const given = { PATH: '/usr/bin', HOME: '/h' };
    expect(spawnableEnv(given)).toBe(given);
    const noPath = { HOME: '/h' };
    expect(spawnableEnv(noPath)).toBe(noPath);
  });
});

describe('each git call: its answer, its bounds, and what the debug log says of it', () => {
  /** A folder on PATH whose `git` is this shell script. */
  function pathWith(name: string, script: string): string {
    const bin = join(root, `bin-${name}`);
    mkdirSync(bin);
    writeFileSync(join(bin, 'git'), `#!/bin/sh\n${script}\n`, { mode: 0o755 });
    return `${bin}:${env.PATH}`;
  }
  function options(path: string, extra: Partial<GitOptions> = {}) {
    const debug: string[] = [];
    const log = { debug: (text: Lines | (() => Lines)) => void debug.push(...[text as string | string[]].flat()) };
    return { debug, options: { cwd: root, env: { ...env, PATH: path }, log, ...extra } satisfies GitOptions };
  }

  it('an answer: its lines, the last line break dropped, nothing in debug', async () => {
    const { debug, options: given } = options(pathWith('lines', 'printf "a\\nb\\r\\n"'));
    expect(await headCommit(given)).toEqual({ output: 'a\nb' });
    expect(debug).toEqual([]);
  });

  it('an answer of exactly 64 KiB is one; a byte more is none', async () => {
    const exact = options(pathWith('exact', 'head -c 65536 /dev/zero | tr "\\0" a'));
    expect((await headCommit(exact.options)).output).toHaveLength(65536);
    const over = options(pathWith('over', 'head -c 65537 /dev/zero | tr "\\0" a'));
    expect(await headCommit(over.options)).toEqual({ output: '', refusal: 'git gave an answer over 64 KiB' });
  });

  it('its own bound where no deadline comes first', async () => {
    const { debug, options: given } = options(pathWith('slow', "trap '' TERM\nsleep 30"), { timeoutMs: 200 });
    expect(await headCommit(given)).toEqual({ output: '', refusal: 'git gave no answer in 0.2 s' });
    expect(debug).toEqual(['git rev-parse --verify -q HEAD gave nothing: no answer in 0.2 s.']);
  });

  it('a deadline already passed: not started, said once', async () => {
    const { debug, options: given } = options(env.PATH, { signal: AbortSignal.abort() });
    expect(await currentBranch(given)).toEqual({ output: '', refusal: 'git gave no answer before the deadline' });
    expect(debug).toEqual(['git symbolic-ref --short -q HEAD gave nothing: no answer before the deadline.']);
  });

  it('no git: said once, by its code', async () => {
    const { debug, options: given } = options(join(root, 'nowhere'));
    expect(await configuredUserName(given)).toEqual({ output: '' });
    expect(debug).toEqual(['git config --get user.name gave nothing: ENOENT.']);
  });

  it('a folder Node refuses before it spawns: said by its code', async () => {
    const { debug, options: given } = options(env.PATH, { cwd: 'a\0b' });
    expect(await headCommit(given)).toEqual({ output: '' });
    expect(debug).toEqual(['git rev-parse --verify -q HEAD gave nothing: ERR_INVALID_ARG_VALUE.']);
  });

  it("git's own words in debug, one a line, blank ones left out; the gist kept", async () => {
    const { debug, options: given } = options(
      pathWith('refusing', 'printf "fatal: no way\\r\\n\\r\\nhint: try\\r\\n" >&2\nexit 128'),
    );
    expect(await headCommit(given)).toEqual({ output: '', refusal: 'git: no way' });
    expect(debug).toEqual([
      'git rev-parse --verify -q HEAD gave nothing: exit status 128.',
      '  git: fatal: no way',
      '  git: hint: try',
    ]);
  });

  it("only git's first 4 KiB of stderr are kept", async () => {
    const { debug, options: given } = options(pathWith('noisy', 'head -c 10000 /dev/zero | tr "\\0" e >&2\nexit 1'));
    await headCommit(given);
    expect(debug).toEqual([
      'git rev-parse --verify -q HEAD gave nothing: exit status 1.',
      `  git: ${'e'.repeat(4096)}`,
    ]);
  });

  it('a git killed by a signal (not ours): said so', async () => {
    const { debug, options: given } = options(pathWith('killed', 'kill -TERM $$'));
    expect(await headCommit(given)).toEqual({ output: '' });
    expect(debug).toEqual(['git rev-parse --verify -q HEAD gave nothing: killed by SIGTERM.']);
  });

  it("a commit's author is asked only for a hex object name, never for what could read as an option", async () => {
    const calls = join(root, 'author-calls');
    const { options: given } = options(pathWith('author', `echo "$@" >> "${calls}"\necho Ada`));
    expect(await commitAuthor('abcd', given)).toEqual({ output: 'Ada' });
    for (const name of ['zz-abcd', 'abc', '--output=/tmp/abcd', 'abcd\n', `${'a'.repeat(65)}`]) {
      expect(await commitAuthor(name, given)).toEqual({ output: '' });
    }
    expect(readFileSync(calls, 'utf8')).toBe('log -1 --no-show-signature --format=%an abcd --\n');
  });

  it('no git call for a field a flag gives, in a CI or outside one', async () => {
    const calls = join(root, 'given-calls');
    const path = pathWith('given', `echo "$@" >> "${calls}"\necho x`);
    const dir = join(root, 'given-dir');
    mkdirSync(dir);
    const given = { commitSha: 'abc', branch: 'b', user: 'u' };
    await contextOf({ ...env, PATH: path }, dir, { given });
    await contextOf({ ...env, PATH: path, JENKINS_URL: 'https://ci/' }, dir, { given });
    expect(existsSync(calls)).toBe(false);
  });

  it('a PATH entry of 1024 bytes or more is left out, one of 1023 kept', () => {
    expect(spawnableEnv({ PATH: `${'a'.repeat(1023)}:${'b'.repeat(1024)}` })).toEqual({ PATH: 'a'.repeat(1023) });
  });

  it('the gist: the first line said, trimmed, without fatal: or error: before it', () => {
    expect(gistOf('  fatal: x  \n')).toBe('git: x');
    expect(gistOf('warning: fatal: y')).toBe('git: warning: fatal: y');
    expect(gistOf('ERROR: z')).toBe('git: z');
  });
});

describe("in a CI: git's refusal said, and the CI itself as the user where nothing names one", () => {
  it("a CI that leaves the commit to git, in a checkout git refuses: the refusal's gist", async () => {
    const { dir } = repository('ci-dubious', 'Dana Deployer');
    const seen = await contextOf({ ...env, JENKINS_URL: 'https://ci/', GIT_TEST_ASSUME_DIFFERENT_OWNER: '1' }, dir);
    expect(seen.missing('commitSha')).toBe(
      `is not set, and no CI variable or git repository here gives a commit (git: detected dubious ownership in repository at '${dir}'). Set \`--commit-sha\`.`,
    );
    expect(seen.values.user).toBe('Jenkins');
  });

  it("an unknown CI (CI=true) with no git: the user 'CI'", async () => {
    const dir = join(root, 'unknown-no-git');
    mkdirSync(dir);
    const seen = await contextOf({ ...env, CI: 'true' }, dir);
    expect([seen.name, seen.values.user]).toEqual(['an unknown CI', 'CI']);
  });

  it('a CI mark that is no string is no mark', async () => {
    const dir = join(root, 'no-string');
    mkdirSync(dir);
    const seen = await contextOf({ ...env, GITLAB_CI: true } as unknown as Record<string, string>, dir);
    expect(seen.name).toBeUndefined();
  });
});

describe('the OS user', () => {
  it('the account, else USER, else USERNAME, else none', () => {
    const none = () => {
      throw new Error('no entry in the user database');
    };
    expect(readOsUser({}, () => ({ username: 'acct' }))).toEqual({ value: 'acct', source: 'the OS user' });
    expect(readOsUser({ USER: 'u' }, () => ({ username: '' }))).toEqual({ value: 'u', source: 'USER' });
    expect(readOsUser({ USER: 'u', USERNAME: 'n' }, none)).toEqual({ value: 'u', source: 'USER' });
    expect(readOsUser({ USER: '', USERNAME: 'n' }, none)).toEqual({ value: 'n', source: 'USERNAME' });
    expect(readOsUser({}, none)).toBeUndefined();
  });
});

describe("git's stderr as it comes", () => {
  function pathWith(name: string, script: string): string {
    const bin = join(root, `bin2-${name}`);
    mkdirSync(bin);
    writeFileSync(join(bin, 'git'), `#!/bin/sh\n${script}\n`, { mode: 0o755 });
    return `${bin}:${env.PATH}`;
  }
  const debugOf = async (script: string, name: string) => {
    const debug: string[] = [];
    const log = { debug: (text: Lines | (() => Lines)) => void debug.push(...[text as string | string[]].flat()) };
    await headCommit({ cwd: root, env: { ...env, PATH: pathWith(name, script) }, log });
    return debug;
  };

  it('line by line, blank and white-space lines left out', async () => {
    expect(await debugOf('printf "one\\n   \\ntwo\\n" >&2\nexit 1', 'lf')).toEqual([
      'git rev-parse --verify -q HEAD gave nothing: exit status 1.',
      '  git: one',
      '  git: two',
    ]);
  });

  it('bounded however many pieces it comes in', async () => {
    const script = 'for i in 1 2 3; do head -c 3000 /dev/zero | tr "\\0" e >&2; sleep 0.05; done\nexit 1';
    expect(await debugOf(script, 'pieces')).toEqual([
      'git rev-parse --verify -q HEAD gave nothing: exit status 1.',
      `  git: ${'e'.repeat(4096)}`,
    ]);
  });
});
