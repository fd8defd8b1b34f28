// licenses.txt: the license of every package bundled into a bundle (dist/, or the CLI's). ncc's own
// --license loses packages once a bundle is split into lazily loaded chunks, so it is written here
// from npm's installed tree instead (sorted, so the build stays reproducible), keeping the packages
// that a module in the bundle comes from: `node scripts/licenses.ts STATS OUT` with ncc's stats.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

interface PackageNode {
  name: string;
  version: string;
  license?: string;
  location: string;
  path: string;
}

const root = join(import.meta.dirname, '..');
const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
// Every installed package: what is bundled is a devDependency (the published package has no runtime
// dependencies), and the stats say which of them are in the bundle.
const query = execFileSync(npm[0] as string, [...npm.slice(1), 'query', '*'], {
  cwd: root,
  encoding: 'utf8',
  maxBuffer: 256 * 1024 * 1024,
});
const installed = (JSON.parse(query) as PackageNode[]).filter((pkg) => pkg.location.includes('node_modules'));

interface StatsModule {
  name: string;
  chunks?: unknown[];
  modules?: StatsModule[];
}
/** Absolute paths of the modules in the bundle's chunks (and of those concatenated into them). */
function bundledFiles(statsFile: string): string[] {
  const stats = JSON.parse(readFileSync(statsFile, 'utf8')) as { modules: StatsModule[] };
  const files: string[] = [];
  const walk = (module: StatsModule): void => {
    files.push(resolve(root, 'src', module.name.replace(/ \+ \d+ modules$/, '')));
    module.modules?.forEach(walk);
  };
  stats.modules.filter((module) => module.chunks?.length).forEach(walk);
  return files;
}
/** The installed package a file belongs to: the one with the longest path that contains it. */
function owner(file: string): PackageNode | undefined {
  return installed.filter((pkg) => file.startsWith(pkg.path + sep)).sort((a, b) => b.path.length - a.path.length)[0];
}

const [statsFile, outFile] = process.argv.slice(2);
if (!statsFile || !outFile) throw new Error('usage: node scripts/licenses.ts NCC_STATS_JSON OUT_FILE');
const bundled = new Set(bundledFiles(statsFile).map(owner));
const packages = installed.filter((pkg) => bundled.has(pkg)).sort((a, b) => a.location.localeCompare(b.location));

const sections = packages.map((pkg) => {
  const file = readdirSync(pkg.path).find((name) => /^(license|licence|copying)(\.md|\.txt)?$/i.test(name));
  const text = file
    ? readFileSync(join(pkg.path, file), 'utf8').trim()
    : `(no license file; package.json: ${pkg.license})`;
  return `${pkg.name}@${pkg.version} (${pkg.location})\n${pkg.license ?? ''}\n\n${text}`;
});
writeFileSync(outFile, `${sections.join('\n\n----------\n\n')}\n`);
// A progress line, on stderr: stdout is for what a command is asked for (`npm pack --json`).
console.error(`${relative(root, outFile)}: ${sections.length} packages`);
