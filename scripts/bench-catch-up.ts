// Catch-up's figure for `npm run bench` (scripts/bench.ts writes it): one GitHub pass of
// `report-deployment serve`, from the packed CLI, over DELIVERIES deliveries of one hook on a fake of
// GitHub's API (FAILED of them failed, to be read back and stored), timed from the process's start to
// its pass's log line, beside the floor: a bare CommonJS loop over the same pages
// (scripts/bench-catch-up-floor.cjs), also timed as a whole process. Both count their requests.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeService } from '../test/helpers/fake-service.ts';
import { ROOT } from '../test/helpers/run-action.ts';
import { fakeDelivery, startFakeGithub } from '../test/receiver/helpers/fake-github-api.ts';
import { deploymentStatus, SECRET } from '../test/receiver/helpers/github-delivery.ts';

export const DELIVERIES = Number(process.env.BENCH_CATCH_UP_DELIVERIES ?? 10_000);
export const FAILED = Math.ceil(DELIVERIES / 100);
const run = promisify(execFile);
const TOKEN = 'ghp_BenchCatchUpToken5e1f0a9b3c7d2';
const HOOK = 'repos/octo-org/shop-web/hooks/4081';

export interface CatchUpFigures {
  deliveries: number;
  failed: number;
  receiver: { ms: number; requests: number };
  floor: { ms: number; requests: number };
}

export async function measureCatchUp(packedCli: string): Promise<CatchUpFigures> {
  const github = await startFakeGithub(TOKEN);
  const service = await startFakeService();
  const now = Date.now();
  github.hooks.set(
    HOOK,
    Array.from({ length: DELIVERIES }, (_, index) => {
      const delivery = deploymentStatus('success', 100_000 + index);
      const payload = JSON.parse(delivery.body.toString()) as object;
      // Spread over 2 days, one in a hundred failed.
      return fakeDelivery(delivery.headers['x-github-delivery'] as string, payload, {
        at: now - index * Math.floor((2 * 24 * 3600_000) / DELIVERIES),
        ok: index % 100 !== 0,
      });
    }),
  );
  const dir = mkdtempSync(join(tmpdir(), 'rd-bench-catch-up-'));
  try {
    github.requests.length = 0;
    const started = performance.now();
    await passLine(packedCli, join(dir, 'receiver.sqlite'), {
      ...process.env,
      DEPLOY_TRACKER_URL: service.url,
      DEPLOY_TRACKER_API_KEY: service.apiKey,
      GITHUB_WEBHOOK_SECRET: SECRET,
      GITHUB_HOOKS: HOOK,
      GITHUB_TOKEN: TOKEN,
      GITHUB_API_URL: github.url,
    });
    const receiver = { ms: performance.now() - started, requests: github.requests.length };
    github.requests.length = 0;
    const floorStarted = performance.now();
    // Asynchronously: the fake answering it lives in this process.
    const { stdout } = await run(
      process.execPath,
      [join(ROOT, 'scripts', 'bench-catch-up-floor.cjs'), github.url, TOKEN, HOOK],
      {
        encoding: 'utf8',
        timeout: 120_000,
      },
    );
    const floorRequests = Number(stdout.trim());
    const floor = { ms: performance.now() - floorStarted, requests: floorRequests };
    return { deliveries: DELIVERIES, failed: FAILED, receiver, floor };
  } finally {
    await github.close();
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs `serve` until its GitHub pass says what it got in, then stops it; bounded at 2 minutes. */
function passLine(packedCli: string, store: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [packedCli, 'serve', '--listen', '127.0.0.1:0', '--store', store], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let seen = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no catch-up pass within 2 minutes:\n${seen}`));
    }, 120_000);
    child.stderr.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (process.env.BENCH_DEBUG) process.stderr.write(chunk);
      if (!/GitHub catch-up .*got in/.test(seen)) return;
      clearTimeout(timer);
      if (!new RegExp(`${FAILED} failed deliveries not held, ${FAILED} got in`).test(seen))
        reject(new Error(`the pass did not get every failed delivery in:\n${seen}`));
      child.kill('SIGTERM');
      child.once('exit', () => resolve());
    });
    child.once('error', reject);
  });
}

/** The rows docs/performance.md shows (the caller writes the table's head and the date). */
export function catchUpLines(figures: CatchUpFigures): string[] {
  const { receiver, floor } = figures;
  return [
    `| a GitHub catch-up pass over ${figures.deliveries} deliveries of one hook, ${figures.failed} of them failed (read back and stored), from the process's start | ${Math.round(receiver.ms)} ms, ${receiver.requests} requests | |`,
    `| the floor: a bare node:http loop over the same pages and failed deliveries, checking and storing nothing | ${Math.round(floor.ms)} ms, ${floor.requests} requests | |`,
    `| the pass against its floor | ${(receiver.ms / floor.ms).toFixed(2)}x the time, ${receiver.requests - floor.requests} more requests | |`,
  ];
}

if (import.meta.main) {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'npm-package.ts')], { stdio: ['ignore', 'ignore', 'inherit'] });
  console.log(JSON.stringify(await measureCatchUp(process.argv[2] ?? ''), null, 2));
}
