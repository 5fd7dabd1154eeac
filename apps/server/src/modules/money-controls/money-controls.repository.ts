import type pg from 'pg';

/** A pool, or a connection inside an open transaction. */
export type Queryable = pg.Pool | pg.PoolClient;

export const moneyControlsRepository = {
  /**
   * USD of the customer's payouts in the last 24 hours that still count: crypto withdrawals
   * and bank payouts (product.md M11), pending or completed (a rejected one gave the money
   * back, so it frees its share of the limit). A range scan of the user/date index. A bank
   * transfer from before bank payouts were funded kept its AUD figure in usd_amount: its
   * USD is the AUD amount at the rate stored with it.
   */
  async withdrawnLastDayUsd(db: Queryable, userId: string): Promise<string> {
    const { rows } = await db.query<{ total: string }>({
      name: 'withdrawn_last_day',
      text: `SELECT COALESCE(SUM(CASE WHEN direction = 'none' AND exchange_rate IS NOT NULL
                                      THEN round(aud_amount * exchange_rate, 2)
                                      ELSE usd_amount END), 0)::text AS total
         FROM transactions
        WHERE user_id = $1 AND transaction_date > now() - interval '24 hours'
          AND transaction_type IN ('withdrawal', 'bank_transfer') AND status <> 'failed'
          AND deleted_at IS NULL`,
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
