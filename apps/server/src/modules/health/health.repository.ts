import type pg from 'pg';

/** The outbox's backlog: rows waiting, rows given up, and how late the oldest due row is. */
export type OutboxBacklog = { pending: number; givenUp: number; overdueSeconds: number };

/** The probes' statements: each a cheap read, run on the pool. */
export const healthRepository = {
  /** The smallest round trip: resolves when the database answers. */
  async ping(db: pg.Pool): Promise<void> {
    await db.query('SELECT 1');
  },

  async outboxBacklog(db: pg.Pool): Promise<OutboxBacklog> {
    // Given-up rows wait at 'infinity' for an operator; retried rows are re-dated forward, so
    // only a row whose time has come and gone says the delivery job is not running.
    const { rows } = await db.query<{ pending: number; given_up: number; overdue: number }>(
      `SELECT count(*) FILTER (WHERE next_attempt_at <> 'infinity')::int AS pending,
              count(*) FILTER (WHERE next_attempt_at = 'infinity')::int AS given_up,
              coalesce(extract(epoch FROM now() - min(next_attempt_at)
                FILTER (WHERE next_attempt_at <= now())), 0)::float8 AS overdue
         FROM outbox WHERE done_at IS NULL`,
    );
    const row = rows[0];
    return {
      pending: row?.pending ?? 0,
      givenUp: row?.given_up ?? 0,
      overdueSeconds: row?.overdue ?? 0,
    };
  },

  /**
   * The creation time of the newest applied migration (the journal's `when`, in ms), or null
   * when none is; throws without a migrations table.
   */
  async newestMigration(db: pg.Pool): Promise<number | null> {
    // As text: the column is a bigint, which the driver hands over as a string anyway.
    const { rows } = await db.query<{ newest: string | null }>(
      'SELECT max(created_at)::text AS newest FROM drizzle.__drizzle_migrations',
    );
    const newest = rows[0]?.newest;
    return newest == null ? null : Number(newest);
  },
};
