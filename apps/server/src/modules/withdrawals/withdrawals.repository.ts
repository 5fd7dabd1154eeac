import type { ColumnsOf } from '@server/db/rows';
import type { users } from '@server/db/schema/index';
import type pg from 'pg';
import type { TransactionRow } from '../ledger';

export const withdrawalsRepository = {
  /**
   * A payout row (crypto withdrawal or bank transfer), locked; staff actions on one request
   * wait for each other.
   */
  async lockWithdrawal(client: pg.PoolClient, id: string): Promise<TransactionRow | null> {
    const { rows } = await client.query<TransactionRow>(
      `SELECT * FROM transactions
        WHERE id = $1 AND transaction_type IN ('withdrawal', 'bank_transfer') AND deleted_at IS NULL
        FOR UPDATE`,
      [id],
    );
    return rows[0] ?? null;
  },

  /**
   * Whether staff approved this withdrawal for payment: its row in payouts. Read after the
   * withdrawal's lock, which an approval takes too, so an approval is either committed and
   * seen here or waits for this transaction and then finds the row no longer pending.
   */
  async hasPayout(client: pg.PoolClient, transactionId: string): Promise<boolean> {
    const { rows } = await client.query<{ found: boolean }>(
      'SELECT EXISTS (SELECT 1 FROM payouts WHERE transaction_id = $1) AS found',
      [transactionId],
    );
    return rows[0]?.found ?? false;
  },

  async emailOf(db: pg.Pool | pg.PoolClient, userId: string): Promise<string | null> {
    const { rows } = await db.query<ColumnsOf<typeof users, 'email'>>(
      'SELECT email FROM users WHERE id = $1',
      [userId],
    );
    return rows[0]?.email ?? null;
  },
};
