// `npm run build`: the two bundles from scratch, each cleaned first so that a chunk the bundler stops
// producing does not survive:
// - dist/, the action (committed: users run it): one bundle for both steps with an entry file per
//   step, the licenses of what is bundled, and the source fingerprint the end-to-end tests check;
// - cli/, the CLI (not committed: `npm pack` ships it; `prepack` builds it): its launcher, its bundle
//   and the licenses of what is bundled. The action's steps never load it.
// `node scripts/build.ts action` or `... cli` builds one of them.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { lazyBuiltinExternals, lazyBuiltinFiles } from './lazy-builtins.ts';
import { SOURCE_HASH_FILE, sourceHash } from './source-hash.ts';
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

/**
 * One CommonJS bundle of `entry` into `out`, with its chunks, the lazy builtins' stand-ins and the
 * licenses of what it holds. CommonJS, which only ncc's API (not its CLI) makes for a "type":
 * "module" package: it starts measurably faster than ES modules, and chunks load with a synchronous
 * require(). Built from src/: ncc takes its `paths` aliases (the reach in src/deps/actions-core.ts)
 * from the tsconfig.json of the folder it runs in, not from the one nearest the entry.
 */
async function bundle(entry: string, out: string, forAction: boolean): Promise<void> {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out);
  process.chdir(join(root, 'src'));
  const { code, assets, stats } = await ncc(join(root, 'src', entry), {
    esm: false,
    target: 'es2024',
    sourceMapRegister: false,
    quiet: true,
    // Builtins required at load that a run may never use: see src/deps/.
    externals: lazyBuiltinExternals(forAction),
  });
  process.chdir(root);
  // Without the bundled packages' comments (scripts/strip-comments.ts): a sixth of the bundle.
  writeFileSync(join(out, 'index.js'), stripComments(code));
  for (const [name, asset] of Object.entries(assets)) {
    writeFileSync(join(out, name), name.endsWith('.js') ? stripComments(String(asset.source)) : asset.source);
  }
  writeFileSync(join(out, 'package.json'), '{\n  "type": "commonjs"\n}\n');
  for (const [file, text] of Object.entries(lazyBuiltinFiles(forAction))) writeFileSync(join(out, file), text);
  const statsFile = join(mkdtempSync(join(tmpdir(), 'report-deployment-build-')), 'stats.json');
  writeFileSync(statsFile, JSON.stringify(stats.toJson()));
  execFileSync(process.execPath, [join(root, 'scripts', 'licenses.ts'), statsFile, join(out, 'licenses.txt')], {
    cwd: root,
    stdio: 'inherit',
  });
  rmSync(dirname(statsFile), { recursive: true, force: true });
}

async function buildAction(): Promise<void> {
  // The stand-ins in src/deps/actions-core.ts load the real package by file from the top-level
  // node_modules/: that must be the copy @actions/core itself resolves, not one a lockfile change
  // moved under core.
  for (const pkg of ['@actions/http-client', '@actions/exec']) {
    if (existsSync(join(root, 'node_modules', '@actions', 'core', 'node_modules', pkg))) {
      throw new Error(
        `@actions/core has its own ${pkg}: point src/deps/actions-core.ts at node_modules/@actions/core/node_modules/${pkg}`,
      );
    }
  }
  const dist = join(root, 'dist');
  // One bundle for both steps, so that the chunks they share (undici's above all) are in dist/ once.
  await bundle(join('action', 'index.ts'), dist, true);
  // What action.yml runs: each step requires the shared bundle and runs its export.
  for (const step of ['main', 'post']) {
    mkdirSync(join(dist, step));
    writeFileSync(
      join(dist, step, 'index.js'),
      `// The ${step} step (action.yml runs.${step}): written by scripts/build.ts around the shared bundle.\n` +
        `void require('../index.js').${step}();\n`,
    );
  }
  writeFileSync(join(root, SOURCE_HASH_FILE), `${sourceHash(root)}\n`);
}

async function buildCli(): Promise<void> {
  const out = join(root, 'cli');
  await bundle(join('cli', 'index.ts'), out, false);
  copyFileSync(join(root, 'src', 'cli', 'bin.cjs'), join(out, 'report-deployment.cjs'));
}

const only = process.argv[2];
if (only !== 'cli') await buildAction();
if (only !== 'action') await buildCli();
