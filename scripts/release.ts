// `npm run release -- <command>` (or `node scripts/release.ts <command>`): what the release workflow
// (.github/workflows/release.yml) decides, in one place the tests run against real git repositories.
// It reads package.json, CHANGELOG.md and git in the current directory, and needs nothing but Node
// 24 and git (the workflow runs it before `npm ci`, and in jobs that never install).
//
//   check <X.Y.Z> [--ref <ref>] [--repo <owner/name>]  is this commit releasable as X.Y.Z? prints
//                                                      version=, tag=, sha=, major= (for $GITHUB_OUTPUT)
//   notes <X.Y.Z> [--repo <owner/name>]                the release's notes: its CHANGELOG section, and how
//                                                      to pin and verify it
//   major <X.Y.Z>                                      does vX move to vX.Y.Z? prints major=, sha=, from=, move=
//   latest <X.Y.Z>                                     true when vX.Y.Z is the newest release of all
//   npm-tag <X.Y.Z> [<npm's latest>]                   the npm dist-tag to publish under
//   at-least <version> <X.Y.Z>                         exit 0 when a tool's version is at least X.Y.Z
//   prepare <X.Y.Z> [--date <YYYY-MM-DD>]              make the release commit's changes: package.json's
//                                                      version, the CHANGELOG section dated (today, UTC),
//                                                      the version the examples install
//
// Exit codes: 0 yes / done, 1 no (each reason on its own line of stderr), 2 a usage error.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDate, parseChangelog, prepareChangelog, sectionOf } from './release/changelog.ts';
import { examplePins, pinProblems, withPins } from './release/examples.ts';
import { Git } from './release/git.ts';
import {
  compareVersions,
  formatVersion,
  isAtLeast,
  majorTagOf,
  newest,
  parseVersion,
  tagOf,
  versionOfTag,
  type Version,
} from './release/semver.ts';

export const COMMANDS = ['check', 'notes', 'major', 'latest', 'npm-tag', 'at-least', 'prepare'] as const;

const USAGE = `usage: node scripts/release.ts <command>
  check <X.Y.Z> [--ref <git ref>] [--repo <owner/name>]
  notes <X.Y.Z> [--repo <owner/name>]
  major <X.Y.Z>
  latest <X.Y.Z>
  npm-tag <X.Y.Z> [<the version npm has as latest>]
  at-least <version> <X.Y.Z>
  prepare <X.Y.Z> [--date <YYYY-MM-DD>]`;

/** What a command says: the lines for stdout, the reasons it refused, and its exit code. */
export interface Result {
  code: 0 | 1 | 2;
  stdout: string[];
  problems: string[];
}

const ok = (...stdout: string[]): Result => ({ code: 0, stdout, problems: [] });
const refused = (...problems: string[]): Result => ({ code: 1, stdout: [], problems });
class UsageError extends Error {}
/** A "no" found before the command could start (a version that is not X.Y.Z): exit 1. */
class Refusal extends Error {}

interface Manifest {
  name?: unknown;
  version?: unknown;
  private?: unknown;
  bin?: unknown;
  repository?: unknown;
}

function readManifest(cwd: string): Manifest {
  return JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')) as Manifest;
}

const readChangelog = (cwd: string) => parseChangelog(readFileSync(join(cwd, 'CHANGELOG.md'), 'utf8'));

/** `owner/name` of a GitHub repository URL as package.json writes it; undefined for anything else. */
export function gitHubRepo(url: string): string | undefined {
  const match = /^(?:git\+)?https:\/\/github\.com\/([\w.-]+\/[\w.-]+?)(?:\.git)?\/?$/.exec(url.trim());
  return match?.[1];
}

function manifestRepo(manifest: Manifest): string | undefined {
  const repository = manifest.repository;
  const url =
    typeof repository === 'string'
      ? repository
      : typeof repository === 'object' && repository !== null && 'url' in repository
        ? String(repository.url)
        : '';
  return gitHubRepo(url);
}

function repoOf(options: Map<string, string>, manifest: Manifest): string {
  const repo = options.get('repo') ?? manifestRepo(manifest);
  if (!repo) throw new UsageError('no --repo, and package.json\'s "repository" names no GitHub repository');
  return repo;
}

function versionArgument(text: string | undefined): Version {
  if (text === undefined) throw new UsageError('a version is missing');
  const version = parseVersion(text);
  if (!version) throw new Refusal(`"${text}" is not a release version: X.Y.Z (or vX.Y.Z), no prerelease`);
  return version;
}

const short = (commit: string) => commit.slice(0, 12);

function check(cwd: string, version: Version, options: Map<string, string>): Result {
  const git = new Git(cwd);
  const manifest = readManifest(cwd);
  const problems: string[] = [];
  const wanted = formatVersion(version);
  const tag = tagOf(version);
  const head = git.head();

  // package.json: the version, and what npm publish with provenance needs of it.
  if (manifest.version !== wanted)
    problems.push(`package.json's version is ${String(manifest.version)}, not ${wanted}`);
  if (manifest.private === true) problems.push('package.json says "private": true: npm publish would refuse it');
  const name = typeof manifest.name === 'string' ? manifest.name : '';
  const command = name.replace(/^@[^/]+\//, '');
  const bin = manifest.bin;
  const hasCommand =
    typeof bin === 'string' ? name !== '' : typeof bin === 'object' && bin !== null && command in bin && command !== '';
  if (!hasCommand)
    problems.push(`package.json's "bin" has no command "${command}" (npx ${name}@${version.major} runs it)`);
  const repo = manifestRepo(manifest);
  const wantedRepo = options.get('repo');
  if (!repo) {
    problems.push('package.json\'s "repository" names no GitHub repository (npm provenance requires it)');
  } else if (wantedRepo && repo.toLowerCase() !== wantedRepo.toLowerCase()) {
    problems.push(`package.json's "repository" is ${repo}, not ${wantedRepo} (npm would refuse the provenance)`);
  }

  // The tag: none yet (checking before tagging), or this commit; in the workflow, the run's ref.
  const tagged = git.tagCommit(tag);
  if (tagged !== undefined && tagged !== head) {
    problems.push(`${tag} names ${short(tagged)}, not this commit (${short(head)})`);
  }
  const ref = options.get('ref');
  if (ref !== undefined) {
    if (ref !== `refs/tags/${tag}`) problems.push(`the run is on ${ref || '(no ref)'}, not on the tag ${tag}`);
    else if (tagged === undefined) problems.push(`there is no tag ${tag}`);
    if (git.remoteBranchesContaining(head).length === 0) {
      problems.push(`${short(head)} is on no branch of the repository: release only what was merged`);
    }
  }

  // CHANGELOG.md: well-formed, a dated section for this version, nothing left under Unreleased.
  const changelog = readChangelog(cwd);
  problems.push(...changelog.problems);
  const section = sectionOf(changelog, wanted);
  if (!section) problems.push(`CHANGELOG.md has no section "## [${wanted}] - YYYY-MM-DD"`);
  else if (!section.body) problems.push(`CHANGELOG.md's section for ${wanted} says nothing`);
  if (changelog.unreleased?.body) {
    problems.push(
      `CHANGELOG.md has entries under Unreleased: they ship in ${tag} unlisted; move them into its section (npm run release -- prepare ${wanted})`,
    );
  }

  // The examples: users copy them as they are, so they must install this very version.
  problems.push(...pinProblems(examplePins(cwd), wanted));

  if (problems.length > 0) return refused(...problems);
  return ok(`version=${wanted}`, `tag=${tag}`, `sha=${head}`, `major=${majorTagOf(version)}`);
}

function notes(cwd: string, version: Version, options: Map<string, string>): Result {
  const manifest = readManifest(cwd);
  const repo = repoOf(options, manifest);
  const wanted = formatVersion(version);
  const tag = tagOf(version);
  const section = sectionOf(readChangelog(cwd), wanted);
  if (!section?.body) return refused(`CHANGELOG.md has no section for ${wanted}, or it says nothing`);
  const git = new Git(cwd);
  const commit = git.tagCommit(tag) ?? git.head();
  const name = typeof manifest.name === 'string' ? manifest.name : 'report-deployment';
  return ok(
    section.body,
    '',
    '---',
    '',
    `Pin this release by its commit, as [the README](https://github.com/${repo}#versions-and-pinning) explains:`,
    '',
    '```yaml',
    `- uses: ${repo}@${commit} # ${tag}`,
    '```',
    '',
    `\`@${tag}\` names the same commit; \`@${majorTagOf(version)}\` follows every ${majorTagOf(version)}.y.z release. ` +
      // Installed before the deploy, never fetched in its path (npx would let the registry decide whether it runs).
      `The CLI, installed in a step of its own before the deploy: the executable, ` +
      `\`curl -fsSL https://github.com/${repo}/releases/download/${tag}/install.sh | sh\`, or ` +
      `\`npm install --global ${name}@${wanted}\` ([install](https://github.com/${repo}/blob/main/docs/cli.md#install)).`,
    '',
    `Verify a file of this release: \`gh release verify-asset ${tag} FILE -R ${repo}\` and ` +
      `\`gh attestation verify FILE -R ${repo} --signer-workflow ${repo}/.github/workflows/release.yml\` ` +
      `(gh 2.93.0 or later).`,
  );
}

/** All release versions the tags name, with their commits. */
function releases(git: Git): { version: Version; tag: string; commit: string }[] {
  return [...git.tagCommits()].flatMap(([tag, commit]) => {
    const version = versionOfTag(tag);
    return version ? [{ version, tag, commit }] : [];
  });
}

function major(cwd: string, version: Version): Result {
  const git = new Git(cwd);
  const tag = tagOf(version);
  const majorTag = majorTagOf(version);
  const sha = git.tagCommit(tag);
  if (!sha) return refused(`there is no tag ${tag}`);
  const all = releases(git);
  const sameMajor = all.filter((release) => release.version.major === version.major);
  const top = newest([version, ...sameMajor.map((release) => release.version)]) ?? version;
  const from = git.refValue(`refs/tags/${majorTag}`);
  const current = git.tagCommit(majorTag);
  const say = (move: boolean, why: string): Result => ({
    code: 0,
    stdout: [`major=${majorTag}`, `sha=${sha}`, `from=${from}`, `move=${move}`],
    problems: [why],
  });

  if (compareVersions(top, version) > 0) return say(false, `${majorTag} stays: ${tagOf(top)} is newer than ${tag}`);
  if (current === undefined) return say(true, `${majorTag} is new: it will name ${tag} (${short(sha)})`);
  if (current === sha) return say(false, `${majorTag} names ${tag} (${short(sha)}) already`);
  const named = newest(sameMajor.filter((release) => release.commit === current).map((release) => release.version));
  if (!named) {
    return refused(
      `${majorTag} names ${short(current)}, which no ${majorTag}.y.z tag names: move it by hand, or not at all`,
    );
  }
  // `top` is this version, so `named` is older: the move is forward.
  return say(true, `${majorTag} moves from ${tagOf(named)} to ${tag} (${short(sha)})`);
}

function latest(cwd: string, version: Version): Result {
  const top = newest([version, ...releases(new Git(cwd)).map((release) => release.version)]) ?? version;
  return ok(String(compareVersions(version, top) === 0));
}

function npmTag(version: Version, npmLatest: string | undefined): Result {
  if (!npmLatest) return ok('latest');
  const current = parseVersion(npmLatest);
  if (!current) return refused(`npm's latest is "${npmLatest}", not X.Y.Z`);
  // An older line's release (a backport 1.4.1 after 2.0.0) must not become what `npm install` gets.
  return ok(compareVersions(version, current) >= 0 ? 'latest' : `latest-${version.major}`);
}

function atLeast(have: string | undefined, minimum: string | undefined): Result {
  if (have === undefined || minimum === undefined) throw new UsageError('at-least needs a version and a minimum');
  versionArgument(minimum);
  return isAtLeast(have, minimum) ? ok() : refused(`${have || '(no version)'} is older than ${minimum}`);
}

/** package.json with its top-level version set, every other byte as it was. */
export function setManifestVersion(text: string, from: string, to: string): string {
  const escaped = from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const line = new RegExp(`^(\\s*"version"\\s*:\\s*")${escaped}(")`, 'm');
  const updated = text.replace(line, `$1${to}$2`);
  if ((JSON.parse(updated) as Manifest).version !== to)
    throw new Error(`could not set package.json's version to ${to}`);
  return updated;
}

function prepare(cwd: string, version: Version, options: Map<string, string>): Result {
  const wanted = formatVersion(version);
  const date = options.get('date') ?? new Date().toISOString().slice(0, 10);
  if (!isDate(date)) throw new UsageError(`"${date}" is not a date (YYYY-MM-DD)`);
  const git = new Git(cwd);
  const tag = tagOf(version);
  if (git.tagCommit(tag) !== undefined) return refused(`${tag} exists: a released version is never prepared again`);

  const manifestText = readFileSync(join(cwd, 'package.json'), 'utf8');
  const manifest = JSON.parse(manifestText) as Manifest;
  const current = parseVersion(String(manifest.version));
  if (current && compareVersions(version, current) < 0) {
    return refused(`package.json's version is ${formatVersion(current)}: ${wanted} would go backwards`);
  }
  let changelog: string;
  try {
    changelog = prepareChangelog(
      readFileSync(join(cwd, 'CHANGELOG.md'), 'utf8'),
      wanted,
      date,
      repoOf(options, manifest),
    );
  } catch (error) {
    if (error instanceof UsageError || error instanceof Refusal) throw error;
    return refused(...(error as Error).message.split('\n'));
  }

  const manifestUpdated = setManifestVersion(manifestText, String(manifest.version), wanted);
  const examples = examplePins(cwd).filter(({ pins }) => pins.some((pin) => pin.version !== wanted));

  writeFileSync(join(cwd, 'CHANGELOG.md'), changelog);
  writeFileSync(join(cwd, 'package.json'), manifestUpdated);
  for (const { file, text } of examples) writeFileSync(join(cwd, file), withPins(text, wanted));
  const lockFile = join(cwd, 'package-lock.json');
  if (existsSync(lockFile)) {
    const lock = JSON.parse(readFileSync(lockFile, 'utf8')) as {
      version?: string;
      packages?: Record<string, { version?: string }>;
    };
    lock.version = wanted;
    const root = lock.packages?.[''];
    if (root) root.version = wanted;
    writeFileSync(lockFile, `${JSON.stringify(lock, null, 2)}\n`);
  }
  const changed =
    examples.length === 0
      ? 'package.json, package-lock.json and CHANGELOG.md'
      : `package.json, package-lock.json, CHANGELOG.md and the version ${examples.length} example${examples.length > 1 ? 's' : ''} install`;
  return ok(
    `prepared ${tag} (${date}): ${changed}.`,
    'Next: npm run build (package.json is one of its inputs), commit, merge; then on that commit:',
    `  git tag -a ${tag} -m ${tag} && git push origin ${tag}`,
  );
}

/** Runs a command in `cwd`; throws only for a bug of ours. */
export function run(args: string[], cwd: string): Result {
  const [command, ...rest] = args;
  const positional: string[] = [];
  const options = new Map<string, string>();
  try {
    for (let i = 0; i < rest.length; i++) {
      const arg = rest[i] ?? '';
      const known = /^--(ref|repo|date)(?:=(.*))?$/.exec(arg);
      if (known?.[1]) {
        const value = known[2] ?? rest[++i];
        if (value === undefined) throw new UsageError(`${arg} needs a value`);
        options.set(known[1], value);
      } else if (arg.startsWith('--')) {
        throw new UsageError(`unknown option ${arg}`);
      } else {
        positional.push(arg);
      }
    }
    const arity: Record<string, [number, number]> = {
      check: [1, 1],
      notes: [1, 1],
      major: [1, 1],
      latest: [1, 1],
      'npm-tag': [1, 2],
      'at-least': [2, 2],
      prepare: [1, 1],
    };
    const [min, max] = arity[command ?? ''] ?? [];
    if (min === undefined || max === undefined)
      throw new UsageError(command ? `unknown command ${command}` : 'no command');
    if (positional.length < min || positional.length > max) throw new UsageError(`wrong arguments for ${command}`);
    switch (command) {
      case 'check':
        return check(cwd, versionArgument(positional[0]), options);
      case 'notes':
        return notes(cwd, versionArgument(positional[0]), options);
      case 'major':
        return major(cwd, versionArgument(positional[0]));
      case 'latest':
        return latest(cwd, versionArgument(positional[0]));
      case 'npm-tag':
        return npmTag(versionArgument(positional[0]), positional[1]);
      case 'at-least':
        return atLeast(positional[0], positional[1]);
      default:
        return prepare(cwd, versionArgument(positional[0]), options);
    }
  } catch (error) {
    if (error instanceof UsageError) return { code: 2, stdout: [], problems: [error.message, USAGE] };
    if (error instanceof Refusal) return refused(error.message);
    throw error;
  }
}

/** What a result prints. In a workflow a refusal is an error annotation; a note (major's reason) a plain line. */
export function render(result: Result, inWorkflow: boolean): { stdout: string; stderr: string } {
  const annotate = inWorkflow && result.code === 1 ? '::error::' : '';
  return {
    stdout: result.stdout.map((line) => `${line}\n`).join(''),
    stderr: result.problems.map((problem) => `${annotate}${problem}\n`).join(''),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = run(process.argv.slice(2), process.cwd());
  const { stdout, stderr } = render(result, process.env.GITHUB_ACTIONS === 'true');
  process.stdout.write(stdout);
  process.stderr.write(stderr);
  process.exitCode = result.code;
}
