import type pg from 'pg';

/** The outbox's backlog: rows waiting, rows given up, and how late the oldest due row is. */
export type OutboxBacklogRow = { pending: number; given_up: number; overdue: number };

/** The probes' statements: each a cheap read, run on the pool. */
export const healthRepository = {
  /** The smallest round trip: resolves when the database answers. */
  async ping(db: pg.Pool): Promise<void> {
    await db.query('SELECT 1');
  },

  async outboxBacklog(db: pg.Pool): Promise<OutboxBacklogRow | null> {
    // Given-up rows wait at 'infinity' for an operator; retried rows are re-dated forward, so
    // only a row whose time has come and gone says the delivery job is not running.
    const { rows } = await db.query<OutboxBacklogRow>(
      `SELECT count(*) FILTER (WHERE next_attempt_at <> 'infinity')::int AS pending,
              count(*) FILTER (WHERE next_attempt_at = 'infinity')::int AS given_up,
              coalesce(extract(epoch FROM now() - min(next_attempt_at)
                FILTER (WHERE next_attempt_at <= now())), 0)::float8 AS overdue
         FROM outbox WHERE done_at IS NULL`,
    );
    return rows[0] ?? null;
  },

  /** The creation time of the newest applied migration; throws without a migrations table. */
  async newestMigration(db: pg.Pool): Promise<string | null> {
    const { rows } = await db.query<{ newest: string | null }>(
      'SELECT max(created_at)::text AS newest FROM drizzle.__drizzle_migrations',
    );
    return rows[0]?.newest ?? null;
  },
};
