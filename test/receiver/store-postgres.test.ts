// The PostgreSQL store through the same contract as SQLite's (store-contract.ts), on a real server
// (test/helpers/postgres.ts), each case on a database of its own; then what only a shared store has to do:
// replicas starting together, claiming together, accepting the same deliveries together.
import { once } from 'node:events';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultStore, openStore, shownStore } from '../../src/receiver/store/index.ts';
import { connectionConfig } from '../../src/receiver/store/postgres-connection.ts';
import { SCHEMA_VERSION, type Store, type Work } from '../../src/receiver/store/store.ts';
import { testDatabase } from '../helpers/postgres.ts';
import { event, storeContract } from './helpers/store-contract.ts';
import { waitFor } from '../helpers/wait.ts';

const opened: Store[] = [];
afterAll(async () => {
  for (const store of opened) await store.close().catch(() => undefined);
});
const trackOpen = (store: Store) => {
  opened.push(store);
  return store;
};
const open = (url: string, now?: () => number) => trackOpen(openStore(url, now ? { now } : {}));

storeContract('postgres', {
  shared: true,
  async fresh(now) {
    const url = await testDatabase('contract');
    return {
      store: open(url, now),
      reopen: (options) => Promise.resolve(trackOpen(openStore(url, { now, ...options }))),
      refuseWrites: () => refuseWrites(url),
      rowCounts: async () => {
        const [row] = await sql(
          url,
          `SELECT (SELECT count(*) FROM report_deployment.deliveries)::int AS deliveries,
             (SELECT count(*) FROM report_deployment.items)::int AS items, (SELECT count(*) FROM report_deployment.keys)::int AS keys`,
        );
        return row as Record<'deliveries' | 'items' | 'keys', number>;
      },
    };
  },
});

async function sql(url: string, text: string, values: unknown[] = []): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

/** Every write to the tables a delivery and a readiness check write refused, as on a full disk. */
async function refuseWrites(url: string): Promise<() => Promise<void>> {
  const tables = ['meta', 'deliveries', 'items'];
  await sql(
    url,
    `CREATE FUNCTION public.disk_full() RETURNS trigger LANGUAGE plpgsql AS
       $$ BEGIN RAISE EXCEPTION 'could not extend file: the disk is full'; END $$`,
  );
  for (const table of tables)
    await sql(
      url,
      `CREATE TRIGGER disk_full BEFORE INSERT OR UPDATE ON report_deployment.${table} FOR EACH STATEMENT EXECUTE FUNCTION public.disk_full()`,
    );
  return async () => {
    for (const table of tables) await sql(url, `DROP TRIGGER disk_full ON report_deployment.${table}`);
    await sql(url, 'DROP FUNCTION public.disk_full()');
  };
}

/**
 * A TCP relay on loopback to PostgreSQL that can go silent: the connections it carries stay open
 * and pass nothing on, as across a network that drops every packet (no reset, no FIN).
 */
async function silentRelay(target: number) {
  const carried: Socket[] = [];
  let silent = false;
  const server = createServer((client) => {
    if (silent) return void carried.push(client); // a new connection meets silence too
    const upstream = connect(target, '127.0.0.1');
    carried.push(client, upstream);
    client.on('data', (chunk: Buffer) => void (silent || upstream.write(chunk)));
    upstream.on('data', (chunk: Buffer) => void (silent || client.write(chunk)));
    client.on('error', () => undefined);
    upstream.on('error', () => undefined);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    silence: () => (silent = true),
    /** New connections are carried again; the silent ones stay silent. */
    speak: () => (silent = false),
    close: () => {
      for (const socket of carried) socket.destroy();
      server.close();
    },
  };
}

describe('the PostgreSQL store', () => {
  it('is made by whichever of several replicas starts first, once, and refuses a newer schema', async () => {
    const url = await testDatabase('migrate');
    const replicas = Array.from({ length: 6 }, () => open(url));
    await Promise.all(replicas.map((store) => store.ping()));
    expect(await sql(url, `SELECT value FROM report_deployment.meta WHERE name = 'schema_version'`)).toEqual([
      { value: String(SCHEMA_VERSION) },
    ]);
    await sql(url, `UPDATE report_deployment.meta SET value = $1 WHERE name = 'schema_version'`, [
      String(SCHEMA_VERSION + 1),
    ]);
    await expect(open(url).ping()).rejects.toThrow(/written by a newer report-deployment/);
  });

  it("takes a schema 1 database up: Flux's revisions by bare name are dropped, each then known by its time", async () => {
    const url = await testDatabase('migrate-1');
    await open(url).ping();
    await sql(url, `ALTER TABLE report_deployment.revisions DROP COLUMN seen_at`);
    await sql(url, `ALTER TABLE report_deployment.items DROP COLUMN via`);
    await sql(url, `UPDATE report_deployment.meta SET value = '1' WHERE name = 'schema_version'`);
    await sql(url, `INSERT INTO report_deployment.revisions (object, revision) VALUES ('Kustomization/x/apps', 'r1')`);
    await open(url).ping();
    expect(await sql(url, `SELECT value FROM report_deployment.meta WHERE name = 'schema_version'`)).toEqual([
      { value: '3' },
    ]);
    expect(await sql(url, `SELECT object, seen_at FROM report_deployment.revisions`)).toEqual([]);
  });

  it("runs exclusive work on one replica at a time: another's is refused while it runs, and taken after", async () => {
    const url = await testDatabase('exclusive');
    const [first, second] = [open(url), open(url)];
    let finish: () => void = () => undefined;
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    const firstRan = first.exclusive('catch-up:github', () => {
      started();
      return new Promise<void>((resolve) => (finish = resolve));
    });
    await running;
    let secondWorked = false;
    expect(await second.exclusive('catch-up:github', () => Promise.resolve(void (secondWorked = true)))).toBe(false);
    expect(secondWorked).toBe(false);
    // Another name is another lock.
    expect(await second.exclusive('catch-up:gitlab', () => Promise.resolve())).toBe(true);
    finish();
    expect(await firstRan).toBe(true);
    expect(await second.exclusive('catch-up:github', () => Promise.resolve(void (secondWorked = true)))).toBe(true);
    expect(secondWorked).toBe(true);
  });

  it('closes without waiting for exclusive work under way, and its lock goes with it', async () => {
    const url = await testDatabase('exclusive-stop');
    const stopping = openStore(url, {});
    const other = open(url);
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    // Work that never ends by itself (a catch-up pass waiting on a sender).
    const work = stopping.exclusive('catch-up:argocd', () => {
      started();
      return new Promise<void>(() => undefined);
    });
    void work.catch(() => undefined);
    await running;
    expect(await other.exclusive('catch-up:argocd', () => Promise.resolve())).toBe(false);
    await stopping.close();
    expect(await other.exclusive('catch-up:argocd', () => Promise.resolve())).toBe(true);
  });

  it('hands each due key to one replica at a time, however many claim together', async () => {
    const url = await testDatabase('claims');
    const [first, ...others] = Array.from({ length: 4 }, () => open(url));
    const keys = Array.from({ length: 60 }, (_, index) => `k${index}`);
    for (const key of keys) await first!.accept({ source: 'github', deliveryId: key, events: [event(key, 'STARTED')] });
    const claims = await Promise.all([first!, ...others].map((store, index) => store.claim(`r${index}`, 25, 30_000)));
    const claimed = claims.flatMap((claim) => claim.work).map((work) => work.key);
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claimed.sort()).toEqual(keys.sort());
  });

  it('stores a delivery once when several replicas take it at once, one start a key, and never deadlocks', async () => {
    const url = await testDatabase('twins');
    const replicas = Array.from({ length: 3 }, () => open(url));
    // Each replica takes the same 100 deliveries, in an order of its own, and 50 of its own, all on 7 keys.
    const shared = Array.from({ length: 100 }, (_, index) => `d${index}`);
    const orders = [shared, [...shared].reverse(), [...shared.slice(50), ...shared.slice(0, 50)]];
    const results = await Promise.all(
      replicas.map((store, replica) => {
        const own = Array.from({ length: 50 }, (_, index) => `r${replica}-${index}`);
        const ids = (orders[replica] as string[]).flatMap((id, index) => [id, ...(index % 2 ? [] : [own[index / 2]])]);
        return Promise.all(
          ids.map((id, index) =>
            store.accept({ source: 'flux', deliveryId: id as string, events: [event(`k${index % 7}`, 'STARTED')] }),
          ),
        );
      }),
    );
    const stored = results.flat().filter((result) => result.kind === 'stored');
    expect(stored).toHaveLength(250);
    // One start per key is queued; every other start of a key is skipped as it arrives, and said.
    expect((await replicas[0]!.stats()).queueDepth).toBe(7);
    expect(stored.filter((result) => result.skipped.length === 1)).toHaveLength(243);
    expect((await replicas[0]!.list(['skipped'], 1000)).length).toBe(0);
    // Deliveries of their own only, on the same new keys, at the same moment.
    await Promise.all(
      replicas.map((store, replica) =>
        Promise.all(
          Array.from({ length: 30 }, (_, index) =>
            store.accept({
              source: 'argocd',
              deliveryId: `${replica}-${index}`,
              events: [event(`j${index % 7}`, 'STARTED')],
            }),
          ),
        ),
      ),
    );
    expect((await replicas[0]!.stats()).queueDepth).toBe(14);
  });

  it('decides a key under its lock: two replicas ending one deployment at the same moment queue one end', async () => {
    const url = await testDatabase('one-end');
    const [one, two] = [open(url), open(url)];
    await one.accept({ source: 'github', deliveryId: 'start', events: [event('k', 'STARTED')] });
    // Hold the key, so that both ends arrive while the other is undecided.
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query(`SELECT 1 FROM report_deployment.keys WHERE key = 'k' FOR UPDATE`);
    const ends = [
      one.accept({ source: 'github', deliveryId: 'success', events: [event('k', 'SUCCEEDED')] }),
      two.accept({ source: 'github', deliveryId: 'failure', events: [event('k', 'FAILED')] }),
    ];
    // Both wait for the key (seen from outside the holder's transaction, whose view of the activity is fixed).
    let waiting = 0;
    const bothWait = async () => {
      const [row] = await sql(
        url,
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      waiting = Number(row?.n);
      return waiting >= 2;
    };
    await waitFor(bothWait, { timeoutMs: 10_000 }).catch(() => undefined);
    expect(waiting).toBe(2);
    await holder.query('COMMIT');
    await holder.end();
    const results = await Promise.all(ends);
    expect(results.map((result) => result.kind)).toEqual(['stored', 'stored']);
    const pending = await one.list(['pending'], 10);
    // Oldest first: the start, then whichever end won the key.
    expect(pending.map((item) => item.status)).toEqual(['STARTED', expect.stringMatching(/SUCCEEDED|FAILED/)]);
    // The later end is skipped, and says so.
    expect(results.flatMap((result) => (result.kind === 'stored' ? result.skipped : []))).toEqual([
      {
        key: 'k',
        status: expect.stringMatching(/SUCCEEDED|FAILED/) as string,
        reason: expect.stringMatching(/^the deployment has ended already/) as string,
      },
    ]);
  });

  it('lets another replica finish a dead replica’s work once its lease ends, and holds its create', async () => {
    let clock = Date.UTC(2030, 0, 1);
    const url = await testDatabase('takeover');
    const [dying, survivor] = [open(url, () => clock), open(url, () => clock)];
    await dying.accept({ source: 'github', deliveryId: 'a', events: [event('ka', 'STARTED')] });
    await dying.accept({ source: 'github', deliveryId: 'b', events: [event('kb', 'STARTED')] });
    const [sending, idle] = (await dying.claim('dying', 2, 10_000)).work as [Work, Work];
    await dying.markSending(sending);
    expect((await survivor.claim('survivor', 5, 10_000)).work).toEqual([]);
    clock += 10_000;
    const taken = (await survivor.claim('survivor', 5, 10_000)).work;
    expect(taken.map((work) => work.key)).toEqual([idle.key]);
    expect((await survivor.list(['held'], 5)).map((item) => item.key)).toEqual([sending.key]);
    expect(await dying.finish(idle, { kind: 'updated' })).toBe(false);
  });

  it('reads TLS as libpq does, from the URL or PGSSLMODE and its files, and hides the password from messages', () => {
    expect(connectionConfig('postgres://u:p@db:5433/app?sslmode=disable', {})).toMatchObject({
      host: 'db',
      port: '5433',
      user: 'u',
      password: 'p',
      database: 'app',
      ssl: false,
    });
    // libpq's require: encrypted, the certificate not checked (pg alone would check it).
    expect(connectionConfig('postgres://db/app?sslmode=require', {}).ssl).toMatchObject({ rejectUnauthorized: false });
    expect(connectionConfig('postgres://db/app', { PGSSLMODE: 'require' }).ssl).toMatchObject({
      rejectUnauthorized: false,
    });
    expect(connectionConfig('postgres://db/app?sslmode=verify-full', { PGSSLMODE: 'disable' }).ssl).toEqual({});
    expect(connectionConfig('postgres://db/app', {}).ssl).toBeUndefined();
    // What the URL leaves out, pg takes from PGHOST, PGUSER...: nothing of it is set here.
    expect(Object.keys(connectionConfig('postgres://', {}))).toEqual([]);
    expect(shownStore('postgres://me:s3cr%40t@db/app')).toBe('postgres://me:***@db/app');
    expect(shownStore('postgres://me:s3cr@t@db/app?sslmode=require')).toBe('postgres://me:***@db/app?sslmode=require');
    expect(shownStore('postgresql://db/app')).toBe('postgresql://db/app');
    expect(shownStore('/var/lib/rd/receiver.sqlite')).toBe('/var/lib/rd/receiver.sqlite');
  });

  it('is the store where --store is not given and DATABASE_URL names a PostgreSQL database', () => {
    expect(defaultStore({ DATABASE_URL: 'postgres://db/app' }, '/home/u')).toBe('postgres://db/app');
    expect(defaultStore({ DATABASE_URL: 'postgresql://db/app', STATE_DIRECTORY: '/s' }, '/home/u')).toBe(
      'postgresql://db/app',
    );
    // Another kind of database (another program's), or none: the SQLite file.
    expect(defaultStore({ DATABASE_URL: 'mysql://db/app', STATE_DIRECTORY: '/s' }, '/home/u')).toBe(
      '/s/receiver.sqlite',
    );
    expect(defaultStore({ DATABASE_URL: ' ' }, '/home/u')).toBe(
      '/home/u/.local/state/report-deployment/receiver.sqlite',
    );
  });

  it('refuses NODE_PG_FORCE_NATIVE before loading pg: its native binding is not shipped', () => {
    process.env.NODE_PG_FORCE_NATIVE = '1';
    try {
      expect(() => openStore('postgres://db/app')).toThrow(/NODE_PG_FORCE_NATIVE asks pg for its native binding/);
    } finally {
      delete process.env.NODE_PG_FORCE_NATIVE;
    }
  });

  it('takes what the URL leaves out from the PG* variables, as libpq does', async () => {
    const url = new URL(await testDatabase('pg-variables'));
    const variables = {
      PGHOST: url.hostname,
      PGPORT: url.port,
      PGUSER: url.username,
      PGDATABASE: url.pathname.slice(1),
    };
    const saved = Object.fromEntries(Object.keys(variables).map((name) => [name, process.env[name]]));
    Object.assign(process.env, variables);
    try {
      const store = open('postgres://');
      await store.accept({ source: 'gitlab', deliveryId: 'g1', events: [event('kg', 'STARTED')] });
      expect((await store.list(['pending'], 5)).map((item) => item.deliveryId)).toEqual(['g1']);
    } finally {
      for (const [name, value] of Object.entries(saved))
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
    }
    expect(
      (await sql(url.href, 'SELECT delivery_id FROM report_deployment.items')).map((row) => row.delivery_id),
    ).toEqual(['g1']);
  });

  it('bounds every query in time: a connection gone silent (no reset) fails within the bound, and a new one is made', async () => {
    const url = new URL(await testDatabase('silent'));
    const relay = await silentRelay(Number(url.port));
    url.port = String(relay.port);
    const store = trackOpen(openStore(url.href, { queryTimeoutMs: 800 }));
    await store.ping();
    relay.silence();
    const started = Date.now();
    // Bounded here too: without the bound, the ping would wait for the kernel's keepalive.
    const outcome = await Promise.race([
      store.ping().then(
        () => 'answered',
        (error: unknown) => String(error),
      ),
      new Promise((resolve) => setTimeout(() => resolve('still waiting after 8 s'), 8000)),
    ]);
    expect(outcome).toMatch(/timeout/i);
    expect(Date.now() - started).toBeLessThan(4000);
    // The silent connection is dropped, not handed out again: the next ping connects anew.
    relay.speak();
    await expect(store.ping()).resolves.toBeUndefined();
    relay.close();
  });

  it('says which database it cannot reach, its password hidden, and becomes ready once it can', async () => {
    const refused = open('postgres://nobody:hunter2@127.0.0.1:1/none?connect_timeout=2').ping();
    await expect(refused).rejects.toThrow(
      /--store cannot be opened as a PostgreSQL store \(postgres:\/\/nobody:\*\*\*@127\.0\.0\.1:1\/none.*ECONNREFUSED/,
    );
    await expect(refused).rejects.not.toThrow(/hunter2/);
    // A database that is not there yet: not ready, then ready once it is made, the same store.
    const url = new URL(await testDatabase('later'));
    const later = `${url.pathname.slice(1)}_made_later`;
    url.pathname = `/${later}`;
    const store = open(url.href);
    await expect(store.ping()).rejects.toThrow(/does not exist/);
    url.pathname = '/postgres';
    await sql(url.href, `CREATE DATABASE ${later}`);
    await expect(store.ping()).resolves.toBeUndefined();
  });
});
