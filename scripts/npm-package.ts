// The npm package is packed from a folder of its own, npm/package/, which this script writes: npm
// always packs the README of the folder it packs, and the page npm shows for `report-deployment` is
// the command line's (npm/README.md), not the action's (README.md, which GitHub shows). Nothing in
// the working tree is swapped: the folder is generated, and the root is never packed.
//
//   npm run package                                          build the CLI, write npm/package/
//   npm pack ./npm/package [--pack-destination DIR] [--json]  npm's own pack of that folder
//
// The folder holds what the root's tarball held, in the same places (cli/, LICENSE, package.json)
// and the CLI's README. Its package.json is the root's without what only developers use (scripts,
// devDependencies), so that npm runs no script when it packs it: `npm pack --json` prints JSON alone.
// The root's `prepack` refuses, with a pointer here, so that a root tarball (the action's README)
// is never what gets published. Messages go to stderr.
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');

/** The folder npm packs, relative to the root. */
export const PACKAGE_DIR = 'npm/package';
/** The npm package's README: the command line's page on npm. */
export const NPM_README = 'npm/README.md';

/** The root's package.json fields the published manifest leaves out: they serve development only. */
const DEVELOPMENT_ONLY = ['scripts', 'devDependencies', 'allowScripts'];

/** The published package.json: the root's, without its development-only fields. */
export function publishedManifest(rootManifest: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(rootManifest).filter(([key]) => !DEVELOPMENT_ONLY.includes(key)));
}

/** Writes the package folder from the built cli/ (which must exist): manifest, README, LICENSE, cli/. */
export function assemblePackage(root: string, out = join(root, PACKAGE_DIR)): string {
  if (!existsSync(join(root, 'cli', 'report-deployment.cjs'))) {
    throw new Error('cli/ is not built: run `npm run package` (it builds the CLI first)');
  }
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'package.json'), `${JSON.stringify(publishedManifest(manifest), null, 2)}\n`);
  copyFileSync(join(root, NPM_README), join(out, 'README.md'));
  copyFileSync(join(root, 'LICENSE'), join(out, 'LICENSE'));
  cpSync(join(root, 'cli'), join(out, 'cli'), { recursive: true });
  return out;
}

if (import.meta.main) {
  if (process.argv[2] === '--refuse-root') {
    console.error(
      "report-deployment: the npm package is not packed from the root (its README is the action's).\n" +
        'Run `npm run package`, then `npm pack ./npm/package` (scripts/npm-package.ts says why).',
    );
    process.exit(1);
  }
  // The CLI's build as `npm run build` makes it; its progress lines go to stderr with ours.
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.ts'), 'cli'], { stdio: ['ignore', 2, 2] });
  const out = assemblePackage(ROOT);
  console.error(`${PACKAGE_DIR}/ written: pack it with \`npm pack ./${PACKAGE_DIR}\` (${out}).`);
}
