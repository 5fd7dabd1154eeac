import type { ColumnsOf } from '@server/db/rows';
import type { chainDeposits, users } from '@server/db/schema/index';
import type pg from 'pg';
import type { ChainName } from './chain-adapter';

/** A chain's figures for the status screen: counts, its latest error, its setting, the clock. */
export type StatusCounts = {
  confirming: number;
  reversed: number;
  errors: number;
  required: string | null;
  latest_error: string | null;
  latest_error_at: Date | null;
  db_now: Date;
};

/** A credited deposit that left its chain, with its owner's e-mail (the amount as text). */
export type ReversedDepositRow = ColumnsOf<
  typeof chainDeposits,
  'id' | 'chain' | 'tx_hash' | 'user_id' | 'asset_id' | 'amount_minor' | 'updated_at'
> &
  ColumnsOf<typeof users, 'email'>;

/** The figures `chain-status.ts` and the Chains screen read. */
export const chainStatusRepository = {
  /** A chain's deposit and error counts, its latest error and its confirmations setting. */
  async statusCounts(
    db: pg.Pool,
    chain: ChainName,
    confirmationsKey: string,
  ): Promise<StatusCounts> {
    const { rows } = await db.query<StatusCounts>(
      `SELECT (SELECT count(*) FILTER (WHERE status = 'confirming')::int
                 FROM chain_deposits WHERE chain = $1) AS confirming,
              (SELECT count(*) FILTER (WHERE status = 'reversed-on-chain')::int
                 FROM chain_deposits WHERE chain = $1) AS reversed,
              (SELECT count(*)::int FROM chain_watch_errors
                WHERE chain = $1 AND at > now() - interval '1 hour') AS errors,
              (SELECT setting_value FROM app_settings WHERE setting_key = $2) AS required,
              e.message AS latest_error, e.at AS latest_error_at, now() AS db_now
         FROM (SELECT 1) one
         LEFT JOIN LATERAL (SELECT message, at FROM chain_watch_errors WHERE chain = $1
                             ORDER BY at DESC, id DESC LIMIT 1) e ON true`,
      [chain, confirmationsKey],
    );
    // One row always: the FROM is a single row, the join is a LEFT one.
    return rows[0] as StatusCounts;
  },

  /** Credited deposits that left their chain, of every chain. */
  async reversedCount(db: pg.Pool): Promise<number> {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM chain_deposits WHERE status = 'reversed-on-chain'`,
    );
    return rows[0]?.n ?? 0;
  },

  /** The newest 100 credited deposits that left their chain, with their owner's e-mail. */
  async reversedDeposits(db: pg.Pool): Promise<ReversedDepositRow[]> {
    const { rows } = await db.query<ReversedDepositRow>(
      `SELECT d.id, d.chain, d.tx_hash, d.user_id, u.email, d.asset_id,
              d.amount_minor::text AS amount_minor, d.updated_at
         FROM chain_deposits d JOIN users u ON u.id = d.user_id
        WHERE d.status = 'reversed-on-chain' ORDER BY d.updated_at DESC LIMIT 100`,
    );
    return rows;
  },
};
