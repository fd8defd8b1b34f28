// One CommonJS bundle of an entry under a src/ folder: what `npm run build` makes of src/ (dist/ and
// cli/), and what `npm run bench -- --reaches` makes of a copy of src/ with one reach taken out.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { lazyBuiltinExternals, lazyBuiltinFiles, type LazyBuiltins } from './lazy-builtins.ts';
import { stripComments } from './strip-comments.ts';

const root = join(import.meta.dirname, '..');

type Ncc = (
  entry: string,
  options: Record<string, unknown>,
) => Promise<{
  code: string;
  assets: Record<string, { source: string | Buffer }>;
  stats: { toJson(): unknown };
}>;
const ncc = createRequire(import.meta.url)('@vercel/ncc') as Ncc;

export interface BundleOptions {
  /** The src/ folder to build from: its tsconfig.json is what ncc compiles with, `paths` included. */
  src: string;
  /** The entry, relative to `src`. */
  entry: string;
  /** The folder to write (emptied first). */
  out: string;
  /** Builtins behind a stand-in loaded on first use (scripts/lazy-builtins.ts). */
  lazyBuiltins: LazyBuiltins;
  /** Write licenses.txt (the build does; the benchmark's variants need not). */
  licenses: boolean;
  /** ncc's build cache: off for the benchmark's variants, whose aliases differ from the build's. */
  cache?: boolean;
}

/**
 * One CommonJS bundle of `entry` into `out`, with its chunks, the lazy builtins' stand-ins and the
 * licenses of what it holds. CommonJS, which only ncc's API (not its CLI) makes for a "type":
 * "module" package: it starts measurably faster than ES modules, and chunks load with a synchronous
 * require(). ncc takes its `paths` aliases (the reach in src/deps/actions-core.ts) from the
 * tsconfig.json of the folder it runs in, not from the one nearest the entry: it runs in `src`.
 */
export async function bundle(options: BundleOptions): Promise<void> {
  const { src, entry, out, lazyBuiltins, licenses, cache = true } = options;
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const cwd = process.cwd();
  process.chdir(src);
  let result: Awaited<ReturnType<Ncc>>;
  try {
    result = await ncc(join(src, entry), {
      esm: false,
      target: 'es2024',
      sourceMapRegister: false,
      quiet: true,
      ...(cache ? {} : { cache: false }),
      // Builtins required at load that a run may never use: see src/deps/.
      externals: lazyBuiltinExternals(lazyBuiltins),
    });
  } finally {
    process.chdir(cwd);
  }
  const { code, assets, stats } = result;
  // Without the bundled packages' comments (scripts/strip-comments.ts): a sixth of the bundle.
  writeFileSync(join(out, 'index.js'), stripComments(code));
  for (const [name, asset] of Object.entries(assets)) {
    writeFileSync(join(out, name), name.endsWith('.js') ? stripComments(String(asset.source)) : asset.source);
  }
  writeFileSync(join(out, 'package.json'), '{\n  "type": "commonjs"\n}\n');
  for (const [file, text] of Object.entries(lazyBuiltinFiles(lazyBuiltins))) writeFileSync(join(out, file), text);
  if (!licenses) return;
  const statsFile = join(mkdtempSync(join(tmpdir(), 'report-deployment-build-')), 'stats.json');
  writeFileSync(statsFile, JSON.stringify(stats.toJson()));
  execFileSync(process.execPath, [join(root, 'scripts', 'licenses.ts'), statsFile, join(out, 'licenses.txt')], {
    cwd: root,
    stdio: 'inherit',
  });
  rmSync(dirname(statsFile), { recursive: true, force: true });
}
