// `npm run bench -- --parts [--compare REF]`: where a step's start-up goes, in-process milliseconds
// measured inside fresh Node 24 processes (medians of BENCH_RUNS rounds, default 15, every
// measurement once per round in turn).
//
// - load + compile: built files read and compiled as what they are (ES modules or CommonJS), not
//   evaluated: the main step's entry (dist/main/index.js and the files it imports statically),
//   and the chunks a main step that creates a deployment imports on the way to its request (found
//   by running one with a module hook that names every file loaded).
// - evaluation: each dependency bundled alone by ncc (CommonJS, so that compile and evaluation can
//   be timed apart) from a one-line probe, once as the published package is imported (no aliases)
//   and once as src/ uses it now (src/tsconfig.json's aliases, src/github-context.ts,
//   src/undici.ts). Each probe process first writes to its piped stdout, then requires node:crypto
//   and node:http2, and reports these on rows of their own (both steps pay them whatever is
//   bundled: core requires crypto, undici requires http2, and http2 shares crypto), so the
//   evaluation rows exclude them.
// With --compare REF, the load + compile rows are measured on REF's committed dist/ too.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { bundleProbe, SCRATCH } from './probe-bundle.ts';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(import.meta.dirname, '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const compareIndex = process.argv.indexOf('--compare');
const compareRef = compareIndex > 0 ? process.argv[compareIndex + 1] : undefined;

// What the action uses of @actions/core, so that the bundler keeps the same code as in dist/.
const CORE_PROBE = `import * as core from '@actions/core'; (globalThis as { probe?: unknown }).probe = [
  core.getInput, core.getState, core.saveState, core.setOutput, core.setSecret, core.setFailed,
  core.info, core.warning, core.debug, core.summary];`;

interface Probe {
  part: string;
  shipped: boolean;
  code: string;
}
const PROBES: Probe[] = [
  {
    part: '@actions/core',
    shipped: false,
    code: CORE_PROBE,
  },
  {
    part: '@actions/core',
    shipped: true,
    code: CORE_PROBE,
  },
  {
    part: 'GitHub context',
    shipped: false,
    code: `import { context } from '@actions/github'; (globalThis as { probe?: unknown }).probe = context.eventName;`,
  },
  {
    part: 'GitHub context',
    shipped: true,
    code: `import { Context } from '${root}/src/github-context.js'; (globalThis as { probe?: unknown }).probe = new Context().eventName;`,
  },
  {
    part: 'undici',
    shipped: false,
    code: `import { EnvHttpProxyAgent, request } from 'undici'; (globalThis as { probe?: unknown }).probe = [new EnvHttpProxyAgent(), request];`,
  },
  {
    part: 'undici',
    shipped: true,
    code: `import { createAgent, request } from '${root}/src/undici.js'; (globalThis as { probe?: unknown }).probe = [createAgent({ timeoutMs: 10_000 }), request];`,
  },
];

/**
 * Runs in a fresh process (stdout a pipe, as on the runner): the first write to stdout, node:crypto,
 * node:http2 (without the crypto it shares), then the probe bundle read, compiled and evaluated.
 */
const MEASURE_PROBE = `
const { readFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const vm = require('node:vm');
(async () => {
  const file = process.argv[2];
  let t = performance.now();
  process.stdout.write('\\n');
  const stdout = performance.now() - t;
  t = performance.now();
  require('node:crypto');
  const crypto = performance.now() - t;
  t = performance.now();
  require('node:http2');
  const http2 = performance.now() - t;
  t = performance.now();
  const fn = vm.compileFunction(readFileSync(file, 'utf8'), ['exports', 'require', 'module', '__filename', '__dirname'], { filename: file });
  const compiled = performance.now();
  const module = { exports: {} };
  fn(module.exports, createRequire(file), module, file, require('node:path').dirname(file));
  await module.exports;
  await globalThis.probe;
  const done = performance.now();
  process.stdout.write(JSON.stringify({ stdout, crypto, http2, compile: compiled - t, evaluate: done - compiled }));
})();
`;

/**
 * Runs in a fresh process: the files read and compiled, not evaluated; as ES modules or as CommonJS
 * (the wrapper Node's require() compiles with), as the dist/package.json beside them says.
 */
const MEASURE_COMPILE = `
const { readFileSync } = require('node:fs');
const vm = require('node:vm');
const [kind, ...files] = process.argv.slice(2);
const t = performance.now();
for (const file of files) {
  const source = readFileSync(file, 'utf8');
  if (kind === 'module') new vm.SourceTextModule(source, { identifier: file });
  else vm.compileFunction(source, ['exports', 'require', 'module', '__filename', '__dirname'], { filename: file });
}
console.log(JSON.stringify({ compile: performance.now() - t }));
`;

const work = mkdtempSync(join(tmpdir(), 'report-deployment-parts-'));
// Run from files, not with -e: `node -e` loads node:crypto before the script runs.
const measureProbe = join(work, 'measure-probe.cjs');
const measureCompile = join(work, 'measure-compile.cjs');
writeFileSync(measureProbe, MEASURE_PROBE);
writeFileSync(measureCompile, MEASURE_COMPILE);
// REF's checkout: under the project, so that node_modules resolves from it.
const scratch = join(SCRATCH, 'compare');
try {
  // The probes, bundled as the build does (from src/ for its aliases, or from the root without).
  const bundles: { probe: Probe; file: string }[] = [];
  for (const [index, probe] of PROBES.entries()) {
    bundles.push({ probe, file: await bundleProbe(probe.code, join(work, String(index)), { aliases: probe.shipped }) });
  }

  // The built files a main step that creates a deployment loads: found by running one (with a
  // module hook that names each file loaded), split into its entry (dist/main/index.js and what it
  // imports statically) and the chunks it imports on the way to its request.
  const dists = [{ label: 'now', root }];
  if (compareRef) dists.unshift({ label: compareRef, root: checkout(compareRef) });
  const compileSets: { label: string; part: 'entry' | 'chunks'; kind: string; files: string[] }[] = [];
  for (const { label, root: dir } of dists) {
    const loaded = await filesLoadedByMain(dir);
    const entry = staticClosure(join(dir, 'dist', 'main', 'index.js'));
    const kind = moduleKind(entry[0] as string);
    compileSets.push({ label, part: 'entry', kind, files: entry });
    compileSets.push({ label, part: 'chunks', kind, files: loaded.filter((file) => !entry.includes(file)) });
  }

  const samples = new Map<string, number[]>();
  const add = (key: string, value: number) => samples.set(key, [...(samples.get(key) ?? []), value]);
  for (let round = 0; round < RUNS; round++) {
    for (const { probe, file } of bundles) {
      const result = node([measureProbe, file]) as Record<'stdout' | 'crypto' | 'http2' | 'evaluate', number>;
      add(`${probe.part}|${probe.shipped}`, result.evaluate);
      for (const builtin of ['stdout', 'crypto', 'http2'] as const) add(builtin, result[builtin]);
    }
    for (const set of compileSets) {
      add(
        `${set.label}|${set.part}`,
        (node(['--experimental-vm-modules', measureCompile, set.kind, ...set.files]) as { compile: number }).compile,
      );
    }
  }

  const ms = (key: string) => {
    const values = samples.get(key);
    return values ? `${median(values).toFixed(1)}` : '–';
  };
  const size = (files: string[]) =>
    `${(files.reduce((sum, file) => sum + statSync(file).size, 0) / 1024).toFixed(0)} KB`;
  const before = compareRef ?? 'before';
  console.log(`node ${process.version}, in-process ms, medians of ${RUNS} fresh processes per row:\n`);
  console.log(`| part | ${before} | now |`);
  console.log('|---|---|---|');
  for (const part of ['entry', 'chunks']) {
    const now = compileSets.find((set) => set.label === 'now' && set.part === part);
    const then = compileSets.find((set) => set.label === compareRef && set.part === part);
    const name =
      part === 'entry'
        ? "load + compile of the main step's entry"
        : 'load + compile of the chunks it imports to send (undici, http, Context)';
    console.log(
      `| ${name} | ${then ? `${ms(`${compareRef}|${part}`)} (${size(then.files)})` : '–'} | ${ms(`now|${part}`)} (${size(now?.files ?? [])}) |`,
    );
  }
  console.log(
    `| \`@actions/core\` evaluation (crypto excluded) | ${ms('@actions/core|false')} | ${ms('@actions/core|true')} |`,
  );
  console.log(
    `| GitHub context: \`@actions/github\` index → its \`Context\` alone | ${ms('GitHub context|false')} | ${ms('GitHub context|true')} |`,
  );
  console.log(
    `| undici evaluation (http2 excluded): index + \`EnvHttpProxyAgent\` → Agent + request API | ${ms('undici|false')} | ${ms('undici|true')} |`,
  );
  console.log(
    `| \`node:http2\` with \`tls\` (undici's client requires it at load; crypto excluded) | ${ms('http2')} | not loaded: a stand-in answers its constants (\`tls\` only for https) |`,
  );
  console.log(
    `| \`node:crypto\` (required by \`@actions/core\` and http2's tls at load) | ${ms('crypto')} | on first use only: https, or core's first file command (${ms('crypto')}) |`,
  );
  console.log(`| first write to a piped stdout (\`net\`, streams) | ${ms('stdout')} | ${ms('stdout')} |`);
} finally {
  rmSync(work, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
}

function node(args: string[]): unknown {
  const result = spawnSync(process.execPath, args, { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
  if (result.status !== 0) throw new Error(`${args.join(' ').slice(0, 200)}: ${result.stderr}`);
  return JSON.parse(result.stdout.trim());
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** 'module' or 'commonjs': the `type` of the package.json nearest a built file, as Node decides. */
function moduleKind(file: string): string {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest))
      return (JSON.parse(readFileSync(manifest, 'utf8')) as { type?: string }).type ?? 'commonjs';
  }
  return 'commonjs';
}

/** A built file and the relative files it imports (or requires at its top level), transitively. */
function staticClosure(file: string, seen = new Set<string>()): string[] {
  if (seen.has(file)) return [];
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(/^(?:import [^;]*? from |.*?require\()['"](\.[^'"]+\.js)['"]/gm)) {
    staticClosure(resolve(dirname(file), match[1] as string), seen);
  }
  return [...seen];
}

/** REF's action.yml and dist/, checked out under the project (so that node_modules resolves). */
function checkout(ref: string): string {
  const dir = scratch;
  mkdirSync(dir, { recursive: true });
  const archive = execFileSync('git', ['archive', ref, 'dist', 'action.yml'], { cwd: root, maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  return dir;
}

/**
 * The files under dist/ that a main step creating one deployment loads, in load order: `dir`'s
 * dist/main/index.js run in the environment the runner gives (test/run-action.ts's prepareStep),
 * with a module hook that names every file loaded.
 */
async function filesLoadedByMain(dir: string): Promise<string[]> {
  const { prepareStep } = await import('../test/run-action.ts');
  const { startFakeService } = await import('../test/fake-service.ts');
  const service = await startFakeService();
  const step = prepareStep(
    'main',
    { inputs: { 'api-key': service.apiKey, 'base-url': service.url, 'artifact-id': '42' } },
    {},
  );
  const hook = `import { registerHooks } from 'node:module';
registerHooks({ load(url, context, next) { if (url.startsWith('file:')) process.stderr.write('LOADED ' + url + '\\n'); return next(url, context); } });`;
  try {
    const env = {
      ...step.env,
      NODE_OPTIONS: `--import=data:text/javascript;base64,${Buffer.from(hook).toString('base64')}`,
    };
    // Not spawnSync: the fake service answers from this process's event loop.
    const child = spawn(process.execPath, [join(dir, 'dist', 'main', 'index.js')], { cwd: step.dir, env });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const status = await new Promise<number | null>((done) => child.on('close', done));
    if (status !== 0 || service.requests.length !== 1) throw new Error(`main step failed: ${stderr}`);
    return [...stderr.matchAll(/^LOADED (.+)$/gm)].map((match) => fileURLToPath(match[1] as string));
  } finally {
    step.remove();
    await service.close();
  }
}
