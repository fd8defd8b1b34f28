// Runs the CLI as `npm pack` ships it: the tarball packed from this checkout (its `prepack` builds
// the bundle), installed alone and offline into an empty folder, its bin run as a user would, with
// real child processes and real signals. The install is kept under node_modules/.cache, one per
// fingerprint of what the package is built from, so that the test files (and their workers) share it.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { BUILD_INPUTS } from '../scripts/source-hash.ts';
import { readRunnerOutput, type RunnerCommand } from './runner-commands.ts';
import { ROOT } from './run-action.ts';

const CACHE = join(ROOT, 'node_modules', '.cache', 'report-deployment-cli');
const NPM_CLI = process.env.npm_execpath;

/** The Node binaries the CLI is run with: the project's 24, and the 22 and 20 beside it. */
export const NODES = {
  24: process.execPath,
  22: join(ROOT, 'node_modules', 'node22', 'bin', 'node'),
  20: join(ROOT, 'node_modules', 'node20', 'bin', 'node'),
} as const;

/** The installed package: its folder, its bin, the tarball's size. */
export interface InstalledCli {
  dir: string;
  bin: string;
  tarballBytes: number;
}

let installed: InstalledCli | undefined;

/**
 * The packed CLI, installed offline into an empty folder, once for these sources: the first worker
 * to ask packs it (a lock folder says so), the others wait for it. Call it from `beforeAll` with a
 * generous timeout (INSTALL_TIMEOUT_MS): packing builds the bundle.
 */
export function installedCli(): InstalledCli {
  if (installed) return installed;
  const dir = join(CACHE, packageFingerprint());
  if (!existsSync(join(dir, 'done'))) installOnce(dir);
  const tarball = readdirSync(join(dir, 'pack')).find((name) => name.endsWith('.tgz')) as string;
  installed = {
    dir: join(dir, 'app'),
    bin: join(dir, 'app', 'node_modules', '.bin', 'report-deployment'),
    tarballBytes: readFileSync(join(dir, 'pack', tarball)).length,
  };
  return installed;
}

export const INSTALL_TIMEOUT_MS = 300_000;

function installOnce(dir: string): void {
  mkdirSync(CACHE, { recursive: true });
  const lock = `${dir}.lock`;
  let mine = false;
  try {
    mkdirSync(lock);
    mine = true;
  } catch {
    // Another worker is packing: wait for it, within the bound.
  }
  if (mine) {
    try {
      install(dir);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
    return;
  }
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let waited = 0; !existsSync(join(dir, 'done')); waited += 200) {
    if (waited > INSTALL_TIMEOUT_MS) throw new Error(`Gave up waiting for ${lock}: remove it if no test runs`);
    if (!existsSync(lock)) return install(dir);
    Atomics.wait(pause, 0, 0, 200);
  }
}

function install(dir: string): void {
  mkdirSync(CACHE, { recursive: true });
  const work = mkdtempSync(join(CACHE, 'installing-'));
  const npm = (args: string[], cwd: string) =>
    execFileSync(NPM_CLI ? process.execPath : 'npm', [...(NPM_CLI ? [NPM_CLI] : []), ...args], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' },
    });
  mkdirSync(join(work, 'pack'));
  // The package's own folder (scripts/npm-package.ts: the CLI's README), as the release packs it.
  npm(['run', '--silent', 'package'], ROOT);
  npm(['pack', '--silent', './npm/package', '--pack-destination', join(work, 'pack')], ROOT);
  const tarball = readdirSync(join(work, 'pack')).find((name) => name.endsWith('.tgz')) as string;
  mkdirSync(join(work, 'app'));
  // Offline: the package must need nothing from a registry.
  npm(['init', '-y'], join(work, 'app'));
  npm(['install', '--offline', '--no-package-lock', join(work, 'pack', tarball)], join(work, 'app'));
  writeFileSync(join(work, 'done'), '');
  try {
    renameSync(work, dir);
  } catch {
    // Another worker got there first: its install is the same.
    rmSync(work, { recursive: true, force: true });
  }
}

/** What the package is built from: src/ (the CLI's too), the build, the lockfile, package.json, its README. */
function packageFingerprint(): string {
  const hash = createHash('sha256');
  const files = [...listFiles('src'), ...BUILD_INPUTS, 'scripts/npm-package.ts', 'npm/README.md'].sort();
  for (const file of files) hash.update(`${file}\0${readFileSync(join(ROOT, file), 'utf8')}\0`);
  return hash.digest('hex').slice(0, 16);
}

function listFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

export interface CliResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** stderr's lines, each without the `report-deployment: ` prefix. */
  messages: string[];
  /** The workflow commands the GitHub runner would run from stdout and stderr. */
  commands: RunnerCommand[];
}

export interface CliOptions {
  /** The environment beyond PATH and HOME: nothing else of the test's own leaks in (no CI variables). */
  env?: Record<string, string>;
  cwd?: string;
  /** Which Node runs it (default: the shebang's, the project's 24 first on PATH). */
  node?: keyof typeof NODES;
  /** Kill it after this long: tests pass a bound it must keep. */
  killAfterMs?: number;
  /** Called once it runs, to signal it, write to it, wait on it. */
  onSpawn?: (child: ChildProcess) => void;
  stdin?: string;
}

/** Runs the installed bin with `args`, as a user would. */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const { bin, dir } = installedCli();
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? dir, ...options.env };
  const [file, argv] = options.node ? [NODES[options.node], [bin, ...args]] : [bin, args];
  return new Promise((resolve, reject) => {
    const child = spawn(file, argv, { cwd: options.cwd ?? dir, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('latin1')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin.end(options.stdin ?? '');
    const timer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      const messages = stderr
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => line.replace(/^report-deployment: /, ''));
      const commands = [...readRunnerOutput(stdout).commands, ...readRunnerOutput(stderr).commands];
      resolve({ exitCode, signal, stdout, stderr, messages, commands });
    });
    options.onSpawn?.(child);
  });
}

/** Resolves once `stream` has carried `text` (a child saying it is ready): no sleeps. */
export function waitForText(stream: NodeJS.ReadableStream, text: string): Promise<void> {
  return new Promise((resolve) => {
    let seen = '';
    const listener = (chunk: Buffer) => {
      seen += chunk.toString();
      if (!seen.includes(text)) return;
      stream.removeListener('data', listener);
      resolve();
    };
    stream.on('data', listener);
  });
}

/** A script of test/fixtures/cli/, run by the project's Node: `[node, script, ...args]` for `run --`. */
export function fixtureCommand(script: string, ...args: string[]): string[] {
  return [process.execPath, join(ROOT, 'test', 'fixtures', 'cli', script), ...args];
}
