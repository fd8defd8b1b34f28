// Store.exclusive on PostgreSQL: work of one name runs on one replica at a time, under a session
// advisory lock on a connection of its own. A replica that dies lets the lock go with its connection;
// one that stops mid-work drops that connection (the lock with it) rather than wait for the work.
import type pg from 'pg';

/** The advisory locks' class for `exclusive` (any fixed number; the name is the second key). */
const EXCLUSIVE_LOCKS = 73_604_219;

export function postgresExclusive(pool: pg.Pool, ready: () => Promise<void>) {
  const holding = new Set<pg.PoolClient>();
  /** Lets go of each lock held, its connection closed: the stop does not wait for the work. */
  const letGo = () => {
    for (const client of holding) client.release(new Error('the store is closing'));
    holding.clear();
  };
  async function exclusive(name: string, work: () => Promise<void>): Promise<boolean> {
    await ready();
    const client = await pool.connect();
    holding.add(client);
    try {
      const [row] = (
        await client.query('SELECT pg_try_advisory_lock($1, hashtext($2)) AS got', [EXCLUSIVE_LOCKS, name])
      ).rows as Array<{ got: boolean }>;
      if (!row?.got) return false;
      try {
        await work();
      } finally {
        await client
          .query('SELECT pg_advisory_unlock($1, hashtext($2))', [EXCLUSIVE_LOCKS, name])
          .catch(() => undefined);
      }
      return true;
    } finally {
      // Not when the stop let it go already.
      if (holding.delete(client)) client.release();
    }
  }
  return { exclusive, letGo };
}
