import type { ColumnsOf } from '@server/db/rows';
import type { userWallets } from '@server/db/schema/index';
import type { TxClient } from '@server/db/tx';
import type pg from 'pg';

/** The reconciliation of every wallet against its ledger rows (a minute job, the health). */
export const reconcileRepository = {
  /**
   * Every wallet whose balance or hold is not the sum of its ledger rows, or whose hourly
   * sums (what the portfolio chart reads) do not add up to that balance (empty = clean).
   */
  async reconcile(db: pg.Pool | TxClient): Promise<ReconcileRow[]> {
    const { rows } = await db.query<ReconcileRow>(RECONCILE_SQL);
    return rows;
  },
};

/**
 * A wallet that does not reconcile: as stored, what its ledger rows sum to, and what its
 * hourly sums add up to.
 */
export type ReconcileRow = ColumnsOf<
  typeof userWallets,
  'user_id' | 'asset_id' | 'balance_crypto' | 'held'
> & { wallet_id: string; expected_balance: string; expected_held: string; hourly_total: string };

/**
 * Wallets whose stored balance or hold differs from the sum of their ledger rows, or whose
 * hourly sums do not total that sum (a deleted row's two events cancel, so every hour
 * together is the balance). The hourly table is far smaller than the rows: the check stays
 * one scan of the ledger.
 */
const RECONCILE_SQL = `
WITH effects AS (
  SELECT wallet_id,
         SUM(CASE WHEN direction = 'credit' AND status = 'completed' THEN crypto_amount
                  WHEN direction = 'debit' AND status = 'completed' THEN -(crypto_amount + fee)
                  ELSE 0 END) AS balance,
         SUM(CASE WHEN direction = 'debit' AND status = 'pending' THEN crypto_amount + fee ELSE 0 END) AS held
    FROM transactions
   WHERE deleted_at IS NULL AND wallet_id IS NOT NULL
   GROUP BY wallet_id),
hourly AS (SELECT wallet_id, SUM(delta) AS total FROM wallet_hourly_effects GROUP BY wallet_id)
SELECT w.id AS wallet_id, w.user_id, w.asset_id, w.balance_crypto, w.held,
       COALESCE(e.balance, 0) AS expected_balance, COALESCE(e.held, 0) AS expected_held,
       COALESCE(h.total, 0) AS hourly_total
  FROM user_wallets w LEFT JOIN effects e ON e.wallet_id = w.id LEFT JOIN hourly h ON h.wallet_id = w.id
 WHERE w.balance_crypto <> COALESCE(e.balance, 0) OR w.held <> COALESCE(e.held, 0)
    OR COALESCE(h.total, 0) <> COALESCE(e.balance, 0)`;
