// `npm run bench`: how long each step of the built action takes, against the floor of a bare
// Node 24 process that sends the same single request with node:http. Runs are alternated so that
// machine noise hits both alike; medians are printed with the ratio step/floor, plus dist/'s size.
// A benchmark, not a test: it asserts nothing and never fails on a number.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeService } from '../test/fake-service.ts';
import { ROOT, runStep } from '../test/run-action.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const WARMUP = 2;

const service = await startFakeService();
const inputs = { 'api-key': service.apiKey, 'base-url': service.url, 'artifact-id': '42' };

/** A bare node process: one POST with node:http, reading the answer. */
const FLOOR_SCRIPT = `
const http = require('node:http');
const [url, key, body] = process.argv.slice(1);
const req = http.request(url, { method: process.env.METHOD, headers: { 'content-type': 'application/json', 'x-api-key': key } }, (res) => {
  let text = ''; res.on('data', (c) => (text += c)); res.on('end', () => console.log(res.statusCode, text));
});
req.end(body);
`;

function floor(method: 'POST' | 'PATCH', path: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['-e', FLOOR_SCRIPT, `${service.url}${path}`, service.apiKey, body], {
      env: { PATH: process.env.PATH ?? '', METHOD: method },
      stdio: 'ignore',
    });
    child.on('error', reject);
    child.on('close', () => resolve(performance.now() - started));
  });
}

/** A bare node process that sends nothing: the floor of a step with nothing to send. */
function bareNode(): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['-e', '0'], { env: { PATH: process.env.PATH ?? '' }, stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', () => resolve(performance.now() - started));
  });
}

// The post step of the one-shot mode (status: SUCCEEDED) has nothing to send.
const oneShot = await runStep('main', { inputs: { ...inputs, status: 'SUCCEEDED' } }, {});

const samples: Record<string, number[]> = {
  main: [],
  post: [],
  'floor POST': [],
  'floor PATCH': [],
  'post, nothing to send': [],
  'bare node': [],
};
for (let run = 0; run < WARMUP + RUNS; run++) {
  const main = await runStep('main', { inputs }, {});
  if (main.exitCode !== 0 || !main.state['pending-ids'])
    throw new Error(`main step failed:\n${main.stdout}${main.stderr}`);
  const post = await runStep('post', { inputs }, main.state);
  if (post.exitCode !== 0) throw new Error(`post step failed:\n${post.stdout}${post.stderr}`);
  const createBody = JSON.stringify(service.requests.at(-2)?.body);
  const floorPost = await floor('POST', '/deployment', createBody);
  const floorPatch = await floor(
    'PATCH',
    `/deployment/${(JSON.parse(main.state['pending-ids']) as number[])[0]}`,
    '{"status":"SUCCEEDED"}',
  );
  const idlePost = await runStep('post', { inputs }, oneShot.state);
  const bare = await bareNode();
  if (run < WARMUP) continue;
  samples['post, nothing to send']?.push(idlePost.durationMs);
  samples['bare node']?.push(bare);
  samples.main?.push(main.durationMs);
  samples.post?.push(post.durationMs);
  samples['floor POST']?.push(floorPost);
  samples['floor PATCH']?.push(floorPatch);
}
await service.close();

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};
const m = Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)])) as Record<
  string,
  number
>;
const size = (dir: string) => readdirSync(dir).reduce((total, file) => total + statSync(join(dir, file)).size, 0);

console.log(`node ${process.version}, ${RUNS} runs each after ${WARMUP} warm-up, alternating; medians:`);
console.log('| step | median | floor (bare node:http, same request) | ratio |');
console.log('|---|---|---|---|');
console.log(
  `| main (POST) | ${m.main?.toFixed(1)} ms | ${m['floor POST']?.toFixed(1)} ms | ${((m.main ?? 0) / (m['floor POST'] ?? 1)).toFixed(2)}x |`,
);
console.log(
  `| post (PATCH) | ${m.post?.toFixed(1)} ms | ${m['floor PATCH']?.toFixed(1)} ms | ${((m.post ?? 0) / (m['floor PATCH'] ?? 1)).toFixed(2)}x |`,
);
console.log(
  `| post, nothing to send (one-shot mode) | ${m['post, nothing to send']?.toFixed(1)} ms | ${m['bare node']?.toFixed(1)} ms (bare node, no request) | ${((m['post, nothing to send'] ?? 0) / (m['bare node'] ?? 1)).toFixed(2)}x |`,
);
for (const entry of ['main', 'post']) {
  const dir = join(ROOT, 'dist', entry);
  console.log(
    `dist/${entry}/: ${(size(dir) / 1024).toFixed(0)} KiB (index.js ${(statSync(join(dir, 'index.js')).size / 1024).toFixed(0)} KiB)`,
  );
}
