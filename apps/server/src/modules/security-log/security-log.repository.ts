import type { ColumnsOf } from '@server/db/rows';
import type { securityEvents } from '@server/db/schema/index';
import type pg from 'pg';

/** A pool, or the connection of an open transaction: a record commits with its change. */
export type Queryable = pg.Pool | pg.PoolClient;

export type SecurityEventRow = ColumnsOf<
  typeof securityEvents,
  'id' | 'kind' | 'ip' | 'user_agent' | 'detail' | 'created_at'
>;

/** The only code that reads or writes `security_events` (append-only: migration 0007). */
export const securityLogRepository = {
  async insert(
    q: Queryable,
    row: {
      userId: string;
      kind: string;
      ip: string | null;
      userAgent: string | null;
      detail: string | null;
    },
  ): Promise<void> {
    await q.query(
      `INSERT INTO security_events (user_id, kind, ip, user_agent, detail)
       VALUES ($1, $2, $3, $4, $5)`,
      [row.userId, row.kind, row.ip, row.userAgent, row.detail],
    );
  },

  /** The user's newest events first; the id breaks ties within one transaction's `now()`. */
  async newest(q: Queryable, userId: string, limit: number): Promise<SecurityEventRow[]> {
    const { rows } = await q.query<SecurityEventRow>(
      `SELECT id::text AS id, kind, ip, user_agent, detail, created_at
         FROM security_events
        WHERE user_id = $1
        ORDER BY created_at DESC, id DESC
        LIMIT $2`,
      [userId, limit],
    );
    return rows;
  },

  /**
   * Bounds how long this transaction waits for a lock: an entry's user reference waits on
   * a lock another open transaction may hold on the user's row.
   */
  async limitLockWait(client: pg.PoolClient, milliseconds: number): Promise<void> {
    await client.query(`SELECT set_config('lock_timeout', $1, true)`, [`${milliseconds}ms`]);
  },

  async userExists(q: Queryable, userId: string): Promise<boolean> {
    const { rowCount } = await q.query('SELECT 1 FROM users WHERE id = $1', [userId]);
    return (rowCount ?? 0) > 0;
  },
};
