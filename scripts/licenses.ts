// dist/licenses.txt: the license of every production dependency bundled into dist/. ncc's own
// --license loses packages once a bundle is split into lazily loaded chunks, so it is written here
// from npm's production tree instead (sorted, so the build stays reproducible).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface PackageNode {
  name: string;
  version: string;
  license?: string;
  location: string;
  path: string;
}

const root = join(import.meta.dirname, '..');
const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
const query = execFileSync(npm[0] as string, [...npm.slice(1), 'query', '.prod'], { cwd: root, encoding: 'utf8' });
const packages = (JSON.parse(query) as PackageNode[])
  .filter((pkg) => pkg.location.includes('node_modules'))
  .sort((a, b) => a.location.localeCompare(b.location));

const sections = packages.map((pkg) => {
  const file = readdirSync(pkg.path).find((name) => /^(license|licence|copying)(\.md|\.txt)?$/i.test(name));
  const text = file
    ? readFileSync(join(pkg.path, file), 'utf8').trim()
    : `(no license file; package.json: ${pkg.license})`;
  return `${pkg.name}@${pkg.version} (${pkg.location})\n${pkg.license ?? ''}\n\n${text}`;
});
writeFileSync(join(root, 'dist', 'licenses.txt'), `${sections.join('\n\n----------\n\n')}\n`);
console.log(`dist/licenses.txt: ${sections.length} packages`);
