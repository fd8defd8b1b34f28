// `npm run build`: dist/ from scratch. Cleaned first, so that a chunk the bundler stops producing does
// not survive; then one bundle per step, the licenses of what is bundled, and the source fingerprint
// the end-to-end tests check.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SOURCE_HASH_FILE, sourceHash } from './source-hash.ts';

const root = join(import.meta.dirname, '..');
const ncc = createRequire(import.meta.url).resolve('@vercel/ncc/dist/ncc/cli.js');

rmSync(join(root, 'dist'), { recursive: true, force: true });
for (const step of ['main', 'post']) {
  execFileSync(
    process.execPath,
    [
      ncc,
      'build',
      `src/entries/${step}.ts`,
      '-o',
      `dist/${step}`,
      '--target',
      'es2024',
      '--no-source-map-register',
      '-q',
    ],
    { cwd: root, stdio: 'inherit' },
  );
}
execFileSync(process.execPath, [join(root, 'scripts', 'licenses.ts')], { cwd: root, stdio: 'inherit' });
writeFileSync(join(root, SOURCE_HASH_FILE), `${sourceHash(root)}\n`);
