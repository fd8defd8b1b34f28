// A bounded fan-out: many requests, a few in flight, and none started once it is called off.

/** What became of an item: as Promise.allSettled says, or never started (the fan-out was called off first). */
type Settled<R> = PromiseSettledResult<R> | { status: 'not-started' };

/**
 * `task` for every item, at most `limit` at once; the results in the items' order. Once `signal` is
 * aborted no further task starts (those under way finish); the items left are 'not-started'.
 */
export async function settleAll<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
  signal?: AbortSignal,
): Promise<Settled<R>[]> {
  const results: Settled<R>[] = items.map(() => ({ status: 'not-started' }));
  let next = 0;
  async function worker(): Promise<void> {
    while (next < items.length && !signal?.aborted) {
      const index = next++;
      try {
        results[index] = { status: 'fulfilled', value: await task(items[index] as T) };
      } catch (reason) {
        results[index] = { status: 'rejected', reason };
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
