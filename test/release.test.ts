// scripts/release.ts, run as the release workflow runs it (`node scripts/release.ts <command>`),
// against real git repositories made for each test in a temporary directory: commits, lightweight
// and annotated tags, a remote-tracking branch. No network.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { devNull, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseChangelog, prepareChangelog } from '../scripts/release/changelog.ts';
import { examplePins, withPins } from '../scripts/release/examples.ts';
import { isAtLeast, parseVersion } from '../scripts/release/semver.ts';
import { COMMANDS, gitHubRepo, render, run, setManifestVersion } from '../scripts/release.ts';

const ROOT = join(import.meta.dirname, '..');
const SCRIPT = join(ROOT, 'scripts', 'release.ts');

/** git as the tests use it: no user or system configuration, a fixed author. */
const GIT_ENV = {
  GIT_CONFIG_GLOBAL: devNull,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Release Test',
  GIT_AUTHOR_EMAIL: 'release-test@example.com',
  GIT_COMMITTER_NAME: 'Release Test',
  GIT_COMMITTER_EMAIL: 'release-test@example.com',
};

const REPO_URL = 'git+https://github.com/acme/report-deployment.git';

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  bin?: unknown;
  repository?: unknown;
}

const manifest = (fields: Partial<Manifest> = {}): Manifest => ({
  name: 'report-deployment',
  version: '1.0.0',
  bin: { 'report-deployment': 'cli/index.js' },
  repository: { type: 'git', url: REPO_URL },
  ...fields,
});

const packageJson = (fields: Partial<Manifest> = {}) => `${JSON.stringify(manifest(fields), null, 2)}\n`;

/** A CHANGELOG.md: Unreleased (with `unreleased` under it), then each [version, date, body], and their links. */
function changelog(releases: [string, string, string][], unreleased = ''): string {
  return [
    '# Changelog',
    '',
    '## Unreleased',
    '',
    '<!-- Changes after the newest release. -->',
    ...(unreleased ? ['', unreleased] : []),
    '',
    ...releases.flatMap(([version, date, body]) => [`## [${version}] - ${date}`, '', body, '']),
    ...releases.map(([version]) => `[${version}]: https://github.com/acme/report-deployment/releases/tag/v${version}`),
    '',
  ].join('\n');
}

const FIRST: [string, string, string] = ['1.0.0', '2026-11-22', '### Added\n\n- Everything.'];

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd, env: { ...process.env, ...GIT_ENV }, encoding: 'utf8', timeout: 20_000 }).trim();

/** One repository made once (git init is the slow part), copied for each test: package.json and CHANGELOG.md for 1.0.0, committed. */
let template = '';
beforeAll(() => {
  template = mkdtempSync(join(tmpdir(), 'release-template-'));
  git(template, 'init', '--quiet', '--initial-branch=main');
  writeFileSync(join(template, 'package.json'), packageJson());
  writeFileSync(join(template, 'CHANGELOG.md'), changelog([FIRST]));
  git(template, 'add', '--all');
  git(template, 'commit', '--quiet', '-m', 'first');
});
afterAll(() => rmSync(template, { recursive: true, force: true }));

class Repo {
  readonly dir = mkdtempSync(join(tmpdir(), 'release-test-'));

  /** The template's repository, with `files` committed on top. */
  constructor(files?: Record<string, string>) {
    dirs.push(this.dir);
    cpSync(template, this.dir, { recursive: true });
    if (files) this.commit('setup', files);
  }

  git(...args: string[]): string {
    return git(this.dir, ...args);
  }

  write(files: Record<string, string>): void {
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(dirname(join(this.dir, file)), { recursive: true });
      writeFileSync(join(this.dir, file), text);
    }
  }

  read(file: string): string {
    return readFileSync(join(this.dir, file), 'utf8');
  }

  /** Commits `files` (or an empty commit) and returns the commit. */
  commit(message: string, files: Record<string, string> = {}): string {
    this.write(files);
    if (Object.keys(files).length > 0) this.git('add', '--all');
    this.git('commit', '--quiet', '--allow-empty', '-m', message);
    return this.git('rev-parse', 'HEAD');
  }

  tag(name: string, options: { at?: string; annotated?: boolean } = {}): void {
    const at = options.at ?? 'HEAD';
    if (options.annotated) this.git('tag', '-a', name, '-m', name, at);
    else this.git('tag', name, at);
  }

  /** What a checkout of the pushed commit has: origin/main at `at`. */
  pushed(at = 'HEAD'): void {
    this.git('update-ref', 'refs/remotes/origin/main', at);
  }

  /**
   * `node scripts/release.ts ...args` in this repository: its exit code and what it prints. Run in
   * this process (a node start per case would make this file the suite's slowest); the describe
   * "as a process" checks that the script prints the same.
   */
  release(args: string[], env: { GITHUB_ACTIONS?: string } = {}) {
    const result = run(args, this.dir);
    return { code: result.code, ...render(result, env.GITHUB_ACTIONS === 'true') };
  }

  /** The same as a process, as the workflow runs it. */
  spawn(args: string[], env: Record<string, string> = {}) {
    const result = spawnSync(process.execPath, [SCRIPT, ...args], {
      cwd: this.dir,
      env: { ...process.env, ...GIT_ENV, GITHUB_ACTIONS: '', ...env },
      encoding: 'utf8',
      timeout: 20_000,
    });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  }
}

/** A command that reads no repository (or only the template's, unchanged): no copy needed. */
function answer(args: string[]) {
  const result = run(args, template);
  return { code: result.code, ...render(result, false) };
}

const lines = (...text: string[]) => text.map((line) => `${line}\n`).join('');

describe('check: is this commit releasable as X.Y.Z?', () => {
  it('before tagging: prints the outputs the workflow uses', () => {
    const repo = new Repo();
    const head = repo.git('rev-parse', 'HEAD');
    expect(repo.release(['check', '1.0.0'])).toEqual({
      code: 0,
      stdout: lines('version=1.0.0', 'tag=v1.0.0', `sha=${head}`, 'major=v1'),
      stderr: '',
    });
    // The tag's form of the version is the same version.
    expect(repo.release(['check', 'v1.0.0']).code).toBe(0);
  });

  it('in the workflow: on its (annotated) tag, merged, the repository package.json names', () => {
    const repo = new Repo();
    const head = repo.git('rev-parse', 'HEAD');
    repo.tag('v1.0.0', { annotated: true });
    repo.pushed();
    expect(repo.release(['check', 'v1.0.0', '--ref', 'refs/tags/v1.0.0', '--repo', 'acme/report-deployment'])).toEqual({
      code: 0,
      stdout: lines('version=1.0.0', 'tag=v1.0.0', `sha=${head}`, 'major=v1'),
      stderr: '',
    });
  });

  it.each([
    ['1.0', '"1.0" is not a release version: X.Y.Z (or vX.Y.Z), no prerelease'],
    ['1.0.0-rc.1', '"1.0.0-rc.1" is not a release version: X.Y.Z (or vX.Y.Z), no prerelease'],
    ['01.0.0', '"01.0.0" is not a release version: X.Y.Z (or vX.Y.Z), no prerelease'],
    ['V1.0.0', '"V1.0.0" is not a release version: X.Y.Z (or vX.Y.Z), no prerelease'],
  ])('refuses the version %s', (version, message) => {
    expect(answer(['check', version])).toEqual({ code: 1, stdout: '', stderr: lines(message) });
  });

  it.each<[string, Record<string, string>, string]>([
    [
      'another version in package.json',
      { 'package.json': packageJson({ version: '0.9.0' }) },
      "package.json's version is 0.9.0, not 1.0.0",
    ],
    [
      'a private package',
      { 'package.json': packageJson({ private: true }) },
      'package.json says "private": true: npm publish would refuse it',
    ],
    [
      'no bin',
      { 'package.json': packageJson({ bin: undefined }) },
      'package.json\'s "bin" has no command "report-deployment" (npx report-deployment@1 runs it)',
    ],
    [
      'a bin of another name',
      { 'package.json': packageJson({ bin: { deploy: 'x.js' } }) },
      'package.json\'s "bin" has no command "report-deployment" (npx report-deployment@1 runs it)',
    ],
    [
      'no repository',
      { 'package.json': packageJson({ repository: undefined }) },
      'package.json\'s "repository" names no GitHub repository (npm provenance requires it)',
    ],
    [
      'no section for the version',
      { 'CHANGELOG.md': changelog([['0.9.0', '2026-11-01', '- Old.']]) },
      'CHANGELOG.md has no section "## [1.0.0] - YYYY-MM-DD"',
    ],
    [
      'an empty section',
      { 'CHANGELOG.md': changelog([['1.0.0', '2026-11-22', '<!-- later -->']]) },
      "CHANGELOG.md's section for 1.0.0 says nothing",
    ],
    [
      'entries left under Unreleased',
      { 'CHANGELOG.md': changelog([FIRST], '- A fix.') },
      'CHANGELOG.md has entries under Unreleased: they ship in v1.0.0 unlisted; move them into its section (npm run release -- prepare 1.0.0)',
    ],
    [
      'no real date',
      { 'CHANGELOG.md': changelog([['1.0.0', '2026-02-30', '- x']]) },
      'CHANGELOG.md line 7: "2026-02-30" is not a date (YYYY-MM-DD)',
    ],
    [
      'the placeholder for a date',
      { 'CHANGELOG.md': changelog([['1.0.0', 'YYYY-MM-DD', '- x']]) },
      'CHANGELOG.md line 7: "YYYY-MM-DD" is not a date (YYYY-MM-DD)',
    ],
    [
      'no link definition',
      { 'CHANGELOG.md': '# Changelog\n\n## Unreleased\n\n## [1.0.0] - 2026-11-22\n\n- x\n' },
      'CHANGELOG.md has no link definition "[1.0.0]: ..." at its end',
    ],
    [
      'a heading of another form',
      { 'CHANGELOG.md': changelog([FIRST]).replace('## [1.0.0] - 2026-11-22', '## 1.0.0 (2026-11-22)') },
      'CHANGELOG.md line 7: "## 1.0.0 (2026-11-22)" is neither "## Unreleased" nor "## [X.Y.Z] - YYYY-MM-DD"',
    ],
  ])('refuses %s', (_, files, message) => {
    const repo = new Repo();
    repo.commit('change', files);
    const result = repo.release(['check', '1.0.0']);
    expect(result).toEqual({ code: 1, stdout: '', stderr: expect.stringContaining(lines(message)) as string });
  });

  it('names every problem at once, as error annotations in a workflow', () => {
    const repo = new Repo();
    repo.commit('change', {
      'package.json': packageJson({ version: '0.9.0', private: true }),
      'CHANGELOG.md': changelog([FIRST], '- A fix.'),
    });
    expect(repo.release(['check', '1.0.0'], { GITHUB_ACTIONS: 'true' })).toEqual({
      code: 1,
      stdout: '',
      stderr: lines(
        "::error::package.json's version is 0.9.0, not 1.0.0",
        '::error::package.json says "private": true: npm publish would refuse it',
        '::error::CHANGELOG.md has entries under Unreleased: they ship in v1.0.0 unlisted; move them into its section (npm run release -- prepare 1.0.0)',
      ),
    });
  });

  it('refuses a tag that names another commit', () => {
    const repo = new Repo();
    const tagged = repo.git('rev-parse', 'HEAD');
    repo.tag('v1.0.0');
    const head = repo.commit('after the tag');
    expect(repo.release(['check', '1.0.0'])).toEqual({
      code: 1,
      stdout: '',
      stderr: lines(`v1.0.0 names ${tagged.slice(0, 12)}, not this commit (${head.slice(0, 12)})`),
    });
  });

  it('in the workflow: refuses a run that is not on the tag, an unmerged commit, another repository', () => {
    const repo = new Repo();
    repo.pushed();
    expect(repo.release(['check', '1.0.0', '--ref', 'refs/heads/main']).stderr).toBe(
      lines('the run is on refs/heads/main, not on the tag v1.0.0'),
    );
    expect(repo.release(['check', '1.0.0', '--ref', 'refs/tags/v1.0.0']).stderr).toBe(lines('there is no tag v1.0.0'));
    expect(repo.release(['check', '1.0.0', '--ref', 'refs/tags/v1.0.0', '--repo', 'someone/fork']).stderr).toBe(
      lines(
        'package.json\'s "repository" is acme/report-deployment, not someone/fork (npm would refuse the provenance)',
        'there is no tag v1.0.0',
      ),
    );

    const unmerged = new Repo();
    const head = unmerged.git('rev-parse', 'HEAD');
    unmerged.tag('v1.0.0');
    expect(unmerged.release(['check', '1.0.0', '--ref', 'refs/tags/v1.0.0'])).toEqual({
      code: 1,
      stdout: '',
      stderr: lines(`${head.slice(0, 12)} is on no branch of the repository: release only what was merged`),
    });
  });
});

describe('notes: the release body', () => {
  it('is the CHANGELOG section, without comments, then how to pin and verify this release', () => {
    const repo = new Repo({
      'package.json': packageJson({ version: '1.1.0' }),
      'CHANGELOG.md': changelog([
        ['1.1.0', '2026-12-01', '### Added\n\n<!-- say why -->\n- `retries` up to 20.\n\n```md\n## not a heading\n```'],
        FIRST,
      ]),
    });
    const head = repo.git('rev-parse', 'HEAD');
    repo.tag('v1.1.0', { annotated: true });
    repo.commit('later');
    expect(repo.release(['notes', '1.1.0'])).toEqual({
      code: 0,
      stdout: lines(
        '### Added',
        '',
        '',
        '- `retries` up to 20.',
        '',
        '```md',
        '## not a heading',
        '```',
        '',
        '---',
        '',
        'Pin this release by its commit, as [the README](https://github.com/acme/report-deployment#versions-and-pinning) explains:',
        '',
        '```yaml',
        `- uses: acme/report-deployment@${head} # v1.1.0`,
        '```',
        '',
        '`@v1.1.0` names the same commit; `@v1` follows every v1.y.z release. The CLI, installed in a step of its own before the deploy: the executable, `curl -fsSL https://github.com/acme/report-deployment/releases/download/v1.1.0/install.sh | sh`, or `npm install --global report-deployment@1.1.0` ([install](https://github.com/acme/report-deployment/blob/main/docs/cli.md#install)).',
        '',
        'Verify a file of this release: `gh release verify-asset v1.1.0 FILE -R acme/report-deployment` and `gh attestation verify FILE -R acme/report-deployment --signer-workflow acme/report-deployment/.github/workflows/release.yml` (gh 2.93.0 or later).',
      ),
      stderr: '',
    });
  });

  it('of the oldest section stops before the link definitions; --repo names the repository', () => {
    const repo = new Repo({
      'package.json': packageJson({ version: '1.1.0' }),
      'CHANGELOG.md': changelog([['1.1.0', '2026-12-01', '- Newer.'], FIRST]),
    });
    const { code, stdout } = repo.release(['notes', '1.0.0', '--repo', 'other/fork']);
    expect(code).toBe(0);
    expect(stdout.split('\n---\n')[0]).toBe('### Added\n\n- Everything.\n');
    expect(stdout).toContain('- uses: other/fork@');
  });

  it('refuses a version without a section', () => {
    expect(answer(['notes', '2.0.0'])).toEqual({
      code: 1,
      stdout: '',
      stderr: lines('CHANGELOG.md has no section for 2.0.0, or it says nothing'),
    });
  });
});

describe('major: does vX move to this release?', () => {
  /** A repository with a release commit for each version, tagged. */
  function released(...versions: string[]): { repo: Repo; commits: Record<string, string> } {
    const repo = new Repo();
    const commits: Record<string, string> = {};
    for (const version of versions) {
      commits[version] = repo.commit(`release ${version}`);
      repo.tag(`v${version}`, { annotated: true });
    }
    return { repo, commits };
  }

  it('creates vX for the first release of a major', () => {
    const { repo, commits } = released('1.0.0');
    expect(repo.release(['major', '1.0.0'])).toEqual({
      code: 0,
      stdout: lines('major=v1', `sha=${commits['1.0.0']}`, 'from=', 'move=true'),
      stderr: lines(`v1 is new: it will name v1.0.0 (${commits['1.0.0']?.slice(0, 12)})`),
    });
  });

  it('moves vX forward; `from` is what the tag ref holds (an annotated tag: its own id), for --force-with-lease', () => {
    const { repo, commits } = released('1.0.0', '1.1.0');
    repo.git('tag', '-a', 'v1', '-m', 'v1', `${commits['1.0.0']}`);
    const v1 = repo.git('rev-parse', 'refs/tags/v1');
    expect(v1).not.toBe(commits['1.0.0']);
    expect(repo.release(['major', 'v1.1.0'])).toEqual({
      code: 0,
      stdout: lines('major=v1', `sha=${commits['1.1.0']}`, `from=${v1}`, 'move=true'),
      stderr: lines(`v1 moves from v1.0.0 to v1.1.0 (${commits['1.1.0']?.slice(0, 12)})`),
    });
  });

  it('never moves vX backwards: a backport after a newer minor', () => {
    const { repo, commits } = released('1.0.0', '1.1.0');
    repo.tag('v1', { at: commits['1.1.0'] });
    // v1.0.1 made on a branch from v1.0.0.
    repo.git('checkout', '--quiet', '-b', 'release-1.0', 'v1.0.0');
    const backport = repo.commit('fix');
    repo.tag('v1.0.1');
    expect(repo.release(['major', '1.0.1'])).toEqual({
      code: 0,
      stdout: lines('major=v1', `sha=${backport}`, `from=${commits['1.1.0']}`, 'move=false'),
      stderr: lines('v1 stays: v1.1.0 is newer than v1.0.1'),
    });
  });

  it('does not move vX to a release older than a newer tag, even where vX has not got there yet', () => {
    const { repo, commits } = released('1.0.0', '1.2.0');
    repo.tag('v1', { at: commits['1.0.0'] });
    repo.git('checkout', '--quiet', '-b', 'release-1.0', 'v1.0.0');
    repo.commit('fix');
    repo.tag('v1.0.1');
    expect(repo.release(['major', '1.0.1']).stdout).toContain('move=false\n');
  });

  it('leaves vX where it is when it names this release already', () => {
    const { repo, commits } = released('1.0.0');
    repo.tag('v1', { at: commits['1.0.0'] });
    expect(repo.release(['major', '1.0.0'])).toEqual({
      code: 0,
      stdout: lines('major=v1', `sha=${commits['1.0.0']}`, `from=${commits['1.0.0']}`, 'move=false'),
      stderr: lines(`v1 names v1.0.0 (${commits['1.0.0']?.slice(0, 12)}) already`),
    });
  });

  it('starts v2 at 2.0.0 and keeps moving v1 for 1.x releases made after it', () => {
    const { repo, commits } = released('1.3.0', '2.0.0');
    repo.tag('v1', { at: commits['1.3.0'] });
    expect(repo.release(['major', '2.0.0']).stdout).toBe(
      lines('major=v2', `sha=${commits['2.0.0']}`, 'from=', 'move=true'),
    );
    repo.git('checkout', '--quiet', '-b', 'release-1', 'v1.3.0');
    const backport = repo.commit('fix');
    repo.tag('v1.3.1');
    expect(repo.release(['major', '1.3.1']).stdout).toBe(
      lines('major=v1', `sha=${backport}`, `from=${commits['1.3.0']}`, 'move=true'),
    );
  });

  it('refuses when vX names a commit no release tag of its major names (moved by hand)', () => {
    const { repo } = released('1.0.0');
    const odd = repo.commit('something else');
    repo.tag('v1', { at: odd });
    repo.commit('release 1.1.0');
    repo.tag('v1.1.0');
    expect(repo.release(['major', '1.1.0'])).toEqual({
      code: 1,
      stdout: '',
      stderr: lines(`v1 names ${odd.slice(0, 12)}, which no v1.y.z tag names: move it by hand, or not at all`),
    });
  });

  it('refuses a version that has no tag', () => {
    expect(answer(['major', '1.0.0'])).toEqual({
      code: 1,
      stdout: '',
      stderr: lines('there is no tag v1.0.0'),
    });
  });
});

describe('latest: is this release the newest of all (GitHub\'s "Latest")?', () => {
  it.each([
    [[], '1.0.0', 'true'],
    [['v1.0.0'], '1.0.1', 'true'],
    [['v1.0.0', 'v1.1.0', 'v1.0.1'], '1.0.1', 'false'],
    [['v1.9.0', 'v2.0.0'], '1.10.0', 'false'],
    [['v1.9.0', 'v1.10.0'], '1.10.0', 'true'],
    // Tags that are no release do not count.
    [['v1.0.0', 'v9', 'v3.0.0-rc.1', '4.0.0', 'v5.0'], '1.0.1', 'true'],
  ])('tags %j, release %s: %s', (tags, version, answer) => {
    const repo = new Repo();
    for (const tag of tags) repo.tag(tag);
    expect(repo.release(['latest', version])).toEqual({ code: 0, stdout: lines(answer), stderr: '' });
  });
});

describe('npm-tag: the dist-tag, so that a backport never becomes what `npm install` gets', () => {
  it.each([
    ['1.0.0', [], 'latest'],
    ['1.0.0', [''], 'latest'],
    ['1.0.1', ['1.0.0'], 'latest'],
    ['2.0.0', ['1.9.3'], 'latest'],
    ['1.0.1', ['1.1.0'], 'latest-1'],
    ['1.5.0', ['2.0.0'], 'latest-1'],
  ])('%s with npm at %j: %s', (version, latest, tag) => {
    expect(answer(['npm-tag', version, ...latest])).toEqual({ code: 0, stdout: lines(tag), stderr: '' });
  });

  it('refuses a latest it cannot read', () => {
    expect(answer(['npm-tag', '1.0.0', 'next'])).toEqual({
      code: 1,
      stdout: '',
      stderr: lines('npm\'s latest is "next", not X.Y.Z'),
    });
  });
});

describe('at-least: a tool is new enough (npm for trusted publishing, gh for verifying)', () => {
  it.each([
    ['11.5.1', '11.5.1', 0],
    ['12.2.0', '11.5.1', 0],
    ['11.10.0', '11.5.1', 0],
    ['v2.100.0', '2.93.0', 0],
    ['11.5.0', '11.5.1', 1],
    ['11.5.1-pre.1', '11.5.1', 1],
    ['2.9.3', '2.93.0', 1],
    ['', '11.5.1', 1],
  ])('%s >= %s: exit %i', (have, minimum, code) => {
    const result = answer(['at-least', have, minimum]);
    expect(result.code).toBe(code);
    expect(result.stderr).toBe(code === 0 ? '' : lines(`${have || '(no version)'} is older than ${minimum}`));
  });
});

describe('prepare: the release commit', () => {
  it('makes the Unreleased entries the new dated section, sets the version in package.json and its lock', () => {
    const lock = {
      name: 'report-deployment',
      version: '1.0.0',
      lockfileVersion: 3,
      packages: { '': { name: 'report-deployment', version: '1.0.0' } },
    };
    const repo = new Repo({
      'package.json': packageJson(),
      'package-lock.json': `${JSON.stringify(lock, null, 2)}\n`,
      'CHANGELOG.md': changelog([FIRST], '### Fixed\n\n- A fix.'),
    });
    repo.tag('v1.0.0');
    const before = repo.read('package.json');
    expect(repo.release(['prepare', '1.0.1', '--date', '2026-12-24'])).toEqual({
      code: 0,
      stdout: lines(
        'prepared v1.0.1 (2026-12-24): package.json, package-lock.json and CHANGELOG.md.',
        'Next: npm run build (package.json is one of its inputs), commit, merge; then on that commit:',
        '  git tag -a v1.0.1 -m v1.0.1 && git push origin v1.0.1',
      ),
      stderr: '',
    });
    expect(repo.read('CHANGELOG.md')).toBe(changelog([['1.0.1', '2026-12-24', '### Fixed\n\n- A fix.'], FIRST]));
    expect(repo.read('package.json')).toBe(before.replace('"version": "1.0.0"', '"version": "1.0.1"'));
    expect(JSON.parse(repo.read('package-lock.json'))).toEqual({
      ...lock,
      version: '1.0.1',
      packages: { '': { name: 'report-deployment', version: '1.0.1' } },
    });

    // What it prepared is releasable.
    repo.commit('Release 1.0.1');
    expect(repo.release(['check', '1.0.1']).code).toBe(0);
  });

  it('dates an existing section that is not released yet (today, UTC, by default)', () => {
    const repo = new Repo();
    const before = new Date().toISOString().slice(0, 10);
    const result = repo.release(['prepare', '1.0.0']);
    const after = new Date().toISOString().slice(0, 10);
    expect(result.code).toBe(0);
    const date = /^## \[1\.0\.0\] - (.*)$/m.exec(repo.read('CHANGELOG.md'))?.[1];
    expect([before, after]).toContain(date);
    expect(repo.read('CHANGELOG.md')).toBe(changelog([FIRST]).replace('2026-11-22', date ?? ''));
    expect(repo.read('package.json')).toBe(packageJson());
  });

  it.each<[string, Record<string, string>, string[], string]>([
    [
      'entries under Unreleased beside an existing section',
      { 'CHANGELOG.md': changelog([FIRST], '- A fix.') },
      ['prepare', '1.0.0'],
      'CHANGELOG.md has entries under Unreleased and a section for 1.0.0 already: move them into it, then run this again',
    ],
    [
      'nothing under Unreleased',
      {},
      ['prepare', '1.0.1'],
      'CHANGELOG.md has no entries under Unreleased: nothing to release as 1.0.1',
    ],
    [
      "a version below package.json's",
      { 'package.json': packageJson({ version: '1.2.0' }) },
      ['prepare', '1.1.9'],
      "package.json's version is 1.2.0: 1.1.9 would go backwards",
    ],
  ])('refuses %s and changes nothing', (_, files, args, message) => {
    const repo = new Repo();
    repo.commit('change', files);
    expect(repo.release(args)).toEqual({ code: 1, stdout: '', stderr: lines(message) });
    expect(repo.git('status', '--porcelain')).toBe('');
  });

  it('refuses a released version', () => {
    const repo = new Repo();
    repo.tag('v1.0.0');
    expect(repo.release(['prepare', '1.0.0'])).toEqual({
      code: 1,
      stdout: '',
      stderr: lines('v1.0.0 exists: a released version is never prepared again'),
    });
  });
});

describe("the examples' pins: the version they install is the one released", () => {
  /** Examples as this repository's pin, each form once: install.sh's URL, the npm package, a cache key. */
  const examples = (version: string) => ({
    'examples/cli/gitlab-ci.yml': [
      'deploy:',
      '  cache:',
      `    key: report-deployment-${version}`,
      '  before_script:',
      `    - curl -fsSL https://github.com/acme/report-deployment/releases/download/v${version}/install.sh | sh -s -- --dir .report-deployment`,
      '',
    ].join('\n'),
    'examples/cli/azure-pipelines.yml': [
      'steps:',
      `  - script: npm install --global report-deployment@${version}`,
      '',
    ].join('\n'),
    'examples/cli-in-github-actions.yml': [
      `      - run: curl -fsSL https://github.com/acme/report-deployment/releases/download/v${version}/install.sh | sh`,
      '',
    ].join('\n'),
    // The release's image, as the Kubernetes examples name it.
    'examples/receiver/kubernetes/base/deployment.yaml': [
      'containers:',
      '  - name: receiver',
      `    image: ghcr.io/acme/report-deployment:${version}`,
      '',
    ].join('\n'),
    // The action's examples pin its major tag, which no release moves.
    'examples/one-job.yml': '      - uses: acme/report-deployment@v1\n',
  });

  it('prepare moves every pin of every example to the version, and nothing else', () => {
    const repo = new Repo({ ...examples('1.0.0'), 'CHANGELOG.md': changelog([FIRST], '### Fixed\n\n- A fix.') });
    repo.tag('v1.0.0');
    const result = repo.release(['prepare', '1.1.0', '--date', '2026-12-24']);

    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe(
      'prepared v1.1.0 (2026-12-24): package.json, package-lock.json, CHANGELOG.md and the version 4 examples install.',
    );
    for (const [file, text] of Object.entries(examples('1.1.0'))) expect(repo.read(file), file).toBe(text);
    repo.commit('Release 1.1.0', {});
    expect(repo.release(['check', '1.1.0'])).toMatchObject({ code: 0, stderr: '' });
  });

  it('prepare again on the day (the examples pin the version already): the same files', () => {
    const repo = new Repo({ ...examples('0.9.0') });
    expect(repo.release(['prepare', '1.0.0', '--date', '2026-12-24']).stdout.split('\n')[0]).toBe(
      'prepared v1.0.0 (2026-12-24): package.json, package-lock.json, CHANGELOG.md and the version 4 examples install.',
    );
    repo.commit('Release 1.0.0', {});
    expect(repo.release(['prepare', '1.0.0', '--date', '2026-12-24']).stdout.split('\n')[0]).toBe(
      'prepared v1.0.0 (2026-12-24): package.json, package-lock.json and CHANGELOG.md.',
    );
    for (const [file, text] of Object.entries(examples('1.0.0'))) expect(repo.read(file), file).toBe(text);
  });

  it('prepare refused changes no example', () => {
    const repo = new Repo({ ...examples('0.9.0') });
    expect(repo.release(['prepare', '1.0.1']).code).toBe(1); // nothing under Unreleased
    expect(repo.git('status', '--porcelain')).toBe('');
  });

  it('check refuses examples that pin another version, each file on a line of its own, with the fix', () => {
    const repo = new Repo({
      ...examples('1.0.0'),
      'examples/cli/gitlab-ci.yml': examples('0.9.0')['examples/cli/gitlab-ci.yml'],
      'examples/cli/azure-pipelines.yml': examples('1.0.0-rc.1')['examples/cli/azure-pipelines.yml'],
    });
    expect(repo.release(['check', '1.0.0'])).toEqual({
      code: 1,
      stdout: '',
      stderr: lines(
        "examples/cli/azure-pipelines.yml pins 1.0.0-rc.1 (line 2), not 1.0.0: users would install another version (npm run release -- prepare 1.0.0 moves the examples' pins)",
        "examples/cli/gitlab-ci.yml pins 0.9.0 (lines 3, 5), not 1.0.0: users would install another version (npm run release -- prepare 1.0.0 moves the examples' pins)",
      ),
    });
  });

  it('check refuses one stale pin beside good ones, naming only it', () => {
    const text = `${examples('1.0.0')['examples/cli/gitlab-ci.yml']}# npm install --global report-deployment@0.9.0\n`;
    const repo = new Repo({ 'examples/cli/gitlab-ci.yml': text });
    expect(repo.release(['check', '1.0.0']).stderr).toBe(
      lines(
        "examples/cli/gitlab-ci.yml pins 0.9.0 (line 6), not 1.0.0: users would install another version (npm run release -- prepare 1.0.0 moves the examples' pins)",
      ),
    );
  });

  it("finds every pin of this repository's examples: once moved, none names the version they pinned", () => {
    const found = examplePins(ROOT);
    const cliExamples = readdirSync(join(ROOT, 'examples', 'cli')).map((name) => `examples/cli/${name}`);

    expect(found.map(({ file }) => file).sort()).toEqual(
      [
        ...cliExamples,
        'examples/cli-in-github-actions.yml',
        'examples/receiver/kubernetes/base/deployment.yaml',
      ].sort(),
    );
    const versions = new Set(found.flatMap(({ pins }) => pins.map((pin) => pin.version)));
    expect(versions.size).toBe(1);
    const pinned = [...versions][0] ?? '';
    for (const { file, text } of found) {
      const moved = withPins(text, '9.9.9');
      expect(moved.includes(pinned), file).toBe(false);
      // Only the versions changed: the same text around them.
      expect(moved.replaceAll('9.9.9', pinned), file).toBe(text);
    }
  });
});

describe('usage', () => {
  it.each([
    [[], 'no command'],
    [['release'], 'unknown command release'],
    [['check'], 'wrong arguments for check'],
    [['check', '1.0.0', '1.0.1'], 'wrong arguments for check'],
    [['check', '1.0.0', '--force'], 'unknown option --force'],
    [['check', '1.0.0', '--ref'], '--ref needs a value'],
    [['at-least', '1.0.0'], 'wrong arguments for at-least'],
    [['prepare', '1.0.1', '--date=22.11.2026'], '"22.11.2026" is not a date (YYYY-MM-DD)'],
  ])('%j: exit 2, %s', (args, message) => {
    const result = answer(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n').slice(0, 2)).toEqual([message, 'usage: node scripts/release.ts <command>']);
  });

  it('knows the commands it documents', () => {
    const usage = answer([]).stderr;
    expect(COMMANDS.map((command) => usage.includes(`\n  ${command} `))).toEqual(COMMANDS.map(() => true));
  });
});

describe('as a process, as the workflow runs it', () => {
  it('prints what the command says: the outputs on stdout, exit 0; a refusal on stderr, exit 1; usage, exit 2', () => {
    const repo = new Repo();
    const head = repo.git('rev-parse', 'HEAD');
    expect(repo.spawn(['check', '1.0.0'])).toEqual({
      code: 0,
      stdout: lines('version=1.0.0', 'tag=v1.0.0', `sha=${head}`, 'major=v1'),
      stderr: '',
    });
    expect(repo.spawn(['check', '1.0.1'], { GITHUB_ACTIONS: 'true' })).toEqual({
      code: 1,
      stdout: '',
      stderr: lines(
        "::error::package.json's version is 1.0.0, not 1.0.1",
        '::error::CHANGELOG.md has no section "## [1.0.1] - YYYY-MM-DD"',
      ),
    });
    const usage = repo.spawn(['chek', '1.0.0']);
    expect([usage.code, usage.stdout, usage.stderr.split('\n')[0]]).toEqual([2, '', 'unknown command chek']);
  });
});

describe('this repository', () => {
  it("has a well-formed CHANGELOG with a dated section for package.json's version", () => {
    const own = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest & Record<string, unknown>;
    const parsed = parseChangelog(readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8'));
    expect(parsed.problems).toEqual([]);
    const section = parsed.releases.find((release) => release.version === own.version);
    expect(section?.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(section?.body).toContain('### ');
    expect(parsed.releases.map((release) => release.version)).toContain('1.0.0');
  });

  it('names its GitHub repository in package.json as npm provenance requires', () => {
    const own = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect([own.repository, own.homepage, own.bugs]).toEqual([
      { type: 'git', url: REPO_URL },
      'https://github.com/acme/report-deployment#readme',
      { url: 'https://github.com/acme/report-deployment/issues' },
    ]);
  });
});

describe('the pieces', () => {
  it('reads versions strictly', () => {
    expect(parseVersion('1.2.3')).toEqual({ major: 1, minor: 2, patch: 3 });
    expect(parseVersion('v0.0.0')).toEqual({ major: 0, minor: 0, patch: 0 });
    expect(
      ['1.2', '1.2.3.4', '1.2.3-rc.1', '1.2.3+b', ' 1.2.3', '1.02.3', '99999999999999999999.0.0'].map(parseVersion),
    ).toEqual(Array(7).fill(undefined));
    expect(isAtLeast('11.5.1+build', '11.5.1')).toBe(true);
    expect(() => isAtLeast('1.0.0', '1.0')).toThrow('the minimum "1.0" is not X.Y.Z');
  });

  it('reads the GitHub repository package.json names', () => {
    expect(
      [
        'git+https://github.com/acme/report-deployment.git',
        'https://github.com/acme/report-deployment',
        'https://github.com/acme/report-deployment/',
        'git@github.com:acme/report-deployment.git',
        'https://gitlab.com/acme/report-deployment',
      ].map(gitHubRepo),
    ).toEqual(['acme/report-deployment', 'acme/report-deployment', 'acme/report-deployment', undefined, undefined]);
  });

  it('sets the top-level version only', () => {
    const text = '{\n  "name": "x",\n  "version": "1.0.0",\n  "devDependencies": { "y": "1.0.0" }\n}\n';
    expect(setManifestVersion(text, '1.0.0', '1.1.0')).toBe(text.replace('"version": "1.0.0"', '"version": "1.1.0"'));
  });

  it('reads a CHANGELOG with CRLF line ends, headings in code blocks and comments', () => {
    const text = changelog([['1.0.0', '2026-11-22', '```\n## [9.9.9] - 2026-01-01\n```']]).replaceAll('\n', '\r\n');
    const parsed = parseChangelog(text);
    expect(parsed.problems).toEqual([]);
    expect(parsed.unreleased?.body).toBe('');
    expect(parsed.releases.map((section) => [section.version, section.date, section.body])).toEqual([
      ['1.0.0', '2026-11-22', '```\n## [9.9.9] - 2026-01-01\n```'],
    ]);
  });

  it('finds what is wrong with a CHANGELOG', () => {
    const text = [
      '# C',
      '',
      '## [1.0.0] - 2026-11-22',
      '',
      '- x',
      '',
      '## Unreleased',
      '',
      '## [1.0.0] - 2026-11-23',
      '',
      '- y',
      '',
    ].join('\n');
    expect(parseChangelog(text).problems).toEqual([
      'CHANGELOG.md: "## Unreleased" must come before every release',
      'CHANGELOG.md has no link definition "[1.0.0]: ..." at its end',
      'CHANGELOG.md has two sections for 1.0.0',
      'CHANGELOG.md has no link definition "[1.0.0]: ..." at its end',
    ]);
    expect(() => prepareChangelog(text, '1.0.1', '2026-12-01', 'acme/report-deployment')).toThrow(
      'CHANGELOG.md: "## Unreleased" must come before every release\nCHANGELOG.md has two sections for 1.0.0',
    );
    expect(parseChangelog('# C\n').problems).toEqual(['CHANGELOG.md has no "## Unreleased" section']);
  });

  it('prepares a first release: a CHANGELOG without link definitions gets them', () => {
    expect(prepareChangelog('# C\n\n## Unreleased\n\n- First.\n', '0.1.0', '2026-11-22', 'acme/x')).toBe(
      '# C\n\n## Unreleased\n\n## [0.1.0] - 2026-11-22\n\n- First.\n\n[0.1.0]: https://github.com/acme/x/releases/tag/v0.1.0\n',
    );
  });
});
