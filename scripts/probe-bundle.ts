// For the benchmarks: a few lines of TypeScript bundled by ncc as the build bundles src/ (CommonJS;
// with src/tsconfig.json's aliases, or as the published packages are imported), into a folder of its
// own with a package.json that says commonjs.
import { createRequire } from 'node:module';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { lazyBuiltinExternals, lazyBuiltinFiles } from './lazy-builtins.ts';

const root = join(import.meta.dirname, '..');
// Probe sources live under the project, so that node_modules resolves from them, and outside src/,
// so that the source fingerprint is untouched.
export const SCRATCH = join(root, 'node_modules', '.cache', 'report-deployment-bench');

type Ncc = (
  entry: string,
  options: Record<string, unknown>,
) => Promise<{ code: string; assets: Record<string, { source: string | Buffer }> }>;
const ncc = createRequire(import.meta.url)('@vercel/ncc') as Ncc;

/** Bundles `code` (which may import src/ modules by absolute path) into `out`; returns out/index.js. */
export async function bundleProbe(code: string, out: string, options: { aliases: boolean }): Promise<string> {
  const dir = join(SCRATCH, `probe-${Math.random().toString(36).slice(2)}`);
  mkdirSync(dir, { recursive: true });
  const cwd = process.cwd();
  try {
    writeFileSync(join(dir, 'probe.ts'), `${code}\n`);
    // ncc compiles TypeScript with the tsconfig.json nearest the entry: the one src/ is built with.
    writeFileSync(
      join(dir, 'tsconfig.json'),
      `${JSON.stringify({ extends: relative(dir, join(root, 'src', 'tsconfig.json')) })}\n`,
    );
    // ncc takes its `paths` aliases from the tsconfig.json of the folder it runs in.
    process.chdir(options.aliases ? join(root, 'src') : root);
    const { code: bundle, assets } = await ncc(join(dir, 'probe.ts'), {
      esm: false,
      target: 'es2024',
      sourceMapRegister: false,
      quiet: true,
      ...(options.aliases ? { externals: lazyBuiltinExternals() } : {}),
    });
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'index.js'), bundle);
    writeFileSync(join(out, 'package.json'), '{ "type": "commonjs" }\n');
    for (const [name, asset] of Object.entries(assets)) writeFileSync(join(out, name), asset.source);
    if (options.aliases)
      for (const [file, text] of Object.entries(lazyBuiltinFiles())) writeFileSync(join(out, file), text);
    return join(out, 'index.js');
  } finally {
    process.chdir(cwd);
    rmSync(dir, { recursive: true, force: true });
  }
}
