// The fingerprint of everything dist/ is built from: src/, the lockfile, package.json and the build
// settings. `npm run build` writes it into dist/; the end-to-end tests refuse to judge a dist/ whose
// fingerprint does not match the source they sit next to (a stale dist/ would pass or fail for the
// wrong reasons).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export const SOURCE_HASH_FILE = 'dist/source-hash.txt';

/** Files outside src/ that change what the build produces. */
export const BUILD_INPUTS = [
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'scripts/build.ts',
  'scripts/bundle.ts',
  'scripts/lazy-builtins.ts',
  'scripts/licenses.ts',
  'scripts/source-hash.ts',
  'scripts/strip-comments.ts',
];

export function sourceHash(root: string): string {
  // The CLI's sources are not in dist/ (scripts/build.ts builds it apart).
  const action = listFiles(root, 'src').filter((file) => !file.startsWith('src/cli/'));
  const files = [...action, ...BUILD_INPUTS].sort();
  const hash = createHash('sha256');
  for (const file of files) {
    // Line endings as git may check them out on Windows must not change the fingerprint.
    const text = readFileSync(join(root, file), 'utf8').replaceAll('\r\n', '\n');
    hash.update(`${file}\0${text}\0`);
  }
  return hash.digest('hex');
}

function listFiles(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).replaceAll('\\', '/'));
}
