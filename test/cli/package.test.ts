// The npm package itself: a tarball under 1 MiB with no runtime dependencies, installed offline
// (run-cli.ts installs it with --offline), that runs on Node 22 and 24 and tells an older Node which
// version it needs.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFakeService } from '../helpers/fixture.ts';
import { commandReady, listeningPorts, witnessed } from '../helpers/processes.ts';
import { fixtureCommand, INSTALL_TIMEOUT_MS, installedCli, NODES, runCli, waitForText } from '../helpers/run-cli.ts';

// Packed and installed once, before any test's own time starts.
beforeAll(() => void installedCli(), INSTALL_TIMEOUT_MS);

const fake = useFakeService();
const FIELDS = ['--artifact-id', '42', '--commit-sha', 'c0ffee', '--user', 'alice', '--branch', 'main'];

describe('the package', () => {
  it('is a tarball of at most 1 MiB that installs alone: no dependencies, nothing but its own files', () => {
    const { dir, tarballBytes } = installedCli();
    const manifest = JSON.parse(
      readFileSync(join(dir, 'node_modules', 'report-deployment', 'package.json'), 'utf8'),
    ) as Record<string, unknown>;
    const packages = readdirSync(join(dir, 'node_modules')).filter((name) => !name.startsWith('.'));

    expect(tarballBytes).toBeLessThanOrEqual(1024 * 1024);
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.bin).toEqual({ 'report-deployment': 'cli/report-deployment.cjs' });
    expect(packages).toEqual(['report-deployment']);
  });

  it.each([22, 24] as const)('runs on Node %i', async (node) => {
    const result = await runCli(['run', ...FIELDS, '--', ...fixtureCommand('exit.cjs', '0')], {
      node,
      env: { DEPLOY_TRACKER_URL: fake.service.url, DEPLOY_TRACKER_API_KEY: fake.service.apiKey },
    });

    expect(result.exitCode).toBe(0);
    expect(fake.service.deployments.get('1')?.statuses).toEqual(['STARTED', 'SUCCEEDED']);
  });

  // signals.test.ts runs it on Node 24 and the executable; Node 22 has no --disable-sigusr1 before 22.14.
  it.each([22, 24] as const)('on Node %i, SIGUSR1 opens no debugger and the run goes on', async (node) => {
    let listening: number[] | undefined;
    const result = await runCli(['run', ...FIELDS, '--', ...fixtureCommand('count.cjs')], {
      node,
      env: { DEPLOY_TRACKER_URL: fake.service.url, DEPLOY_TRACKER_API_KEY: fake.service.apiKey },
      onSpawn: (child) =>
        void commandReady(child)
          .then(async (command) => {
            await witnessed(child.pid as number);
            child.kill('SIGUSR1');
            // A signal the CLI handles after it: by then an inspector would be listening.
            child.kill('SIGTERM');
            await waitForText(child.stderr as NodeJS.ReadableStream, 'SIGTERM received:');
            listening = listeningPorts(child.pid as number);
            process.kill(command, 'SIGUSR2');
          })
          .catch(() => undefined),
    });

    expect(listening).toEqual([]);
    expect(result.stderr).not.toMatch(/Debugger|inspector|9229/i);
    expect(result.exitCode).toBe(0);
    expect(fake.service.deployments.get('1')?.statuses).toEqual(['STARTED', 'FAILED', 'SUCCEEDED']);
  });

  it('on Node 20 says which version it needs, and exits 2 without running anything', async () => {
    const result = await runCli(['run', ...FIELDS, '--', 'touch', 'should-not-exist'], {
      node: 20,
      env: { DEPLOY_TRACKER_URL: fake.service.url, DEPLOY_TRACKER_API_KEY: fake.service.apiKey },
    });

    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(
      `report-deployment: needs Node.js 22 or later; this is Node.js v20.20.2.\nInstall Node.js 22 or later (https://nodejs.org/) and run it again.\n`,
    );
    expect(fake.service.requests).toEqual([]);
    expect(NODES[20]).toContain('node20');
  });
});
