// The npm package is packed from npm/package/ (scripts/npm-package.ts): its README is the command
// line's page, `npm pack --json` of it prints JSON alone, and the root refuses to be packed.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_DIR, publishedManifest } from '../scripts/npm-package.ts';
import { INSTALL_TIMEOUT_MS, installedCli } from './helpers/run-cli.ts';
import { ROOT } from './helpers/run-action.ts';

// Packed and installed once (run-cli.ts), which writes npm/package/ as the release does; written
// again where an install from an earlier run was reused and the folder has gone since.
beforeAll(() => {
  installedCli();
  if (!existsSync(join(ROOT, PACKAGE_DIR, 'package.json'))) {
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'npm-package.ts')], { stdio: 'ignore' });
  }
}, INSTALL_TIMEOUT_MS);

const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
const scratch = mkdtempSync(join(tmpdir(), 'npm-package-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface PackResult {
  filename: string;
  files: { path: string }[];
}

describe('the npm package', () => {
  it("installs with the command line's README, not the action's", () => {
    const installed = join(installedCli().dir, 'node_modules', 'report-deployment');
    const readme = readFileSync(join(installed, 'README.md'), 'utf8');

    expect(readme).toBe(readFileSync(join(ROOT, 'npm', 'README.md'), 'utf8'));
    expect(readme).not.toBe(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    expect(readme).toMatch(/^# report-deployment\n/);
    expect(readme).toContain('report-deployment run --artifact-name');
  });

  it('`npm pack --json` of its folder prints JSON alone: the tarball named, README.md and the CLI in it', () => {
    const stdout = execFileSync(
      npm[0] as string,
      [...npm.slice(1), 'pack', `./${PACKAGE_DIR}`, '--json', '--pack-destination', scratch],
      { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const [result] = JSON.parse(stdout) as PackResult[];

    expect(result?.filename).toMatch(/^report-deployment-\d+\.\d+\.\d+\.tgz$/);
    expect(result?.files.map((file) => file.path)).toEqual(
      expect.arrayContaining(['README.md', 'LICENSE', 'package.json', 'cli/report-deployment.cjs', 'cli/index.js']),
    );
    const listing = execFileSync('tar', ['-xOzf', join(scratch, result?.filename ?? ''), 'package/README.md'], {
      encoding: 'utf8',
    });
    expect(listing).toBe(readFileSync(join(ROOT, 'npm', 'README.md'), 'utf8'));
  });

  it('publishes the root manifest without what only development uses', () => {
    const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
    const published = publishedManifest(root);
    const packed = JSON.parse(readFileSync(join(ROOT, PACKAGE_DIR, 'package.json'), 'utf8')) as Record<string, unknown>;

    expect(packed).toEqual(published);
    expect(Object.keys(published)).not.toContain('scripts');
    expect(Object.keys(published)).not.toContain('devDependencies');
    expect(published).toMatchObject({ name: root.name, version: root.version, bin: root.bin, files: root.files });
  });

  it("is never packed from the root, whose README is the action's: `npm pack` there says what to run", () => {
    const result = spawnSync(npm[0] as string, [...npm.slice(1), 'pack', '--dry-run', '--json'], {
      cwd: ROOT,
      encoding: 'utf8',
    });

    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('Run `npm run package`, then `npm pack ./npm/package`');
  });
});
