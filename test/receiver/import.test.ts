// `deliveries import`: a stopped receiver's SQLite store moved into a new PostgreSQL store with the
// packed CLI, nothing queued lost and nothing recorded twice: the queue in its order, held creates,
// each deployment's service id, the deduplication rows, Flux's last-seen revisions.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/receiver/store/index.ts';
import type { Work } from '../../src/receiver/store/store.ts';
import { testDatabase } from '../helpers/postgres.ts';
import { INSTALL_TIMEOUT_MS, installedCli, runCli } from '../helpers/run-cli.ts';
import { event } from './helpers/store-contract.ts';

const dir = mkdtempSync(join(tmpdir(), 'rd-import-'));
beforeAll(() => void installedCli(), INSTALL_TIMEOUT_MS);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const flux = (key: string, revision: string) =>
  event(key, 'SUCCEEDED', { baseline: { object: 'flux:uid-1', revision, at: Date.UTC(2030, 0, 1), repeats: true } });

describe('deliveries import', () => {
  it('moves the queue, held creates and deployments’ ids into an empty PostgreSQL store, once', async () => {
    const file = join(dir, 'receiver.sqlite');
    const old = openStore(file);
    await old.accept({ source: 'github', deliveryId: 'd1', events: [event('recorded', 'STARTED')] });
    await old.accept({ source: 'github', deliveryId: 'd3', events: [event('sending', 'STARTED')] });
    await old.accept({ source: 'github', deliveryId: 'd4', events: [event('held', 'STARTED')] });
    await old.accept({ source: 'flux', deliveryId: 'f1', events: [flux('flux:uid-1:r1', 'r1')] });
    for (const work of (await old.claim('old', 10, 30_000)).work) {
      if (work.key === 'recorded')
        await old.finish(work, { kind: 'created', serviceId: { text: '41', numeric: true } });
      if (work.key === 'held') await old.finish(work, { kind: 'held', error: 'timed out' });
      if (work.key === 'sending') await old.markSending(work); // the old receiver stopped mid-create
    }
    await old.accept({ source: 'gitlab', deliveryId: 'd2', events: [event('waiting', 'STARTED')] });
    const before = await old.list(['pending', 'sending', 'done', 'skipped', 'held', 'failed'], 100);
    await old.close();

    const store = await testDatabase('import');
    const imported = await runCli(['deliveries', 'import', '--from', file, '--store', store], { killAfterMs: 20_000 });
    expect(imported.exitCode, imported.stderr).toBe(0);
    expect(imported.messages).toEqual([
      expect.stringMatching(
        /^imported 4 event\(s\) \(3 still to send or settle\), 4 deployment\(s\) and 5 delivery id\(s\) from /,
      ),
    ]);

    const moved = openStore(store);
    try {
      const after = await moved.list(['pending', 'sending', 'done', 'skipped', 'held', 'failed'], 100);
      const shape = (items: typeof before) =>
        items.map(({ source, deliveryId, key, status, state, serviceId, error }) => ({
          source,
          deliveryId,
          key,
          status,
          state,
          serviceId,
          error,
        }));
      expect(shape(after)).toEqual(shape(before));
      // Known deliveries stay duplicates; a known deployment's end updates the service's id.
      expect(
        await moved.accept({ source: 'github', deliveryId: 'd1', events: [event('recorded', 'STARTED')] }),
      ).toEqual({ kind: 'duplicate' });
      await moved.accept({ source: 'github', deliveryId: 'd5', events: [event('recorded', 'SUCCEEDED')] });
      // Flux's revision came along: the same revision again is no deployment.
      expect(await moved.accept({ source: 'flux', deliveryId: 'f2', events: [flux('flux:uid-1:r1', 'r1')] })).toEqual({
        kind: 'stored',
        skipped: [{ key: 'flux:uid-1:r1', status: 'SUCCEEDED', reason: 'flux:uid-1 is still at that revision' }],
      });
      const works = (await moved.claim('new', 10, 30_000)).work;
      expect(
        works.map((work: Work) => [work.key, work.item.status, work.serviceId?.text, work.recorded]).sort(),
      ).toEqual([
        ['recorded', 'SUCCEEDED', '41', 'STARTED'],
        ['waiting', 'STARTED', undefined, undefined],
      ]);
      // The create left sending is held, as the old receiver's next start would have.
      expect((await moved.list(['held'], 10)).map((item) => item.key).sort()).toEqual(['held', 'sending']);
      // A delivery with nothing to send left no item, here or there.
      expect(await moved.list(['skipped'], 10)).toEqual([]);
    } finally {
      await moved.close();
    }

    // A second import (into a store in use) is refused, and writes nothing.
    const again = await runCli(['deliveries', 'import', '--from', file, '--store', store], { killAfterMs: 20_000 });
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain('already holds deliveries: import only into a new, empty PostgreSQL store');
  });

  it('refuses what it cannot import, naming it, before writing anything', async () => {
    const store = await testDatabase('import-refused');
    const notStore = await runCli(['deliveries', 'import', '--from', join(dir, 'none.sqlite'), '--store', store]);
    expect(notStore.exitCode).toBe(2);
    expect(notStore.stderr).toMatch(/--from names no file/);
    const other = join(dir, 'other.sqlite');
    await openStore(other).close();
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(other);
    db.exec(`UPDATE meta SET value = '99' WHERE name = 'schema_version'`);
    db.close();
    const newer = await runCli(['deliveries', 'import', '--from', other, '--store', store]);
    expect(newer.stderr).toMatch(/--from is not a receiver's store of this version \(.*schema 99, expected 3\)/);
    const notPostgres = await runCli(['deliveries', 'import', '--from', 'x.sqlite', '--store', join(dir, 'y.sqlite')]);
    expect(notPostgres.stderr).toMatch(/--store must name the PostgreSQL database to import into/);
    const noFrom = await runCli(['deliveries', 'import', '--store', store]);
    expect(noFrom.exitCode).toBe(2);
    expect(noFrom.stderr).toMatch(/import takes --from FILE/);
  });
});
