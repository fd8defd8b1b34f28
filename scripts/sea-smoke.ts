// `node scripts/sea-smoke.ts <executable> <version>`: the release's smoke test of one executable, run
// on a runner of its own platform (.github/workflows/release.yml) and here by
// test/cli/executable.test.ts. A copy of it, alone in an empty folder, with no folder that holds a
// `node` on its PATH and a NODE_OPTIONS that would stop a Node, against the fake service on
// 127.0.0.1: --version, context, record, `run -- true`, and a failing command's exit code.
// Prints each check as it passes; exits 1 at the first that fails, with what the executable printed.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { startFakeService } from '../test/helpers/fake-service.ts';
import { pathWithoutNode } from './sea.ts';

const [executable, version] = process.argv.slice(2);
if (!executable || !version) {
  console.error('usage: node scripts/sea-smoke.ts <executable> <version>');
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'report-deployment-smoke-'));
const path = pathWithoutNode(process.env.PATH ?? '', join(work, 'path'));
mkdirSync(join(work, 'alone'));
const copy = join(work, 'alone', basename(executable));
copyFileSync(executable, copy);

const service = await startFakeService();
const env = {
  ...(process.platform === 'win32' ? { SystemRoot: process.env.SystemRoot ?? '' } : {}),
  PATH: path,
  HOME: work,
  DEPLOY_TRACKER_URL: service.url,
  DEPLOY_TRACKER_API_KEY: service.apiKey,
  NODE_OPTIONS: '--require ./no-such-preload.cjs',
};
const FIELDS = ['--artifact-id', '42', '--commit-sha', 'c0ffee', '--user', 'smoke', '--branch', 'main'];

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[]): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(copy, args, { cwd: join(work, 'alone'), env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const statuses = () => [...service.deployments.values()].map((deployment) => deployment.statuses.join(','));

async function check(what: string, args: string[], ok: (ran: Ran) => boolean): Promise<void> {
  const ran = await run(args);
  if (!ok(ran)) {
    console.error(`FAILED: ${what}\n$ ${basename(copy)} ${args.join(' ')}\nexit ${ran.code}`);
    console.error(`stdout:\n${ran.stdout}\nstderr:\n${ran.stderr}\nrecorded: ${JSON.stringify(statuses())}`);
    process.exitCode = 1;
    throw new Error(what);
  }
  console.log(`ok: ${what}`);
}

try {
  await check(`--version prints ${version}`, ['--version'], (ran) => ran.code === 0 && ran.stdout === `${version}\n`);
  await check(
    'context shows the service, sends nothing',
    ['context', ...FIELDS, '--json'],
    (ran) =>
      ran.code === 0 &&
      (JSON.parse(ran.stdout) as { service: { value: string } }).service.value === service.url &&
      service.requests.length === 0,
  );
  await check(
    'record records SUCCEEDED and prints the id',
    ['record', '--status', 'success', ...FIELDS],
    (ran) => ran.code === 0 && ran.stdout === '1\n' && statuses().join(' ') === 'SUCCEEDED',
  );
  await check(
    'run -- true exits 0, recorded STARTED then SUCCEEDED',
    ['run', ...FIELDS, '--', 'true'],
    (ran) => ran.code === 0 && statuses().at(-1) === 'STARTED,SUCCEEDED',
  );
  await check(
    'run -- sh -c "exit 3" exits 3, recorded STARTED then FAILED',
    ['run', ...FIELDS, '--', 'sh', '-c', 'exit 3'],
    (ran) => ran.code === 3 && statuses().at(-1) === 'STARTED,FAILED',
  );
} catch {
  // Said above.
} finally {
  await service.close();
  rmSync(work, { recursive: true, force: true });
}
