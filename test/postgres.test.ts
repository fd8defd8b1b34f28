// The tests' PostgreSQL (test/helpers/postgres.ts): a real server, on loopback only, never as root, a fresh
// database per call, and nothing left behind once stopped.
import { existsSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { running } from './helpers/processes.ts';
import { startPostgres, testDatabase } from './helpers/postgres.ts';

async function query(url: string, sql: string): Promise<[Record<string, unknown>, ...Record<string, unknown>[]]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as [Record<string, unknown>];
  } finally {
    await client.end();
  }
}

/** The real user id a process runs as (Linux). */
const uidOf = (pid: number) => Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);

describe('the tests’ PostgreSQL', () => {
  it('gives each caller a database of its own, empty, on a real server', async () => {
    const [one, two] = await Promise.all([testDatabase('postgres test'), testDatabase('postgres test')]);
    expect(one).not.toBe(two);
    await query(one, 'CREATE TABLE mine (n int); INSERT INTO mine VALUES (1)');
    expect(await query(two, "SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'")).toEqual([
      { n: 0 },
    ]);
    const [{ version }] = await query(one, "SELECT current_setting('server_version') AS version");
    expect(String(version)).toMatch(/^\d+\.\d+/);
  });

  it.runIf(process.platform === 'linux')(
    'runs unprivileged, listens on loopback alone, and leaves no process nor file once stopped',
    async () => {
      const server = await startPostgres();
      const [{ listen, dir }] = await query(
        server.adminUrl,
        "SELECT current_setting('listen_addresses') AS listen, current_setting('data_directory') AS dir",
      );
      expect(listen).toBe('127.0.0.1');
      expect(uidOf(server.pid)).not.toBe(0);
      expect(existsSync(String(dir))).toBe(true);
      await server.stop();
      expect(running(server.pid)).toBe(false);
      expect(existsSync(String(dir))).toBe(false);
      await expect(query(server.adminUrl, 'SELECT 1')).rejects.toThrow(/ECONNREFUSED/);
    },
  );
});
