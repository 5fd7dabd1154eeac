import type pg from 'pg';

/** A pool, or a connection inside an open transaction. */
export type Queryable = pg.Pool | pg.PoolClient;

export const moneyControlsRepository = {
  /**
   * USD of the customer's withdrawals in the last 24 hours that still count: pending or
   * completed (a rejected one gave the money back, so it frees its share of the limit).
   * A range scan of the user/date index.
   */
  async withdrawnLastDayUsd(db: Queryable, userId: string): Promise<string> {
    const { rows } = await db.query<{ total: string }>({
      name: 'withdrawn_last_day',
      text: `SELECT COALESCE(SUM(usd_amount), 0)::text AS total
         FROM transactions
        WHERE user_id = $1 AND transaction_date > now() - interval '24 hours'
          AND transaction_type = 'withdrawal' AND status <> 'failed' AND deleted_at IS NULL`,
      values: [userId],
    });
    return rows[0]?.total ?? '0';
  },

  /**
   * Serializes one customer's money requests until the transaction ends, so the daily
   * limit of a request always sees the requests before it, whichever wallets they use.
   */
  async lockCustomer(client: pg.PoolClient, userId: string): Promise<void> {
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
      `money-request:${userId}`,
    ]);
  },
};
