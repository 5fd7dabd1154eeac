import type { TxClient } from '@server/db/tx';
import type pg from 'pg';

/** One counter as an attempt left it: its count, its window's start, seconds left in it. */
export type Counted = { key: string; count: number; started: string; retry: number };

export const rateLimitRepository = {
  /**
   * Adds `weight` to the counter of `key`, starting a new window when the last one ended; the
   * counter's row stays locked until the caller's transaction ends.
   */
  async count(
    client: TxClient,
    key: string,
    windowSeconds: number,
    weight: number,
  ): Promise<Counted | null> {
    const { rows } = await client.query<Counted>(
      // The clock, not the transaction's start: an attempt that queued on the lock must
      // not see a window that began after it did as longer than the window itself.
      `INSERT INTO rate_limits AS r (key, window_start, count) VALUES ($1, clock_timestamp(), $3)
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN r.window_start + make_interval(secs => $2) <= clock_timestamp() THEN $3 ELSE r.count + $3 END,
         window_start = CASE WHEN r.window_start + make_interval(secs => $2) <= clock_timestamp() THEN clock_timestamp() ELSE r.window_start END
       RETURNING key, count, window_start::text AS started,
         CEIL(EXTRACT(EPOCH FROM (window_start + make_interval(secs => $2) - clock_timestamp())))::int AS retry`,
      [key, windowSeconds, weight],
    );
    return rows[0] ?? null;
  },

  /**
   * Takes `weight` off each counter again, only in the window it was counted in. The rows
   * are locked in the order given, which is `consume`'s (`inKeyOrder`): in whatever order
   * the plan met them (or the database's collation sorted the keys), this statement and a
   * parallel count of the same keys could each hold what the other waits for.
   */
  async uncount(db: pg.Pool, counted: readonly Counted[], weight: number): Promise<void> {
    await db.query(
      `WITH locked AS (
         SELECT r.key FROM rate_limits r
           JOIN unnest($1::text[], $2::timestamptz[]) WITH ORDINALITY AS c(key, started, n)
             ON r.key = c.key AND r.window_start = c.started
          ORDER BY c.n FOR UPDATE OF r)
       UPDATE rate_limits r SET count = GREATEST(r.count - $3, 0)
         FROM locked l WHERE r.key = l.key`,
      [counted.map((c) => c.key), counted.map((c) => c.started), weight],
    );
  },

  async clear(db: pg.Pool, keys: string[]): Promise<void> {
    await db.query('DELETE FROM rate_limits WHERE key = ANY($1::text[])', [keys]);
  },

  /** Old windows; a row an attempt holds right now is left for the next sweep. */
  async deleteStale(db: pg.Pool): Promise<void> {
    await db.query(
      `DELETE FROM rate_limits WHERE key IN (
         SELECT key FROM rate_limits WHERE window_start < now() - interval '1 day'
            FOR UPDATE SKIP LOCKED)`,
    );
  },
};
