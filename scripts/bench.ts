// `npm run bench`: every figure the docs quote, measured here and written to docs/performance.md, the
// one place they live (CONTRIBUTING.md, Performance, says how to read them). A benchmark, not a
// test: it checks that each run did its work, never a number.
//
// 1. The build, timed: `node scripts/build.ts` (dist/ and cli/ from src/, so that what is measured
//    is what src/ builds now), then `node scripts/build.ts sea` (cli/ again and the executable for
//    this machine, build/report-deployment-<os>-<arch>).
// 2. Sizes: dist/ (what every job downloads), the CLI's npm tarball (`npm pack --dry-run`), the
//    executable on disk and gzipped, beside the Node binary it is made of, and the container image
//    beside the executable (scripts/bench-image.ts, where podman and buildah are installed). With
//    --image-only, only the image is measured, from build/'s executable, and its row alone rewritten.
// 3. Start-up, against the floor: a bare Node 24 CommonJS process that sends the same single request
//    with node:http (for the post step with nothing to send, a bare `node -e 0`). Timed: the main
//    step (POST), the post step (PATCH), the post step with nothing to send (one-shot mode), the
//    CLI's one-shot `record` (POST) from the npm package and from the executable, each spawned as
//    the runner or a shell does, against the fake service on loopback. Each round runs every pair,
//    subject and floor one right after the other, in alternating order, so that the machine's noise
//    hits both alike; medians of the rounds, and the median of each round's own ratio (what the
//    budgets read). Then the same pairs again with test/helpers/step-probe.cjs preloaded into both, for
//    their CPU time, which other processes on a shared machine stretch far less than wall time (not
//    the executable's: it takes no preload).
// 4. With --reaches: each dependency reach (scripts/bench-reaches.ts) taken out in turn, built apart,
//    and the steps it touches run from that build and the shipped one, paired, both probed: its gain
//    is the median of the paired differences, in CPU time (what the verdict reads) and wall time.
//    Without --reaches the file keeps the last measured reaches, dated.
// 5. The receiver (scripts/bench-receiver.ts): `report-deployment serve` from the npm package's
//    folder against a bare node:http floor, in one run: deliveries acknowledged per second, p99 at a
//    fixed rate, deployments recorded per second, memory with a long queue. With --receiver-only,
//    only this is measured (a few minutes) and the rest of the file is kept as it was.
//    Then the same on PostgreSQL (scripts/bench-postgres.ts): one and two replicas beside SQLite and
//    the floor, and a SIGKILLed replica's work taken over; --postgres-only measures just that.
//    Then one GitHub catch-up pass over 10,000 deliveries beside a bare loop over the same pages
//    (scripts/bench-catch-up.ts); --catch-up-only measures just that.
// 6. `npm test`, timed once, last (it would disturb the timings).
//
// BENCH_RUNS sets the rounds (default 31, after 2 warm-up): more when the machine is busy.
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildWithout, REACHES, type Build, type Reach, type Step } from './bench-reaches.ts';
import { measurePostgres, postgresLines, type PostgresFigures } from './bench-postgres.ts';
import { IMAGE_GROWTH_BUDGET_BYTES, measureImage, type ImageFigures } from './bench-image.ts';
import { catchUpLines, measureCatchUp, type CatchUpFigures } from './bench-catch-up.ts';
import { measureReceiver, receiverLines, type ReceiverFigures } from './bench-receiver.ts';
import { projectNode, SEA_DIR, SEA_LICENSES, seaName } from './sea.ts';
import { startFakeService } from '../test/helpers/fake-service.ts';
import { PROBE_PRELOAD, ROOT, runStep, type StepProbe } from '../test/helpers/run-action.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 31);
const WARMUP = 2;
const REACHES_WANTED = process.argv.includes('--reaches');
const RECEIVER_ONLY = process.argv.includes('--receiver-only');
const OUT = join(ROOT, 'docs', 'performance.md');
/** A reach that gains less than this goes (issue "Dependency internals pay rent"). */
const RENT_MS = 5;
const NOT_MEASURED = '## Dependency reaches\n\nNot measured yet: `npm run bench -- --reaches`.';
const RECEIVER_NOT_MEASURED = '## The receiver\n\nNot measured yet: `npm run bench -- --receiver-only`.';
const IMAGE_ROW = /^\| the receiver's container image .*$/m;
const RECEIVER_BLOCK = /<!-- receiver -->[\s\S]*<!-- \/receiver -->/;
const POSTGRES_ONLY = process.argv.includes('--postgres-only');
const POSTGRES_NOT_MEASURED = '## The receiver on PostgreSQL\n\nNot measured yet: `npm run bench -- --postgres-only`.';
const POSTGRES_BLOCK = /<!-- receiver-postgres -->[\s\S]*<!-- \/receiver-postgres -->/;
const CATCH_UP_BLOCK = /<!-- catch-up -->[\s\S]*<!-- \/catch-up -->/;
/** The CLI as the npm package holds it (scripts/npm-package.ts writes the folder npm packs). */
const PACKED_CLI = join(ROOT, 'npm', 'package', 'cli', 'report-deployment.cjs');

/** What is timed against the floor: the steps the reaches touch, and the CLI's executable. */
type Timed = Step | 'executable';

/**
 * The budgets: ratios to the floor (issue "Dependency internals pay rent"; the executable's, issue
 * "Where deploy jobs really run"), and sizes.
 */
const BUDGETS: Record<Timed, number> = { main: 2.2, post: 1.9, idle: 1.5, record: 2.2, executable: 1.8 };
const DIST_BUDGET_BYTES = 1_000_000;
const TARBALL_BUDGET_BYTES = 1024 * 1024;
/** The executable may be at most this much larger than the Node binary it is made of. */
const SEA_GROWTH_BUDGET_BYTES = 2_000_000;

const LABELS: Record<Timed, { step: string; floor: string }> = {
  main: { step: 'action, main step (POST)', floor: 'bare node:http, same POST' },
  post: { step: 'action, post step (PATCH)', floor: 'bare node:http, same PATCH' },
  idle: { step: 'action, post step with nothing to send (one-shot mode)', floor: 'bare `node -e 0`' },
  record: { step: 'CLI, npm package: `report-deployment record` (POST)', floor: 'bare node:http, same POST' },
  executable: { step: 'CLI, executable: `report-deployment record` (POST)', floor: 'bare node:http, same POST' },
};

const startedAt = new Date();
const loadBefore = loadavg();
const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];

if (POSTGRES_ONLY) {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'npm-package.ts')], { stdio: ['ignore', 'ignore', 'inherit'] });
  const figures = await measurePostgres(PACKED_CLI);
  const previous = existsSync(OUT) ? readFileSync(OUT, 'utf8') : '';
  const block = postgresBlock(figures, loadavg());
  writeFileSync(
    OUT,
    POSTGRES_BLOCK.test(previous)
      ? previous.replace(POSTGRES_BLOCK, () => block)
      : previous.replace('<!-- reaches -->', () => `${block}\n\n<!-- reaches -->`),
  );
  console.error(`== wrote the receiver's PostgreSQL figures to ${relative(ROOT, OUT)}`);
  process.exit(0);
}

if (process.argv.includes('--catch-up-only')) {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'npm-package.ts')], { stdio: ['ignore', 'ignore', 'inherit'] });
  const block = catchUpBlock(await measureCatchUp(PACKED_CLI), loadavg());
  const previous = readFileSync(OUT, 'utf8');
  writeFileSync(
    OUT,
    CATCH_UP_BLOCK.test(previous)
      ? previous.replace(CATCH_UP_BLOCK, () => block)
      : previous.replace('<!-- reaches -->', () => `${block}\n\n<!-- reaches -->`),
  );
  console.error(`== wrote catch-up's figures to ${relative(ROOT, OUT)}`);
  process.exit(0);
}

if (process.argv.includes('--image-only')) {
  const seaFile = join(SEA_DIR, seaName());
  if (!existsSync(seaFile)) fail(`no ${relative(ROOT, seaFile)}: run npm run build -- sea first`);
  const row = imageRow(await imageFiguresHere(seaFile));
  const previous = readFileSync(OUT, 'utf8');
  writeFileSync(
    OUT,
    IMAGE_ROW.test(previous)
      ? previous.replace(IMAGE_ROW, () => row)
      : previous.replace(/^(\| the CLI's executable .*)$/m, (line) => `${line}\n${row}`),
  );
  console.error(`== wrote the image's size to ${relative(ROOT, OUT)}`);
  process.exit(0);
}

if (RECEIVER_ONLY) {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'npm-package.ts')], { stdio: ['ignore', 'ignore', 'inherit'] });
  const figures = await measureReceiver(PACKED_CLI);
  const previous = existsSync(OUT) ? readFileSync(OUT, 'utf8') : '';
  const block = receiverBlock(figures, loadavg());
  writeFileSync(
    OUT,
    RECEIVER_BLOCK.test(previous)
      ? previous.replace(RECEIVER_BLOCK, () => block)
      : previous.replace('<!-- reaches -->', () => `${block}\n\n<!-- reaches -->`),
  );
  console.error(`== wrote the receiver's figures to ${relative(ROOT, OUT)}`);
  process.exit(0);
}

// 1. The build.
console.error('== npm run build (timed)');
const buildMs = await timeProcess([join(ROOT, 'scripts', 'build.ts')], { ...process.env }, 'inherit');
console.error('== npm run build -- sea (timed)');
const seaBuildMs = await timeProcess([join(ROOT, 'scripts', 'build.ts'), 'sea'], { ...process.env }, 'inherit');
const seaFile = join(SEA_DIR, seaName());

// 2. Sizes.
const dist = filesUnder(join(ROOT, 'dist'));
const distBytes = sumBytes(dist);
// The package's own folder, as the release packs it (scripts/npm-package.ts).
execFileSync(process.execPath, [join(ROOT, 'scripts', 'npm-package.ts')], { stdio: ['ignore', 'ignore', 'inherit'] });
const packed = JSON.parse(
  execFileSync(npm[0] as string, [...npm.slice(1), 'pack', './npm/package', '--dry-run', '--json'], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  }),
) as { size: number; unpackedSize: number; entryCount: number }[];
const tarball = packed[0] ?? fail('npm pack --dry-run --json gave nothing');
const sea = { bytes: statSync(seaFile).size, gzipped: gzipSync(readFileSync(seaFile)).length };
const nodeBinaryBytes = statSync(projectNode()).size;
const imageFigures = await imageFiguresHere(seaFile);

// 3. Start-up against the floor.
const service = await startFakeService();
const shipped: Build = { actionRoot: ROOT, cli: join(ROOT, 'cli') };
const inputs = { 'api-key': service.apiKey, 'base-url': service.url, 'artifact-id': '42' };
const RECORD_ARGS = [
  ...['record', '--status', 'success', '--artifact-id', '42', '--version', '1.4.2'],
  ...['--commit-sha', 'c0ffee', '--user', 'alice', '--branch', 'main', '--environment', 'Production'],
];

/** A bare CommonJS node process: one request with node:http, reading the answer. */
const FLOOR_SCRIPT = `
const http = require('node:http');
const [url, key, body] = process.argv.slice(1);
const req = http.request(url, { method: process.env.METHOD, headers: { 'content-type': 'application/json', accept: 'application/json', 'x-api-key': key } }, (res) => {
  let text = ''; res.on('data', (c) => (text += c)); res.on('end', () => console.log(res.statusCode, text));
});
req.end(body);
`;

interface Sample {
  /** Wall time from spawn to exit, ms. */
  wall: number;
  /** CPU time of the process (user and system, all threads), ms; only when run with the probe. */
  cpu: number;
}

function runNode(
  args: string[],
  env: NodeJS.ProcessEnv,
  stdio: 'ignore' | 'pipe' | 'inherit' = 'ignore',
): Promise<{ ms: number; code: number | null }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', stdio, stdio] });
    child.stdout?.resume();
    child.stderr?.resume();
    child.on('error', reject);
    child.on('close', (code) => resolve({ ms: performance.now() - started, code }));
  });
}

async function timeProcess(args: string[], env: NodeJS.ProcessEnv, stdio?: 'ignore' | 'pipe' | 'inherit') {
  const { ms, code } = await runNode(args, env, stdio);
  if (code !== 0) throw new Error(`${args.join(' ').slice(0, 200)} exited ${code}`);
  return ms;
}

/** A bare node process running `args`; with `probe`, with the probe preloaded for its CPU time. */
async function bare(args: string[], env: NodeJS.ProcessEnv, probe: boolean): Promise<Sample> {
  const work = probe ? mkdtempSync(join(tmpdir(), 'report-deployment-bench-')) : undefined;
  try {
    const probeFile = work ? join(work, 'probe.json') : undefined;
    const ms = await timeProcess([...(probeFile ? ['--require', PROBE_PRELOAD] : []), ...args], {
      PATH: process.env.PATH,
      ...env,
      ...(probeFile ? { STEP_PROBE_FILE: probeFile } : {}),
    });
    return sample(ms, probeFile ? (JSON.parse(readFileSync(probeFile, 'utf8')) as StepProbe) : undefined);
  } finally {
    if (work) rmSync(work, { recursive: true, force: true });
  }
}

const floor = (method: 'POST' | 'PATCH', path: string, body: string, probe: boolean) =>
  bare(['-e', FLOOR_SCRIPT, `${service.url}${path}`, service.apiKey, body], { METHOD: method }, probe);
const bareNode = (probe: boolean) => bare(['-e', '0'], {}, probe);

const sample = (wall: number, probe: StepProbe | undefined): Sample => ({ wall, cpu: probe?.cpuMs ?? Number.NaN });

/** The main step of `build`: its time, and the state and id its post step needs. */
async function main(build: Build, probe = false): Promise<Sample & { state: Record<string, string>; id: string }> {
  const result = await runStep('main', { inputs, actionRoot: build.actionRoot, probe }, {});
  const handoff = JSON.parse(result.state.handoff ?? '{}') as { kind?: string; ids?: (string | number)[] };
  if (result.exitCode !== 0 || handoff.kind !== 'finish' || handoff.ids?.length !== 1) {
    throw new Error(`main step of ${build.actionRoot} failed:\n${result.stdout}${result.stderr}`);
  }
  return { ...sample(result.durationMs, result.probe), state: result.state, id: String(handoff.ids[0]) };
}

async function post(build: Build, state: Record<string, string>, probe = false): Promise<Sample> {
  const sent = service.requests.length;
  const result = await runStep('post', { inputs, actionRoot: build.actionRoot, probe }, state);
  if (result.exitCode !== 0 || service.requests.length !== sent + 1 || service.requests.at(-1)?.method !== 'PATCH') {
    throw new Error(`post step of ${build.actionRoot} failed:\n${result.stdout}${result.stderr}`);
  }
  return sample(result.durationMs, result.probe);
}

// The post step of the one-shot mode (status: SUCCEEDED) has nothing to send.
const oneShot = await runStep('main', { inputs: { ...inputs, status: 'SUCCEEDED' } }, {});
async function idle(build: Build, probe = false): Promise<Sample> {
  const sent = service.requests.length;
  const result = await runStep('post', { inputs, actionRoot: build.actionRoot, probe }, oneShot.state);
  if (result.exitCode !== 0 || service.requests.length !== sent) {
    throw new Error(`the idle post step of ${build.actionRoot} failed or sent:\n${result.stdout}${result.stderr}`);
  }
  return sample(result.durationMs, result.probe);
}

/** `report-deployment record`, run as its bin from `build.cli` (its stdout and stderr pipes, as in a CI). */
async function record(build: Build, probe = false): Promise<Sample> {
  const sent = service.requests.length;
  const work = probe ? mkdtempSync(join(tmpdir(), 'report-deployment-bench-')) : undefined;
  const preload = work ? ['--require', PROBE_PRELOAD] : [];
  try {
    const { ms, code } = await runNode(
      [...preload, join(build.cli, 'report-deployment.cjs'), ...RECORD_ARGS],
      {
        PATH: process.env.PATH,
        DEPLOY_TRACKER_URL: service.url,
        DEPLOY_TRACKER_API_KEY: service.apiKey,
        ...(work ? { STEP_PROBE_FILE: join(work, 'probe.json') } : {}),
      },
      'pipe',
    );
    const request = service.requests.at(-1);
    if (
      code !== 0 ||
      service.requests.length !== sent + 1 ||
      (request?.body as { status?: string }).status !== 'SUCCEEDED'
    ) {
      throw new Error(`the CLI in ${build.cli} did not record (exit ${code})`);
    }
    return sample(ms, work ? (JSON.parse(readFileSync(join(work, 'probe.json'), 'utf8')) as StepProbe) : undefined);
  } finally {
    if (work) rmSync(work, { recursive: true, force: true });
  }
}

/** `report-deployment record`, run as the executable (no probe: it takes no preload, NODE_OPTIONS included). */
async function executable(): Promise<Sample> {
  const sent = service.requests.length;
  const started = performance.now();
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(seaFile, RECORD_ARGS, {
      cwd: ROOT,
      env: { PATH: process.env.PATH, DEPLOY_TRACKER_URL: service.url, DEPLOY_TRACKER_API_KEY: service.apiKey },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.resume();
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', resolve);
  });
  const ms = performance.now() - started;
  const request = service.requests.at(-1);
  if (
    code !== 0 ||
    service.requests.length !== sent + 1 ||
    (request?.body as { status?: string }).status !== 'SUCCEEDED'
  ) {
    throw new Error(`the executable ${relative(ROOT, seaFile)} did not record (exit ${code})`);
  }
  return sample(ms, undefined);
}

/** Runs `a` and `b` one right after the other, `a` first in even rounds and `b` first in odd ones. */
async function paired<T>(round: number, a: () => Promise<T>, b: () => Promise<T>): Promise<[T, T]> {
  if (round % 2 === 0) {
    const first = await a();
    return [first, await b()];
  }
  const first = await b();
  return [await a(), first];
}

// The bodies the floors send: the same as the step's and the CLI's.
const first = await main(shipped);
const mainBody = JSON.stringify(service.requests.at(-1)?.body);
await record(shipped);
const recordBody = JSON.stringify(service.requests.at(-1)?.body);
const patchBody = '{"status":"SUCCEEDED"}';

/** Per step: the subject and its floor, paired, as wall times (run bare) and CPU times (run probed). */
const steps = Object.fromEntries(
  (Object.keys(LABELS) as Timed[]).map((step) => [
    step,
    { wall: [] as [number, number][], cpu: [] as [number, number][] },
  ]),
) as Record<Timed, Record<'wall' | 'cpu', [number, number][]>>;
console.error(`== start-up: ${RUNS} rounds after ${WARMUP} warm-up`);
let { state, id } = first;
for (let round = 0; round < WARMUP + RUNS; round++) {
  for (const probe of [false, true]) {
    const timed: Partial<Record<Timed, [Sample, Sample]>> = {
      main: await paired(
        round,
        async () => {
          const ran = await main(shipped, probe);
          ({ state, id } = ran);
          return ran;
        },
        () => floor('POST', '/deployment', mainBody, probe),
      ),
      post: await paired(
        round,
        () => post(shipped, state, probe),
        () => floor('PATCH', `/deployment/${id}`, patchBody, probe),
      ),
      idle: await paired(
        round,
        () => idle(shipped, probe),
        () => bareNode(probe),
      ),
      record: await paired(
        round,
        () => record(shipped, probe),
        () => floor('POST', '/deployment', recordBody, probe),
      ),
      // Beside the npm package's, in the same round.
      ...(probe
        ? {}
        : {
            executable: await paired(
              round,
              () => executable(),
              () => floor('POST', '/deployment', recordBody, probe),
            ),
          }),
    };
    if (round < WARMUP) continue;
    for (const [step, [subject, base]] of Object.entries(timed) as [Timed, [Sample, Sample]][]) {
      if (probe) steps[step].cpu.push([subject.cpu, base.cpu]);
      else steps[step].wall.push([subject.wall, base.wall]);
    }
  }
}

// 4. The reaches: both builds run with the probe preloaded (test/helpers/step-probe.cjs), for their CPU time.
interface ReachResult {
  reach: Reach;
  bytes: { shipped: number; without: number };
  samples: Partial<Record<Step, [Sample, Sample][]>>;
}
let reachResults: ReachResult[] | undefined;
/** Each step's floor, probed, once a round of the reaches. */
const reachFloors: Record<Step, Sample[]> = { main: [], post: [], idle: [], record: [] };
if (REACHES_WANTED) {
  const builds: { reach: Reach; build: Build & { remove(): void } }[] = [];
  try {
    for (const reach of REACHES) {
      console.error(`== building without ${reach.id}`);
      builds.push({ reach, build: await buildWithout(reach) });
    }
    const results = builds.map(({ reach, build }): ReachResult => {
      const bytes = { shipped: 0, without: 0 };
      for (const [ours, theirs] of bundleDirs(reach, build)) {
        if (treeHash(ours) === treeHash(theirs)) {
          throw new Error(`without ${reach.id}, ${relative(ROOT, ours)} built the same: the reach was not taken out`);
        }
        bytes.shipped += sumBytes(filesUnder(ours));
        bytes.without += sumBytes(filesUnder(theirs));
      }
      return { reach, bytes, samples: Object.fromEntries(reach.steps.map((step) => [step, []])) };
    });
    console.error(`== reaches: ${RUNS} rounds after ${WARMUP} warm-up`);
    for (let round = 0; round < WARMUP + RUNS; round++) {
      // Each step's floor, probed, once a round: the ratios below divide by the same round's floor.
      const floors: Record<Step, Sample> = {
        main: await floor('POST', '/deployment', mainBody, true),
        post: await floor('PATCH', `/deployment/${id}`, patchBody, true),
        idle: await bareNode(true),
        record: await floor('POST', '/deployment', recordBody, true),
      };
      if (round >= WARMUP) for (const step of Object.keys(floors) as Step[]) reachFloors[step].push(floors[step]);
      for (const [index, { reach, build }] of builds.entries()) {
        // The state each build's own main step handed over, for its post step.
        const states = new Map<Build, Record<string, string>>();
        const run = async (step: Step, which: Build): Promise<Sample> => {
          if (step === 'main') {
            const ran = await main(which, true);
            states.set(which, ran.state);
            return ran;
          }
          if (step === 'post') return post(which, states.get(which) ?? (await main(which)).state, true);
          return step === 'idle' ? idle(which, true) : record(which, true);
        };
        for (const step of reach.steps) {
          const pair = await paired(
            round,
            () => run(step, shipped),
            () => run(step, build),
          );
          if (round >= WARMUP) results[index]?.samples[step]?.push(pair);
        }
      }
    }
    reachResults = results;
  } finally {
    for (const { build } of builds) build.remove();
  }
}
await service.close();

// 5. The receiver.
const receiverFigures = await measureReceiver(PACKED_CLI);
const postgresFigures = await measurePostgres(PACKED_CLI);
console.error('== catch-up: one GitHub pass');
const catchUpFigures = await measureCatchUp(PACKED_CLI);
const loadAfter = loadavg();

// 6. npm test.
console.error('== npm test (timed, once)');
const testReport = join(mkdtempSync(join(tmpdir(), 'report-deployment-bench-')), 'report.json');
const testStarted = performance.now();
await timeProcess(
  [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--reporter=json', `--outputFile=${testReport}`],
  { ...process.env },
).catch(() => undefined); // Failed tests: the time still counts, and the counts say so.
const testMs = performance.now() - testStarted;
const tests = existsSync(testReport)
  ? (JSON.parse(readFileSync(testReport, 'utf8')) as Record<
      'numTotalTests' | 'numPassedTests' | 'numFailedTests',
      number
    >)
  : undefined;
rmSync(join(testReport, '..'), { recursive: true, force: true });

writeReport();
console.error(`== wrote ${relative(ROOT, OUT)}`);

function writeReport(): void {
  const previous = existsSync(OUT) ? readFileSync(OUT, 'utf8') : '';
  const kept = /<!-- reaches -->([\s\S]*)<!-- \/reaches -->/.exec(previous)?.[1]?.trim();
  const machine = `Node ${process.version}, ${process.platform} ${process.arch}, ${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'})`;
  const load = `load average ${loadBefore[0]?.toFixed(1)} at the start, ${loadAfter[0]?.toFixed(1)} at the end`;
  const lines = [
    '# Performance figures',
    '',
    '<!-- Generated by `npm run bench` (scripts/bench.ts): do not edit by hand. -->',
    '',
    `Generated by \`npm run bench\` (scripts/bench.ts) on ${day(startedAt)} at ${commit()}.`,
    `${machine}; ${RUNS} rounds after ${WARMUP} warm-up; ${load}.`,
    '',
    'Do not edit: run it again. How to read these figures, and what each budget is for:',
    '[CONTRIBUTING.md, Performance](../CONTRIBUTING.md#performance).',
    '',
    '## Start-up against the floor',
    '',
    'Each subject and its floor run one right after the other, in alternating order, every round;',
    'medians over the rounds.',
    '',
    '| subject | wall time | floor | floor wall time | ratio to the floor | budget | CPU time | floor CPU time | CPU ratio to the floor |',
    '|---|---|---|---|---|---|---|---|---|',
    ...(Object.keys(LABELS) as Timed[]).map((step) => {
      const { wall: walls, cpu: cpuPairs } = steps[step];
      const [subject, base] = [median(walls.map(([a]) => a)), median(walls.map(([, b]) => b))];
      const paired = median(walls.map(([a, b]) => a / b));
      const cpu =
        cpuPairs.length === 0
          ? '— | — | — |'
          : `${ms(median(cpuPairs.map(([a]) => a)))} | ${ms(median(cpuPairs.map(([, b]) => b)))} | ${ratio(median(cpuPairs.map(([a, b]) => a / b)))} |`;
      return (
        `| ${LABELS[step].step} | ${ms(subject)} | ${LABELS[step].floor} | ${ms(base)} | ` +
        `${ratio(paired)} | ≤ ${BUDGETS[step]}x ${mark(paired <= BUDGETS[step])} | ${cpu}`
      );
    }),
    '',
    "A ratio to the floor is the median of each round's own ratio (the subject's time over the floor's",
    'in the same round): the figure each budget is judged on, beside it. The medians of the times',
    'alone (the wall time columns) may give another quotient, since noise does not hit every round',
    'alike. CPU times come from separate runs of the same pairs with a probe preloaded into both',
    '(test/helpers/step-probe.cjs); other processes on the machine stretch wall times much more than CPU',
    'times. The executable takes no preload (it ignores NODE_OPTIONS too): its CPU time is not measured.',
    '',
    '## Sizes and times',
    '',
    '| what | figure | budget |',
    '|---|---|---|',
    `| \`dist/\` (the action, as every job downloads it) | ${bytes(distBytes)} in ${dist.length} files | ≤ 1 MB ${mark(distBytes <= DIST_BUDGET_BYTES)} |`,
    `| the CLI's npm tarball (\`npm pack\`) | ${bytes(tarball.size)} packed, ${bytes(tarball.unpackedSize)} unpacked, ${tarball.entryCount} files | ≤ 1 MiB ${mark(tarball.size <= TARBALL_BUDGET_BYTES)} |`,
    `| the CLI's executable (\`${seaName()}\`) | ${bytes(sea.bytes)} on disk, ${bytes(sea.gzipped)} gzipped; the Node binary it is made of: ${bytes(nodeBinaryBytes)} | ≤ the Node binary + 2 MB ${mark(sea.bytes <= nodeBinaryBytes + SEA_GROWTH_BUDGET_BYTES)} |`,
    imageRow(imageFigures),
    `| \`npm run build\` (dist/ and cli/, one run) | ${seconds(buildMs)} | |`,
    `| \`npm run build -- sea\` (cli/ and the executable, one run) | ${seconds(seaBuildMs)} | |`,
    `| \`npm test\` (one run, after the timings) | ${tests ? `${seconds(testMs)}: ${tests.numTotalTests} tests, ${tests.numPassedTests} passed, ${tests.numFailedTests} failed` : 'did not run'} | |`,
    '',
    receiverBlock(receiverFigures, loadAfter),
    '',
    postgresBlock(postgresFigures, loadAfter),
    '',
    catchUpBlock(catchUpFigures, loadAfter),
    '',
    '<!-- reaches -->',
    ...(reachResults ? reachLines(reachResults, machine, load) : [kept || NOT_MEASURED]),
    '<!-- /reaches -->',
    '',
  ];
  mkdirSync(join(OUT, '..'), { recursive: true });
  writeFileSync(OUT, lines.join('\n'));
}

/** The image's figures, or none where it cannot be built here (said on stderr): the other figures still count. */
async function imageFiguresHere(seaFile: string): Promise<ImageFigures | undefined> {
  try {
    return await measureImage(seaFile, join(SEA_DIR, SEA_LICENSES));
  } catch (error) {
    console.error(`== the image was not measured: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

/** The container image's row of the sizes: beside the executable it holds. */
function imageRow(figures: ImageFigures | undefined): string {
  const what = "| the receiver's container image (`npm run image`) |";
  if (!figures) return `${what} not measured here (it needs podman and buildah: see the bench's log) | |`;
  const within = figures.bytes <= figures.executableBytes + IMAGE_GROWTH_BUDGET_BYTES;
  return (
    `${what} ${bytes(figures.bytes)} unpacked, ${bytes(figures.gzipped)} gzipped; the executable in it: ` +
    `${bytes(figures.executableBytes)} | ≤ the executable + 8 MB ${mark(within)} |`
  );
}

/** The receiver's section, between its markers, with its own date and load (it may be measured alone). */
function receiverBlock(figures: ReceiverFigures | undefined, loadAtEnd: number[]): string {
  const machine = `Node ${process.version}, ${process.platform} ${process.arch}, ${availableParallelism()} cores`;
  const load = `load average ${loadBefore[0]?.toFixed(1)} at the start, ${loadAtEnd[0]?.toFixed(1)} at the end`;
  const heading = `Measured on ${day(startedAt)} at ${commit()}; ${machine}; ${load}.`;
  const lines = figures ? receiverLines(figures, heading) : [RECEIVER_NOT_MEASURED];
  return ['<!-- receiver -->', ...lines, '<!-- /receiver -->'].join('\n');
}

/** The PostgreSQL section, between its markers, with its own date and load (it may be measured alone). */
function postgresBlock(figures: PostgresFigures | undefined, loadAtEnd: number[]): string {
  const machine = `Node ${process.version}, ${process.platform} ${process.arch}, ${availableParallelism()} cores`;
  const load = `load average ${loadBefore[0]?.toFixed(1)} at the start, ${loadAtEnd[0]?.toFixed(1)} at the end`;
  const heading = `Measured on ${day(startedAt)} at ${commit()}; ${machine}; ${load}.`;
  const lines = figures ? postgresLines(figures, heading) : [POSTGRES_NOT_MEASURED];
  return ['<!-- receiver-postgres -->', ...lines, '<!-- /receiver-postgres -->'].join('\n');
}

/** Catch-up's section, between its markers, with its own date and load (it may be measured alone). */
function catchUpBlock(figures: CatchUpFigures, loadAtEnd: number[]): string {
  const machine = `Node ${process.version}, ${process.platform} ${process.arch}, ${availableParallelism()} cores`;
  const load = `load average ${loadBefore[0]?.toFixed(1)} at the start, ${loadAtEnd[0]?.toFixed(1)} at the end`;
  return [
    '<!-- catch-up -->',
    '## Catch-up',
    '',
    `Measured by \`npm run bench\` (or \`-- --catch-up-only\`) on ${day(startedAt)} at ${commit()}; ${machine}; ${load}.`,
    '',
    '| | figure | aim |',
    '|---|---|---|',
    ...catchUpLines(figures),
    '<!-- /catch-up -->',
  ].join('\n');
}

function reachLines(results: ReachResult[], machine: string, load: string): string[] {
  return [
    '## Dependency reaches',
    '',
    `Measured by \`npm run bench -- --reaches\` on ${day(startedAt)} at ${commit()}.`,
    `${machine}; ${RUNS} rounds after ${WARMUP} warm-up; ${load}.`,
    '',
    'Each reach (src/deps/) is taken out in turn (scripts/bench-reaches.ts) and built apart; each step',
    'it touches is run from that build and from the shipped one, one right after the other in',
    "alternating order, each with a probe preloaded that reads the process's CPU time at exit. Gains",
    'are medians of the paired differences, the middle half of them in brackets: in CPU time (user',
    "and system, all threads: what a start-up costs a runner's core, and what the verdict reads, since",
    "other processes stretch wall time) and in wall time. Ratios: the median of each build's CPU time over",
    "its step's floor (probed too) run in the same round, as in the CPU column above; the budgets above are",
    `judged on wall time. A reach stays if it gains at least ${RENT_MS} ms of CPU time on a step it touches.`,
    '',
    '| reach | file | step | CPU time with → without | CPU gain | wall time with → without | wall gain | CPU ratio to the floor, with → without | bundle without it | verdict |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...results.flatMap(({ reach, bytes: sizes, samples }) => {
      const rows = reach.steps.map((step) => {
        const pairs = samples[step] ?? [];
        const floors = reachFloors[step];
        const of = (pick: (sample: Sample) => number, which: 0 | 1) => pairs.map((pair) => pick(pair[which]));
        const gains = (pick: (sample: Sample) => number) => pairs.map(([ours, theirs]) => pick(theirs) - pick(ours));
        const ratios = (which: 0 | 1) => pairs.map((pair, round) => pair[which].cpu / (floors[round] as Sample).cpu);
        return {
          step,
          cpu: [median(of(cpuOf, 0)), median(of(cpuOf, 1))],
          wall: [median(of(wallOf, 0)), median(of(wallOf, 1))],
          cpuGains: gains(cpuOf),
          wallGains: gains(wallOf),
          ratios: [median(ratios(0)), median(ratios(1))],
        };
      });
      const best = Math.max(...rows.map((row) => median(row.cpuGains)));
      const verdict = best >= RENT_MS ? `stays (≥ ${RENT_MS} ms)` : `goes (< ${RENT_MS} ms)`;
      return rows.map((row, index) => {
        const first = index === 0;
        return (
          `| ${first ? `<a id="${reach.id}"></a>${reach.dependency}: ${reach.what}` : ''} | ${first ? `\`${reach.file}\`` : ''} | ${row.step} | ` +
          `${ms(row.cpu[0] as number)} → ${ms(row.cpu[1] as number)} | ${spread(row.cpuGains)} | ` +
          `${ms(row.wall[0] as number)} → ${ms(row.wall[1] as number)} | ${spread(row.wallGains)} | ` +
          `${ratio(row.ratios[0] as number)} → ${ratio(row.ratios[1] as number)} | ` +
          `${first ? signedBytes(sizes.without - sizes.shipped) : ''} | ${first ? verdict : ''} |`
        );
      });
    }),
  ];
}

function cpuOf(sample: Sample): number {
  return sample.cpu;
}

function wallOf(sample: Sample): number {
  return sample.wall;
}

/** A median gain and the middle half of the gains. */
function spread(gains: number[]): string {
  return `${signedMs(median(gains))} [${signedMs(quantile(gains, 0.25))}, ${signedMs(quantile(gains, 0.75))}]`;
}

/** The bundles a reach's variant rebuilt, each beside the shipped one. */
function bundleDirs(reach: Reach, build: Build): [string, string][] {
  const dirs: [string, string][] = [];
  if (reach.steps.some((step) => step !== 'record')) dirs.push([join(ROOT, 'dist'), join(build.actionRoot, 'dist')]);
  if (reach.steps.includes('record')) dirs.push([join(ROOT, 'cli'), build.cli]);
  return dirs;
}

function treeHash(dir: string): string {
  const hash = createHash('sha256');
  for (const file of filesUnder(dir).filter((name) => !/(licenses|source-hash)\.txt$/.test(name))) {
    hash.update(`${relative(dir, file)}\0`).update(readFileSync(file));
  }
  return hash.digest('hex');
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

function sumBytes(files: string[]): number {
  return files.reduce((total, file) => total + statSync(file).size, 0);
}

function commit(): string {
  const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src', 'scripts', 'package-lock.json'], {
    cwd: ROOT,
    encoding: 'utf8',
  }).trim();
  return dirty ? `\`${head}\` with uncommitted changes` : `\`${head}\``;
}

function median(values: number[]): number {
  return quantile(values, 0.5);
}

/** The `q` quantile, interpolated between the two nearest values. */
function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  return (sorted[low] as number) + ((sorted[Math.ceil(at)] as number) - (sorted[low] as number)) * (at - low);
}

function fail(message: string): never {
  throw new Error(message);
}

function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}
function ms(value: number): string {
  return `${value.toFixed(0)} ms`;
}
function signedMs(value: number): string {
  return `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(1)} ms`;
}
function ratio(value: number): string {
  return `${value.toFixed(2)}x`;
}
function seconds(value: number): string {
  return `${(value / 1000).toFixed(1)} s`;
}
function bytes(value: number): string {
  return `${value.toLocaleString('en')} bytes (${(value / 2 ** 20).toFixed(2)} MiB)`;
}
function signedBytes(value: number): string {
  return `${value >= 0 ? '+' : '−'}${Math.abs(value).toLocaleString('en')} bytes`;
}
function mark(ok: boolean): string {
  return ok ? '(met)' : '(**over**)';
}
