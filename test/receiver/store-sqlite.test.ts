import { chownSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/config-error.ts';
import { defaultStorePath, openStore } from '../../src/receiver/store/index.ts';
import { SCHEMA_VERSION } from '../../src/receiver/store/store.ts';
import { storeContract } from './helpers/store-contract.ts';

const dir = mkdtempSync(join(tmpdir(), 'rd-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let count = 0;

storeContract('sqlite', {
  fresh(now) {
    const path = join(dir, `s${++count}`, 'receiver.sqlite');
    return Promise.resolve({
      store: openStore(path, { now }),
      reopen: (options) => Promise.resolve(openStore(path, { now, ...options })),
      refuseWrites: () => Promise.resolve(refuseWrites(path)),
      rowCounts: () => Promise.resolve(rowCounts(path)),
    });
  },
});

/** How many rows each table holds, read past the store. */
function rowCounts(path: string): Record<'deliveries' | 'items' | 'keys', number> {
  const db = new DatabaseSync(path);
  try {
    const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return { deliveries: count('deliveries'), items: count('items'), keys: count('keys') };
  } finally {
    db.close();
  }
}

/** Every write to the tables a delivery and a readiness check write refused, as on a full disk. */
function refuseWrites(path: string): () => Promise<void> {
  const db = new DatabaseSync(path);
  const tables = ['meta', 'deliveries', 'items'];
  for (const table of tables)
    for (const when of ['INSERT', 'UPDATE'])
      db.exec(
        `CREATE TRIGGER full_${table}_${when} BEFORE ${when} ON ${table} BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`,
      );
  return () => {
    for (const table of tables) for (const when of ['INSERT', 'UPDATE']) db.exec(`DROP TRIGGER full_${table}_${when}`);
    db.close();
    return Promise.resolve();
  };
}

describe('the SQLite store file', () => {
  it('records its schema version, and refuses a file written by a newer schema', async () => {
    const path = join(dir, 'versioned.sqlite');
    await openStore(path).close();
    const db = new DatabaseSync(path);
    expect(db.prepare(`SELECT value FROM meta WHERE name = 'schema_version'`).get()).toEqual({
      value: String(SCHEMA_VERSION),
    });
    db.prepare(`UPDATE meta SET value = ? WHERE name = 'schema_version'`).run(String(SCHEMA_VERSION + 1));
    db.close();
    expect(() => openStore(path)).toThrow(/written by a newer report-deployment/);
  });

  it("takes a schema 1 file up: Flux's revisions by bare name are dropped, each then known by its identity and time", async () => {
    const path = join(dir, 'schema1.sqlite');
    await openStore(path).close();
    const db = new DatabaseSync(path);
    db.exec(
      `ALTER TABLE revisions DROP COLUMN seen_at; ALTER TABLE items DROP COLUMN via; UPDATE meta SET value = '1' WHERE name = 'schema_version'`,
    );
    db.exec(`INSERT INTO revisions (object, revision) VALUES ('Kustomization/flux-system/apps', 'r1')`);
    db.close();
    await openStore(path).close();
    const after = new DatabaseSync(path);
    expect(after.prepare(`SELECT value FROM meta WHERE name = 'schema_version'`).get()).toEqual({ value: '3' });
    // 2 → 3: every item kept came by webhook.
    expect(after.prepare(`SELECT name FROM pragma_table_info('items') WHERE name = 'via'`).all()).toEqual([
      { name: 'via' },
    ]);
    expect(after.prepare(`SELECT count(*) AS n FROM revisions`).get()).toEqual({ n: 0 });
    expect(after.prepare(`SELECT name FROM pragma_table_info('revisions') ORDER BY cid`).all()).toEqual([
      { name: 'object' },
      { name: 'revision' },
      { name: 'seen_at' },
    ]);
    after.close();
  });

  it('refuses a file that is not a store, and leaves a PostgreSQL URL to PostgreSQL', async () => {
    const other = join(dir, 'other.sqlite');
    const db = new DatabaseSync(other);
    db.exec('CREATE TABLE t (x)');
    db.close();
    expect(() => openStore(other)).toThrow(/not a receiver's store/);
    const junk = join(dir, 'junk.sqlite');
    writeFileSync(junk, 'not sqlite at all, just text that is long enough to be a header '.repeat(4));
    expect(() => openStore(junk)).toThrow(ConfigError);
    // A PostgreSQL URL is PostgreSQL's (store-postgres.test.ts), never taken for a file's path.
    const postgres = openStore('postgres://db/x');
    expect(postgres.engine).toBe('postgres');
    await postgres.close();
  });

  it("lives in systemd's state directory, else the XDG state directory", () => {
    expect(defaultStorePath({ STATE_DIRECTORY: '/var/lib/rd:/other' }, '/home/u')).toBe('/var/lib/rd/receiver.sqlite');
    expect(defaultStorePath({ XDG_STATE_HOME: '/x' }, '/home/u')).toBe('/x/report-deployment/receiver.sqlite');
    expect(defaultStorePath({ XDG_STATE_HOME: 'relative' }, '/home/u')).toBe(
      '/home/u/.local/state/report-deployment/receiver.sqlite',
    );
    expect(defaultStorePath({}, '/home/u')).toBe('/home/u/.local/state/report-deployment/receiver.sqlite');
  });

  it('is readable by its owner alone, whatever the umask, in a folder that exists already: its -wal and -shm too', async () => {
    const folder = join(dir, 'private');
    mkdirSync(folder, { mode: 0o755 });
    const path = join(folder, 'receiver.sqlite');
    const before = process.umask(0o022);
    try {
      const store = openStore(path, { sole: true });
      await store.accept({ source: 'github', deliveryId: 'd1', events: [] });
      const mode = (file: string) => (statSync(join(folder, file)).mode & 0o777).toString(8);
      expect(
        ['receiver.sqlite', 'receiver.sqlite-wal', 'receiver.sqlite-shm', 'receiver.sqlite.lock'].map(mode),
      ).toEqual(['600', '600', '600', '600']);
      await store.close();
    } finally {
      process.umask(before);
    }
  });

  it('is held by one serve at a time: a second is refused, naming the file and the process that holds it', async () => {
    const path = join(dir, 'held', 'receiver.sqlite');
    const first = openStore(path, { sole: true });
    expect(() => openStore(path, { sole: true })).toThrow(
      new RegExp(
        `^--store ${path.replace(/[.]/g, '\\.')} is in use by another report-deployment serve \\(process ${process.pid} on ${hostname()}, since \\d{4}-`,
      ),
    );
    // deliveries (no hold) works alongside.
    const alongside = openStore(path);
    expect(await alongside.list(['pending'], 10)).toEqual([]);
    await alongside.close();
    await first.close();
    // Let go at close: the next serve starts.
    const next = openStore(path, { sole: true });
    await expect(next.ping()).resolves.toBeUndefined();
    await next.close();
  });

  it('refused as held, leaves the store as it was: a newer binary does not migrate it under the running one', async () => {
    const path = join(dir, 'held-old', 'receiver.sqlite');
    const first = openStore(path, { sole: true });
    // The running one's store, as schema 1 had it: a Flux revision without its time.
    const raw = new DatabaseSync(path);
    raw.exec(
      `ALTER TABLE revisions DROP COLUMN seen_at; ALTER TABLE items DROP COLUMN via; UPDATE meta SET value = '1' WHERE name = 'schema_version'`,
    );
    raw.exec(`INSERT INTO revisions (object, revision) VALUES ('flux:apps/web', 'main@sha1:abc')`);
    expect(() => openStore(path, { sole: true })).toThrow(/is in use by another report-deployment serve/);
    expect(raw.prepare(`SELECT value FROM meta WHERE name = 'schema_version'`).get()).toEqual({ value: '1' });
    expect(raw.prepare('SELECT * FROM revisions').all()).toEqual([
      { object: 'flux:apps/web', revision: 'main@sha1:abc' },
    ]);
    raw.close();
    await first.close();
  });

  it("run as root on another user's store, leaves its -wal and -shm that user's (SQLite gives them the file's owner)", async () => {
    const path = join(dir, 'owned', 'receiver.sqlite');
    await openStore(path).close();
    const owner = process.getuid?.() === 0 ? 4321 : (process.getuid?.() ?? 0);
    if (process.getuid?.() === 0) chownSync(path, owner, owner);
    // As `deliveries` opens it: a list, an operator's retry.
    const store = openStore(path);
    await store.list(['failed'], 10);
    await expect(store.retry(1)).resolves.toEqual({ ok: false, reason: 'no delivery item 1 in this store' });
    for (const file of [path, `${path}-wal`, `${path}-shm`]) expect(statSync(file).uid).toBe(owner);
    await store.close();
  });
});
