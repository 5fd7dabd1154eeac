import type pg from 'pg';

/** Anything that can run a query: the pool, a client inside a transaction, or a connection of its own. */
export type Queryable = Pick<pg.ClientBase, 'query'>;

/**
 * The realtime module's statements: NOTIFYs that carry events to every instance, and the
 * shared advisory locks that say who is online (presence.ts holds them on a connection of
 * its own, so they live exactly as long as that connection).
 */
export const realtimeRepository = {
  /** One NOTIFY; on a transaction's client it is sent only if that transaction commits. */
  async notify(db: Queryable, channel: string, payload: string): Promise<void> {
    await db.query('SELECT pg_notify($1, $2)', [channel, payload]);
  },

  /** One NOTIFY per payload, in one statement. */
  async notifyEach(db: Queryable, channel: string, payloads: string[]): Promise<void> {
    await db.query('SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p', [channel, payloads]);
  },

  /** Takes a shared advisory lock (namespace, key), held until unlocked or the connection ends. */
  async lockShared(c: Queryable, namespace: number, key: number): Promise<void> {
    await c.query('SELECT pg_advisory_lock_shared($1, $2)', [namespace, key]);
  },

  async unlockShared(c: Queryable, namespace: number, key: number): Promise<void> {
    await c.query('SELECT pg_advisory_unlock_shared($1, $2)', [namespace, key]);
  },

  /** Whether any connection to this database holds the shared advisory lock (namespace, key). */
  async isLockedShared(db: Queryable, namespace: number, key: number): Promise<boolean> {
    const { rows } = await db.query<{ online: boolean }>(
      `SELECT EXISTS (
         SELECT 1 FROM pg_locks
          WHERE locktype = 'advisory' AND granted
            AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
            AND classid = $1::bigint::oid AND objid = $2::bigint::oid AND objsubid = 2
       ) AS online`,
      [namespace, key],
    );
    return rows[0]?.online ?? false;
  },
};
