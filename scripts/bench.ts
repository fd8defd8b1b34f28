// `npm run bench`: how long each step of the built action takes, against the floor of a bare
// Node 24 CommonJS process that sends the same single request with node:http (for the post step
// with nothing to send, a bare `node -e 0`). Each round runs every step and every floor once, one
// after the other, so that machine noise hits both alike; printed are medians, the ratio of the
// medians and the median of each round's own ratio, plus dist/'s size. A markdown table, ready for
// the README. A last row shows what bounds a step that sends: the same PATCH from a bare process that
// has only src/undici.ts (bundled as the build does), against the same floor. A benchmark, not a
// test: it asserts nothing and never fails on a number.
//
// `npm run bench -- --parts [--compare REF]`: where a step's start-up goes, in-process (see
// scripts/bench-parts.ts). BENCH_RUNS sets the number of rounds (default 21, after 2 warm-up).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleProbe } from './probe-bundle.ts';
import { startFakeService } from '../test/fake-service.ts';
import { ROOT, runStep } from '../test/run-action.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 21);
const WARMUP = 2;

if (process.argv.includes('--parts')) {
  await import('./bench-parts.ts');
  process.exit(0);
}

// What bounds a step that sends: a bare CommonJS process that sends the same PATCH through
// src/undici.ts alone (bundled as the build bundles it), without @actions/core or anything else.
const work = mkdtempSync(join(tmpdir(), 'report-deployment-bench-'));
const boundScript = await bundleProbe(
  `import { createAgent, request } from '${join(ROOT, 'src', 'undici.js')}';
void (async () => {
  const [url, key, body] = process.argv.slice(2) as [string, string, string];
  const dispatcher = createAgent({ timeoutMs: 10_000 });
  const headers = { 'content-type': 'application/json', accept: 'application/json', 'x-api-key': key };
  const response = await request(url, { method: 'PATCH', headers, body, dispatcher });
  console.log(response.statusCode, await response.body.text());
  await dispatcher.close();
})();`,
  work,
  { aliases: true },
);

const service = await startFakeService();
const inputs = { 'api-key': service.apiKey, 'base-url': service.url, 'artifact-id': '42' };

/** A bare CommonJS node process: one request with node:http, reading the answer. */
const FLOOR_SCRIPT = `
const http = require('node:http');
const [url, key, body] = process.argv.slice(1);
const req = http.request(url, { method: process.env.METHOD, headers: { 'content-type': 'application/json', accept: 'application/json', 'x-api-key': key } }, (res) => {
  let text = ''; res.on('data', (c) => (text += c)); res.on('end', () => console.log(res.statusCode, text));
});
req.end(body);
`;

function timeNode(args: string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { env: { PATH: process.env.PATH ?? '', ...env }, stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', () => resolve(performance.now() - started));
  });
}

const floor = (method: 'POST' | 'PATCH', path: string, body: string) =>
  timeNode(['-e', FLOOR_SCRIPT, `${service.url}${path}`, service.apiKey, body], { METHOD: method });
const bareNode = () => timeNode(['-e', '0'], {});
const bound = (path: string, body: string) =>
  timeNode([boundScript, `${service.url}${path}`, service.apiKey, body], {});

// The post step of the one-shot mode (status: SUCCEEDED) has nothing to send.
const oneShot = await runStep('main', { inputs: { ...inputs, status: 'SUCCEEDED' } }, {});

interface Pair {
  label: string;
  floorLabel: string;
  step: number[];
  floor: number[];
}
const pairs = {
  main: { label: 'main (POST)', floorLabel: 'bare node:http, same POST', step: [], floor: [] } as Pair,
  post: { label: 'post (PATCH)', floorLabel: 'bare node:http, same PATCH', step: [], floor: [] } as Pair,
  idle: { label: 'post, nothing to send (one-shot mode)', floorLabel: 'bare `node -e 0`', step: [], floor: [] } as Pair,
  bound: {
    label: '(what bounds post: the same PATCH from a bare process with only src/undici.ts)',
    floorLabel: 'bare node:http, same PATCH',
    step: [],
    floor: [],
  } as Pair,
};
for (let round = 0; round < WARMUP + RUNS; round++) {
  const main = await runStep('main', { inputs }, {});
  const handoff = JSON.parse(main.state.handoff ?? '{}') as { kind?: string; ids?: number[] };
  if (main.exitCode !== 0 || handoff.kind !== 'finish')
    throw new Error(`main step failed:\n${main.stdout}${main.stderr}`);
  const floorPost = await floor('POST', '/deployment', JSON.stringify(service.requests.at(-1)?.body));
  const post = await runStep('post', { inputs }, main.state);
  if (post.exitCode !== 0 || service.requests.at(-1)?.method !== 'PATCH')
    throw new Error(`post step failed:\n${post.stdout}${post.stderr}`);
  const id = handoff.ids?.[0];
  const floorPatch = await floor('PATCH', `/deployment/${id}`, '{"status":"SUCCEEDED"}');
  const boundPatch = await bound(`/deployment/${id}`, '{"status":"SUCCEEDED"}');
  const sent = service.requests.length;
  const idle = await runStep('post', { inputs }, oneShot.state);
  if (idle.exitCode !== 0 || service.requests.length !== sent) throw new Error('the idle post step sent a request');
  const bare = await bareNode();
  if (round < WARMUP) continue;
  pairs.main.step.push(main.durationMs);
  pairs.main.floor.push(floorPost);
  pairs.post.step.push(post.durationMs);
  pairs.post.floor.push(floorPatch);
  pairs.idle.step.push(idle.durationMs);
  pairs.idle.floor.push(bare);
  pairs.bound.step.push(boundPatch);
  pairs.bound.floor.push(floorPatch);
}
await service.close();
rmSync(work, { recursive: true, force: true });

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

console.log(`node ${process.version}, ${RUNS} rounds after ${WARMUP} warm-up, steps and floors alternating:\n`);
console.log('| step | median | floor | floor median | ratio of medians | median of paired ratios |');
console.log('|---|---|---|---|---|---|');
for (const { label, floorLabel, step, floor: floors } of Object.values(pairs)) {
  const ratios = step.map((value, index) => value / (floors[index] as number));
  console.log(
    `| ${label} | ${median(step).toFixed(0)} ms | ${floorLabel} | ${median(floors).toFixed(0)} ms | ` +
      `${(median(step) / median(floors)).toFixed(2)}x | ${median(ratios).toFixed(2)}x |`,
  );
}
const files = filesUnder(join(ROOT, 'dist'));
const bytes = files.reduce((total, file) => total + statSync(file).size, 0);
console.log(
  `\ndist/: ${bytes.toLocaleString('en')} bytes (${(bytes / 2 ** 20).toFixed(2)} MiB) in ${files.length} files`,
);
