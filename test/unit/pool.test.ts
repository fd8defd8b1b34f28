import { describe, expect, it } from 'vitest';
import { settleAll } from '../../src/core/pool.ts';

describe('settleAll', () => {
  it('keeps at most `limit` tasks in flight, and the results in order', async () => {
    let inFlight = 0;
    let most = 0;
    const results = await settleAll(
      Array.from({ length: 50 }, (_, i) => i),
      8,
      async (item) => {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setImmediate(resolve));
        inFlight--;
        if (item % 10 === 3) throw new Error(`no ${item}`);
        return item * 2;
      },
    );
    expect(most).toBe(8);
    expect(results).toHaveLength(50);
    expect(results[2]).toEqual({ status: 'fulfilled', value: 4 });
    expect(results[13]).toEqual({ status: 'rejected', reason: new Error('no 13') });
  });

  it('starts no task once the signal is aborted; those under way finish; the rest are not-started', async () => {
    const controller = new AbortController();
    const started: number[] = [];
    const results = await settleAll(
      Array.from({ length: 20 }, (_, i) => i),
      8,
      async (item) => {
        started.push(item);
        if (item === 9) controller.abort();
        await new Promise((resolve) => setImmediate(resolve));
        return item;
      },
      controller.signal,
    );
    expect(started).toEqual(Array.from({ length: 10 }, (_, i) => i));
    expect(results.slice(0, 10)).toEqual(started.map((value) => ({ status: 'fulfilled', value })));
    expect(results.slice(10)).toEqual(Array.from({ length: 10 }, () => ({ status: 'not-started' })));
  });

  it('does nothing for no items', async () => {
    expect(await settleAll([], 8, () => Promise.resolve(1))).toEqual([]);
  });
});
