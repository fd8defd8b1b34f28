// Runs the CLI as users get it, as a user would, with real child processes and real signals. Two
// subjects, the same tests (vitest.config.ts runs the CLI's end-to-end files once for each):
// - npm: the tarball packed from this checkout (its `prepack` builds the bundle), installed alone and
//   offline into an empty folder, its bin run by Node;
// - sea: the single executable (scripts/sea.ts) built from that very package's bundle, alone in an
//   empty folder, with no `node` on the PATH it sees.
// Both are kept under node_modules/.cache, one per fingerprint of what they are built from, so that
// the test files (and their workers) share them: the first worker to need one makes it (a lock
// folder says so), the others wait for it.
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
  statSync,
  writeFileSync,
} from 'node:fs';
import { constants } from 'node:os';
import { join, relative } from 'node:path';
import { inject } from 'vitest';
import { BUILD_INPUTS } from '../../scripts/source-hash.ts';
import { buildSea, pathWithoutNode, projectNode, seaName } from '../../scripts/sea.ts';
import { readRunnerOutput, type RunnerCommand } from './runner-commands.ts';
import { ROOT } from './run-action.ts';

const CACHE = join(ROOT, 'node_modules', '.cache', 'report-deployment-cli');
const SEA_CACHE = join(ROOT, 'node_modules', '.cache', 'report-deployment-sea');
const NPM_CLI = process.env.npm_execpath;

/** What the CLI's end-to-end tests run: the npm package, or the single executable. */
export type CliSubject = 'npm' | 'sea';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set per vitest project (vitest.config.ts). */
    cliSubject: CliSubject;
  }
}

/** This run's subject: the vitest project's; outside a test (`npm start` runs the CLI too), npm's. */
export function cliSubject(): CliSubject {
  try {
    return inject('cliSubject') ?? 'npm';
  } catch {
    return 'npm';
  }
}

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
 * The packed CLI, installed offline into an empty folder, once for these sources; where this run's
 * subject is the executable, that too, built from the installed package's bundle. Call it from
 * `beforeAll` with a generous timeout (INSTALL_TIMEOUT_MS): packing builds the bundle.
 */
export function installedCli(): InstalledCli {
  if (cliSubject() === 'sea') installedSea();
  return installedPackage();
}

function installedPackage(): InstalledCli {
  if (installed) return installed;
  const dir = join(CACHE, packageFingerprint());
  once(dir, () => install(dir));
  const tarball = readdirSync(join(dir, 'pack')).find((name) => name.endsWith('.tgz')) as string;
  installed = {
    dir: join(dir, 'app'),
    bin: join(dir, 'app', 'node_modules', '.bin', 'report-deployment'),
    tarballBytes: readFileSync(join(dir, 'pack', tarball)).length,
  };
  return installed;
}

export const INSTALL_TIMEOUT_MS = 300_000;

/** The executable: alone in its folder, and the PATH it runs with (the tests' own, less any `node`). */
export interface InstalledSea {
  dir: string;
  bin: string;
  path: string;
}

let sea: InstalledSea | undefined;

/** The single executable for this machine, built once from the installed package's bundle. */
export function installedSea(): InstalledSea {
  if (sea) return sea;
  const cli = installedPackage();
  // The package, how it is made one file, and the Node it is made of.
  const fingerprint = createHash('sha256')
    .update(`${packageFingerprint()}\0${readFileSync(join(ROOT, 'scripts', 'sea.ts'), 'utf8')}\0`)
    .update(readFileSync(join(projectNode(), '..', '..', 'package.json')))
    .digest('hex')
    .slice(0, 16);
  const dir = join(SEA_CACHE, fingerprint);
  once(dir, () => {
    mkdirSync(SEA_CACHE, { recursive: true });
    const work = mkdtempSync(join(SEA_CACHE, 'building-'));
    const pkg = join(cli.dir, 'node_modules', 'report-deployment');
    const { version } = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { version: string };
    buildSea({ cliDir: join(pkg, 'cli'), version, out: join(work, 'bin', seaName()) });
    writeFileSync(join(work, 'done'), '');
    renameSync(work, dir);
    removeOtherSeas(fingerprint);
  });
  sea = {
    dir: join(dir, 'bin'),
    bin: join(dir, 'bin', seaName()),
    path: pathWithoutNode(process.env.PATH ?? '', join(SEA_CACHE, 'path-without-node')),
  };
  return sea;
}

/** Executables of sources gone by (about 130 MB each), left by runs of an hour ago or more. */
function removeOtherSeas(current: string): void {
  for (const name of readdirSync(SEA_CACHE)) {
    const dir = join(SEA_CACHE, name);
    if (name === current || name.endsWith('.lock')) continue;
    if (Date.now() - statSync(dir).mtimeMs > 3_600_000) rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Makes `dir` once: the first worker to ask takes a lock folder and runs `make` (which renames its
 * work into `dir`, with a file `done` in it), the others wait for it, within the bound.
 */
function once(dir: string, make: () => void): void {
  if (existsSync(join(dir, 'done'))) return;
  mkdirSync(join(dir, '..'), { recursive: true });
  const lock = `${dir}.lock`;
  let mine = false;
  try {
    mkdirSync(lock);
    mine = true;
  } catch {
    // Another worker is making it: wait for it, within the bound.
  }
  if (mine) {
    try {
      if (!existsSync(join(dir, 'done'))) make();
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
    return;
  }
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let waited = 0; !existsSync(join(dir, 'done')); waited += 200) {
    if (waited > INSTALL_TIMEOUT_MS) throw new Error(`Gave up waiting for ${lock}: remove it if no test runs`);
    if (!existsSync(lock)) return once(dir, make);
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
  /** Its exit status as a shell's `$?` shows it: 128+N where it died of signal N. */
  exitCode: number | null;
  /** The signal it died of (a run ends by its command's stop signal), or null where it exited. */
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
  /** Which Node runs it (default: the shebang's, the project's 24 first on PATH); npm subject only. */
  node?: keyof typeof NODES;
  /** Which subject to run, whatever this run's (tests of one of them). */
  subject?: CliSubject;
  /** Kill it after this long: tests pass a bound it must keep. */
  killAfterMs?: number;
  /** Called once it runs, to signal it, write to it, wait on it. */
  onSpawn?: (child: ChildProcess) => void;
  stdin?: string;
  /** A file descriptor to give the CLI as its stdout or stderr instead of a pipe the test reads. */
  stdout?: number;
  stderr?: number;
  /** Run it in a process group (and session) of its own, which a test may signal whole. */
  detached?: boolean;
  /** A command line that runs the CLI's, e.g. `['timeout', '5']` or `['sh', '-c', 'exec "$@" 2>&-', 'sh']`. */
  through?: string[];
}

/** Runs this run's subject with `args`, as a user would: the installed bin, or the executable. */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const subject = options.subject ?? cliSubject();
  const { bin, dir, path } = subject === 'sea' ? installedSea() : { ...installedPackage(), path: process.env.PATH };
  const env = { PATH: path ?? '', HOME: process.env.HOME ?? dir, ...options.env };
  if (options.node && subject === 'sea') throw new Error('runCli: the executable has its own Node');
  // Windows starts a package's bin through a .cmd shim, which only a shell runs: there, Node runs its script.
  const script = join(dir, 'node_modules', 'report-deployment', 'cli', 'report-deployment.cjs');
  const cli = options.node
    ? [NODES[options.node], bin, ...args]
    : process.platform === 'win32' && subject === 'npm'
      ? [process.execPath, script, ...args]
      : [bin, ...args];
  const [file = '', ...argv] = [...(options.through ?? []), ...cli];
  return new Promise((resolve, reject) => {
    const child = spawn(file, argv, {
      cwd: options.cwd ?? dir,
      env,
      stdio: ['pipe', options.stdout ?? 'pipe', options.stderr ?? 'pipe'],
      detached: options.detached,
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('latin1')));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin?.end(options.stdin ?? '');
    // Detached, its whole group goes: the command it runs too.
    const kill = () => {
      try {
        if (options.detached && child.pid) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // Gone already.
      }
    };
    const timer = setTimeout(kill, options.killAfterMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      const messages = stderr
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => line.replace(/^report-deployment: /, ''));
      const commands = [...readRunnerOutput(stdout).commands, ...readRunnerOutput(stderr).commands];
      const status = signal ? 128 + constants.signals[signal] : exitCode;
      resolve({ exitCode: status, signal, stdout, stderr, messages, commands });
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
