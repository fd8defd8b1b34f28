// The catch-up marks (src/receiver/store/*catch-up-marks.ts) on both engines: the first call's time
// stays, per source and name, across a reopened store; on PostgreSQL, replicas asking at once agree.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { CatchUpMarks } from '../../src/receiver/store/catch-up-marks.ts';
import { postgresCatchUpMarks } from '../../src/receiver/store/postgres-catch-up-marks.ts';
import { openPostgresStore } from '../../src/receiver/store/postgres.ts';
import { sqliteCatchUpMarks } from '../../src/receiver/store/sqlite-catch-up-marks.ts';
import { loadSqlite } from '../../src/receiver/store/sqlite-load.ts';
import { openSqliteStore } from '../../src/receiver/store/sqlite.ts';
import { testDatabase } from '../helpers/postgres.ts';

const T0 = Date.parse('2026-03-02T10:00:00Z');

async function keepsTheFirst(marks: CatchUpMarks, reopened: () => CatchUpMarks): Promise<void> {
  expect(await marks.markOf('argocd', 'argocd.example.com', T0)).toBe(T0);
  expect(await marks.markOf('argocd', 'argocd.example.com', T0 + 300_000)).toBe(T0);
  expect(await marks.markOf('argocd', 'argocd.example.com:8443', T0 + 600_000)).toBe(T0 + 600_000);
  expect(await marks.markOf('gitlab', 'argocd.example.com', T0 + 900_000)).toBe(T0 + 900_000);
  expect(await reopened().markOf('argocd', 'argocd.example.com', T0 + 1_200_000)).toBe(T0);
}

describe('catch-up marks on SQLite', () => {
  const folder = mkdtempSync(join(tmpdir(), 'catch-up-marks-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("keeps the first call's time per source and name, in the store's own file, beside its tables", async () => {
    const path = join(folder, 'store.db');
    // The store made the file; the marks' table joins it.
    const store = openSqliteStore(path);
    const open = () => new (loadSqlite().DatabaseSync)(path);
    const db = open();
    const again = open();
    try {
      await keepsTheFirst(sqliteCatchUpMarks(db), () => sqliteCatchUpMarks(again));
      await store.close();
      // The store still opens a file that holds the marks' table.
      await openSqliteStore(path).close();
    } finally {
      db.close();
      again.close();
    }
  });
});

describe('catch-up marks on PostgreSQL', () => {
  const pools: pg.Pool[] = [];
  afterAll(async () => {
    for (const pool of pools) await pool.end();
  });
  const pool = (url: string) => {
    const made = new pg.Pool({ connectionString: url, max: 2 });
    pools.push(made);
    return made;
  };

  it("keeps the first call's time per source and name, in the store's schema", async () => {
    const url = await testDatabase('marks');
    const store = openPostgresStore(url);
    await store.ping();
    await keepsTheFirst(postgresCatchUpMarks(pool(url)), () => postgresCatchUpMarks(pool(url)));
    await store.close();
  });

  it('gives replicas that ask at once, on a fresh database, the one mark stored first', async () => {
    const url = await testDatabase('marks-race');
    const replicas = Array.from({ length: 4 }, () => postgresCatchUpMarks(pool(url)));
    const marks = await Promise.all(replicas.map((marks, i) => marks.markOf('argocd', 'argocd.example.com', T0 + i)));
    expect(new Set(marks).size).toBe(1);
    expect(marks[0]).toBeGreaterThanOrEqual(T0);
    expect(await replicas[3]!.markOf('argocd', 'argocd.example.com', T0 + 99)).toBe(marks[0]);
  });
});
