import type { ColumnsOf } from '@server/db/rows';
import type { chainDeposits, users } from '@server/db/schema/index';
import type pg from 'pg';
import type { ChainName } from './chain-adapter';
import { PAYOUT_PROBLEM_PREFIX } from './chain-watch-errors.repository';

/** A chain's figures for the status screen: counts, its latest error, its setting, the clock. */
export type StatusCounts = {
  confirming: number;
  reversed: number;
  errors: number;
  required: string | null;
  latest_error: string | null;
  latest_error_at: Date | null;
  /** Completed payouts whose transaction left the chain for good (for staff). */
  payouts_reversed: number;
  /** The first of them (oldest first), by ledger row id. */
  payouts_reversed_ids: string[];
  /** Payout problems of the last hour (`PAYOUT_PROBLEM_PREFIX`), and the latest one. */
  payout_problems: number;
  payout_problem: string | null;
  payout_problem_at: Date | null;
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
                WHERE chain = $1 AND at > now() - interval '1 hour'
                  AND NOT starts_with(message, $3)) AS errors,
              (SELECT setting_value FROM app_settings WHERE setting_key = $2) AS required,
              e.message AS latest_error, e.at AS latest_error_at,
              (SELECT count(*)::int FROM payouts
                WHERE chain = $1 AND state = 'reversed-on-chain') AS payouts_reversed,
              ARRAY(SELECT transaction_id::text FROM payouts
                     WHERE chain = $1 AND state = 'reversed-on-chain'
                     ORDER BY updated_at, transaction_id LIMIT 10) AS payouts_reversed_ids,
              (SELECT count(*)::int FROM chain_watch_errors
                WHERE chain = $1 AND at > now() - interval '1 hour'
                  AND starts_with(message, $3)) AS payout_problems,
              pp.message AS payout_problem, pp.at AS payout_problem_at, now() AS db_now
         FROM (SELECT 1) one
         LEFT JOIN LATERAL (SELECT message, at FROM chain_watch_errors
                             WHERE chain = $1 AND NOT starts_with(message, $3)
                             ORDER BY at DESC, id DESC LIMIT 1) e ON true
         LEFT JOIN LATERAL (SELECT message, at FROM chain_watch_errors
                             WHERE chain = $1 AND starts_with(message, $3)
                               AND at > now() - interval '1 hour'
                             ORDER BY at DESC, id DESC LIMIT 1) pp ON true`,
      [chain, confirmationsKey, PAYOUT_PROBLEM_PREFIX],
    );
    // One row always: the FROM is a single row, the join is a LEFT one.
    return rows[0] as StatusCounts;
  },

  /** Completed payouts whose transaction left their chain for good, of every chain. */
  async reversedPayoutCount(db: pg.Pool): Promise<number> {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM payouts WHERE state = 'reversed-on-chain'`,
    );
    return rows[0]?.n ?? 0;
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
