// The receiver's figures for `npm run bench` (scripts/bench.ts writes them): `report-deployment
// serve` from the packed CLI, against a bare node:http floor (test/helpers/bare-receiver.cjs) answering 202
// to the same signed GitHub deliveries without checking or storing them. The load is our own
// bounded loop over keep-alive connections on loopback (node:http's Agent): a fixed number of
// requests, so that every run stops by itself, and no dependency to pin.
//
// - Acknowledged per second: CONNECTIONS clients, each sending its next delivery once the last is
//   answered, THROUGHPUT deliveries in all; the receiver's service is paused (its answers never
//   come), so that what is timed is verifying and committing.
// - p99 acknowledgement time at a fixed RATE per second (open loop: each delivery sent at its time,
//   whether or not the last was answered), for FIXED_SECONDS.
// - Deployments recorded per second: RECORDED deliveries stored while the fake service holds its
//   answers, then the service let go, timed until it has them all.
// - Memory: the receiver's RSS with QUEUE_SMALL, half QUEUE_LARGE and QUEUE_LARGE deliveries
//   waiting, the service paused, as it runs and with V8's old space bounded (Linux only: /proc).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeService } from '../test/helpers/fake-service.ts';
import { deploymentStatus, SECRET, signed, type Delivery } from '../test/receiver/helpers/github-delivery.ts';
import { ROOT } from '../test/helpers/run-action.ts';

export const CONNECTIONS = 32;
export const THROUGHPUT = Number(process.env.BENCH_RECEIVER_DELIVERIES ?? 5000);
export const RATE = 500;
export const FIXED_SECONDS = 10;
export const RECORDED = 1000;
const QUEUE_SMALL = 10_000;
const QUEUE_LARGE = Number(process.env.BENCH_RECEIVER_QUEUE ?? 100_000);

interface RssPoint {
  queued: number;
  bytes: number;
}

/** The bounded run's V8 flag: garbage collected early, so that what stays is what is held. */
const HEAP_BOUND = '--max-old-space-size=64';

export interface ReceiverFigures {
  ackPerSecond: { receiver: number; bare: number };
  fixedRate: { rate: number; sent: number; p50: number; p99: number; max: number };
  recordedPerSecond: number;
  /** The receiver's RSS at each queue length: as it runs, and with V8's old space bounded (HEAP_BOUND). */
  rss: { default: RssPoint[]; bounded: RssPoint[] } | undefined;
  counts: { throughput: number; recorded: number; queueSmall: number; queueLarge: number; connections: number };
}

export interface Running {
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts `args` with node and waits for its "listening on HOST:PORT" line (stderr or stdout). */
export function listen(args: string[], env: NodeJS.ProcessEnv): Promise<Running> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let seen = '';
    const exited = new Promise<void>((done) => child.on('close', () => done()));
    const look = (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.length > 100_000) seen = seen.slice(-10_000);
      const port = /listening on [^\s]+:(\d+)/.exec(seen)?.[1];
      if (port)
        resolve({
          port: Number(port),
          child,
          stop: async () => {
            child.kill('SIGTERM');
            await exited;
          },
        });
    };
    child.stdout.on('data', look);
    child.stderr.on('data', look);
    child.on('error', reject);
    void exited.then(() => reject(new Error(`${args.join(' ')} ended before listening:\n${seen}`)));
  });
}

/** `report-deployment serve` from the packed CLI, GitHub enabled, on a fresh store. */
export async function serve(
  cliBin: string,
  serviceUrl: string,
  apiKey: string,
  store: string,
  nodeArgs: string[] = [],
  timeoutSeconds = 600,
): Promise<Running> {
  return listen(
    [
      ...nodeArgs,
      cliBin,
      'serve',
      '--listen',
      '127.0.0.1:0',
      '--store',
      store,
      '--timeout-seconds',
      String(timeoutSeconds),
    ],
    {
      PATH: process.env.PATH,
      DEPLOY_TRACKER_URL: serviceUrl,
      DEPLOY_TRACKER_API_KEY: apiKey,
      GITHUB_WEBHOOK_SECRET: SECRET,
    },
  );
}

/** Signed deliveries, made as they are sent: each of a GitHub deployment of its own (so none is a duplicate). */
const payload = JSON.parse(deploymentStatus('success', 1).body.toString()) as { deployment: { id: number } };
export function delivery(id: number): Delivery {
  payload.deployment.id = id;
  return signed('deployment_status', Buffer.from(JSON.stringify(payload)));
}

/** POSTs one delivery; resolves with its status and the time to its answer in ms. */
export function send(agent: Agent, port: number, delivery: Delivery): Promise<{ status: number; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(
      { host: '127.0.0.1', port, path: '/webhooks/github', method: 'POST', agent, headers: delivery.headers },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    req.on('error', reject);
    req.end(delivery.body);
  });
}

/** Closed loop: `connections` clients, each sending its next delivery once the last is answered. */
export async function closedLoop(port: number, all: Delivery[], connections: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < all.length) {
        const { status } = await send(agent, port, all[next++] as Delivery);
        if (status !== 202) throw new Error(`a delivery was answered ${status}, not 202`);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return all.length / seconds;
}

/** Open loop: delivery i sent at i / rate seconds, answered or not; every answer's time. */
export async function openLoop(port: number, all: Delivery[], rate: number): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const started = performance.now();
  const answers: Promise<{ status: number; ms: number }>[] = [];
  for (const [index, delivery] of all.entries()) {
    const due = started + (index * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    answers.push(send(agent, port, delivery));
  }
  const done = await Promise.all(answers);
  agent.destroy();
  if (done.some((answer) => answer.status !== 202)) throw new Error('a delivery at the fixed rate was not stored');
  return done.map((answer) => answer.ms);
}

/** Fills the receiver's queue to QUEUE_LARGE; its RSS at QUEUE_SMALL, the middle and the end. */
async function fillQueue(queued: Running, take: (count: number) => Delivery[]): Promise<RssPoint[]> {
  const points: RssPoint[] = [];
  const note = (queuedCount: number) => {
    const bytes = rssBytes(queued.child.pid);
    if (bytes !== undefined) points.push({ queued: queuedCount, bytes });
  };
  let done = 0;
  for (const target of [QUEUE_SMALL, QUEUE_LARGE / 2, QUEUE_LARGE]) {
    while (done < target) {
      const count = Math.min(5_000, target - done);
      await closedLoop(queued.port, take(count), CONNECTIONS);
      done += count;
    }
    note(target);
  }
  const depth = await queueDepth(queued.port);
  // The worker holds a few creates in flight (never answered): the rest wait.
  if (depth < QUEUE_LARGE - 64) throw new Error(`only ${depth} deliveries wait, not ${QUEUE_LARGE}`);
  return points;
}

function rssBytes(pid: number | undefined): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

async function queueDepth(port: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  return Number(/^report_deployment_queue_depth (\d+)$/m.exec(text)?.[1] ?? Number.NaN);
}

export async function measureReceiver(cliBin: string): Promise<ReceiverFigures> {
  const work = mkdtempSync(join(tmpdir(), 'report-deployment-bench-receiver-'));
  // A paused service: its answers never come (until it closes), so deliveries wait in the store.
  const paused = await startFakeService({ gate: () => new Promise<void>(() => undefined) });
  let opened: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (opened = resolve));
  let changed: () => void = () => undefined;
  const held = await startFakeService({ gate: () => gate, onChange: () => changed() });
  const running: Running[] = [];
  try {
    let id = 1;
    // Made before the clock starts, a batch at a time (100,000 of them would not fit in memory at once).
    const take = (count: number) => Array.from({ length: count }, () => delivery(id++));

    // 1. Acknowledged per second, the receiver and the floor in one run, one after the other.
    console.error(`== receiver: ${THROUGHPUT} deliveries over ${CONNECTIONS} connections, serve and the bare floor`);
    const receiver = await serve(cliBin, paused.url, paused.apiKey, join(work, 'throughput.sqlite'));
    running.push(receiver);
    await closedLoop(receiver.port, take(500), CONNECTIONS); // warm-up
    const receiverRate = await closedLoop(receiver.port, take(THROUGHPUT), CONNECTIONS);
    const bare = await listen([join(ROOT, 'test', 'helpers', 'bare-receiver.cjs')], { PATH: process.env.PATH });
    running.push(bare);
    await closedLoop(bare.port, take(500), CONNECTIONS);
    const bareRate = await closedLoop(bare.port, take(THROUGHPUT), CONNECTIONS);
    await bare.stop();
    const stored = await queueDepth(receiver.port);
    if (stored < THROUGHPUT) throw new Error(`the receiver stored ${stored} deliveries, fewer than it acknowledged`);

    // 2. p99 at a fixed rate, on the same receiver.
    console.error(`== receiver: ${RATE} deliveries/s for ${FIXED_SECONDS} s`);
    const times = await openLoop(receiver.port, take(RATE * FIXED_SECONDS), RATE);

    // 4. Memory with the queue growing (the service paused), as it runs and with a bounded heap.
    let rss: ReceiverFigures['rss'];
    if (process.platform === 'linux') {
      const runs: RssPoint[][] = [];
      for (const nodeArgs of [[], [HEAP_BOUND]]) {
        console.error(`== receiver: RSS with up to ${QUEUE_LARGE} deliveries waiting ${nodeArgs.join(' ')}`);
        const store = join(work, `queue-${runs.length}.sqlite`);
        const queued = await serve(cliBin, paused.url, paused.apiKey, store, nodeArgs);
        running.push(queued);
        runs.push(await fillQueue(queued, take));
        await queued.stop();
      }
      if (runs.every((points) => points.length === 3)) rss = { default: runs[0] ?? [], bounded: runs[1] ?? [] };
    }

    // 3. Recorded per second: stored while the service holds its answers, then let go.
    console.error(`== receiver: ${RECORDED} deployments recorded against the fake service`);
    const recorder = await serve(cliBin, held.url, held.apiKey, join(work, 'recorded.sqlite'));
    running.push(recorder);
    await closedLoop(recorder.port, take(RECORDED), CONNECTIONS);
    const recorded = await new Promise<number>((resolve, reject) => {
      const started = performance.now();
      const timer = setTimeout(
        () => reject(new Error(`the service has ${held.deployments.size} of ${RECORDED} deployments after 10 minutes`)),
        600_000,
      );
      changed = () => {
        if (held.deployments.size < RECORDED) return;
        changed = () => undefined;
        clearTimeout(timer);
        resolve(RECORDED / ((performance.now() - started) / 1000));
      };
      opened();
    });
    return {
      ackPerSecond: { receiver: receiverRate, bare: bareRate },
      fixedRate: {
        rate: RATE,
        sent: times.length,
        p50: quantile(times, 0.5),
        p99: quantile(times, 0.99),
        max: Math.max(...times),
      },
      recordedPerSecond: recorded,
      rss,
      counts: {
        throughput: THROUGHPUT,
        recorded: RECORDED,
        queueSmall: QUEUE_SMALL,
        queueLarge: QUEUE_LARGE,
        connections: CONNECTIONS,
      },
    };
  } finally {
    for (const one of running) await one.stop().catch(() => undefined);
    await paused.close();
    await held.close();
    rmSync(work, { recursive: true, force: true });
  }
}

export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * q))] as number;
}

/** The receiver's section of docs/performance.md. */
export function receiverLines(figures: ReceiverFigures, heading: string): string[] {
  const { ackPerSecond: ack, fixedRate, rss, counts } = figures;
  const half = ack.receiver >= ack.bare / 2;
  const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  return [
    '## The receiver',
    '',
    heading,
    '',
    '`report-deployment serve` from the packed CLI on a fresh SQLite store, and a bare node:http server',
    '(test/helpers/bare-receiver.cjs, CommonJS) that answers 202 to the same signed GitHub deliveries without',
    'checking or storing them, one after the other in the same run (scripts/bench-receiver.ts). The',
    `load: our own loop over keep-alive connections on loopback, ${counts.connections} clients each sending its next`,
    'delivery once the last is answered; each delivery is of a GitHub deployment of its own. While',
    "acknowledgements are timed, the receiver's service is paused (its answers never come): what is",
    'timed is verifying, committing (one commit for the deliveries that arrive together) and answering.',
    '',
    '| what | figure | aim |',
    '|---|---|---|',
    `| deliveries acknowledged per second, each committed before its answer (${counts.throughput}) | ${ack.receiver.toFixed(0)}/s | ≥ half the floor's ${mark(half)} |`,
    `| the floor: bare node:http, 202 without storing (${counts.throughput}) | ${ack.bare.toFixed(0)}/s | |`,
    `| acknowledgement time at a fixed ${fixedRate.rate} deliveries/s (${fixedRate.sent} sent, open loop) | p50 ${fixedRate.p50.toFixed(1)} ms, p99 ${fixedRate.p99.toFixed(1)} ms, max ${fixedRate.max.toFixed(0)} ms | p99 < 25 ms ${mark(fixedRate.p99 < 25)} |`,
    `| deployments recorded per second against the fake service (${counts.recorded} stored first, then the service let go) | ${figures.recordedPerSecond.toFixed(0)}/s | |`,
    ...(rss
      ? [
          `| the receiver's RSS with ${rss.default.map((point) => point.queued).join(' → ')} deliveries waiting (the service paused) | ${rss.default.map((point) => mib(point.bytes)).join(' → ')} | |`,
          `| the same with V8's old space bounded (\`${HEAP_BOUND}\`) | ${rss.bounded.map((point) => mib(point.bytes)).join(' → ')} | does not grow with the queue ${mark(lastHalfGrowth(rss.bounded) < 32 * 2 ** 20)} |`,
        ]
      : ['| the RSS with deliveries waiting | not measured (Linux only) | |']),
    '',
    "Memory: the queue is in the store's file. As it runs, V8 lets the garbage of the request bodies",
    'pile up while memory is plentiful, so the RSS climbs with the number of deliveries taken; with its',
    'old space bounded, the same run collects early and what stays is what the receiver holds. The aim',
    'is read on that run: met when the second half of the queue adds less than 32 MiB.',
  ];
}

/** What the RSS grew by over the second half of the queue (from the middle point to the last). */
function lastHalfGrowth(points: { bytes: number }[]): number {
  return (points.at(-1)?.bytes ?? 0) - (points.at(-2)?.bytes ?? 0);
}

export function mark(ok: boolean): string {
  return ok ? '(met)' : '(**missed**)';
}
