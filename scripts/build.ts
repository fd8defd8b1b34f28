// `npm run build`: the two bundles from scratch, each cleaned first so that a chunk the bundler stops
// producing does not survive:
// - dist/, the action (committed: users run it): one bundle for both steps with an entry file per
//   step, the licenses of what is bundled, and the source fingerprint the end-to-end tests check;
// - cli/, the CLI (not committed: `npm pack` ships it; `prepack` builds it): its launcher, its bundle
//   and the licenses of what is bundled. The action's steps never load it.
// `node scripts/build.ts action` or `... cli` builds one of them. `npm run build -- sea` (or
// `node scripts/build.ts sea`) builds cli/ and, from it, the CLI as one executable for this machine
// (scripts/sea.ts): build/report-deployment-<os>-<arch> and its licenses beside it
// (build/report-deployment-licenses.txt), not committed, not part of the default build.
// `npm run bench -- --reaches` builds variants with the same functions, from a copy of src/ with one
// reach taken out.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { bundle } from './bundle.ts';
import { lazyBuiltins, type LazyBuiltins } from './lazy-builtins.ts';
import { buildSea, SEA_DIR, SEA_LICENSES, seaLicenses, seaName } from './sea.ts';
import { SOURCE_HASH_FILE, sourceHash } from './source-hash.ts';

const root = join(import.meta.dirname, '..');

export interface BuildOptions {
  /** The src/ folder to build from. */
  src: string;
  /** Where to write the bundle. */
  out: string;
  lazyBuiltins: LazyBuiltins;
  /** licenses.txt and ncc's build cache: the build's, not the benchmark's variants'. */
  shipped: boolean;
}

/** The action: one bundle for both steps, and an entry file per step that action.yml runs. */
export async function buildAction(options: BuildOptions): Promise<void> {
  const { src, out, shipped } = options;
  // One bundle for both steps, so that the chunks they share (undici's above all) are in dist/ once.
  await bundle({
    src,
    entry: join('action', 'index.ts'),
    out,
    lazyBuiltins: options.lazyBuiltins,
    licenses: shipped,
    cache: shipped,
  });
  // What action.yml runs: each step requires the shared bundle and runs its export.
  for (const step of ['main', 'post']) {
    mkdirSync(join(out, step));
    writeFileSync(
      join(out, step, 'index.js'),
      `// The ${step} step (action.yml runs.${step}): written by scripts/build.ts around the shared bundle.\n` +
        `void require('../index.js').${step}();\n`,
    );
  }
}

/** The CLI: its bundle and its launcher (which reads the version from `out`/../package.json). */
export async function buildCli(options: BuildOptions): Promise<void> {
  const { src, out, shipped } = options;
  await bundle({
    src,
    entry: join('cli', 'index.ts'),
    out,
    lazyBuiltins: options.lazyBuiltins,
    licenses: shipped,
    cache: shipped,
  });
  copyFileSync(join(src, 'cli', 'bin.cjs'), join(out, 'report-deployment.cjs'));
}

if (import.meta.main) {
  const only = process.argv[2];
  if (only !== undefined && !['action', 'cli', 'sea'].includes(only)) {
    throw new Error(`usage: node scripts/build.ts [action | cli | sea], not ${only}`);
  }
  const src = join(root, 'src');
  if (only === undefined || only === 'action') {
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
    await buildAction({ src, out: join(root, 'dist'), lazyBuiltins: lazyBuiltins(true), shipped: true });
    writeFileSync(join(root, SOURCE_HASH_FILE), `${sourceHash(root)}\n`);
  }
  if (only !== 'action') {
    await buildCli({ src, out: join(root, 'cli'), lazyBuiltins: lazyBuiltins(false), shipped: true });
  }
  if (only === 'sea') {
    const out = join(SEA_DIR, seaName());
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    buildSea({ cliDir: join(root, 'cli'), version, out });
    // What a release ships beside the executables: Node's license and ours.
    writeFileSync(join(SEA_DIR, SEA_LICENSES), seaLicenses(join(root, 'cli')));
    console.error(`Built ${relative(root, out)} and ${relative(root, join(SEA_DIR, SEA_LICENSES))}`);
  }
}
