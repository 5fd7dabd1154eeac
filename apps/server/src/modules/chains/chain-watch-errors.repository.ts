import type { TxClient } from '@server/db/tx';
import type pg from 'pg';
import type { ChainName } from './chain-adapter';

/** How a payout problem's row starts in `chain_watch_errors` (chain-status counts them apart). */
export const PAYOUT_PROBLEM_PREFIX = 'Payouts: ';

/** A watcher's failures: the last one on its cursor, each one in `chain_watch_errors`. */
export const chainWatchErrorsRepository = {
  /** A failure: on the cursor (the last one) and counted (errors of the last hour). */
  async noteError(db: pg.Pool, chain: ChainName, message: string): Promise<void> {
    await db.query(
      `UPDATE chain_cursors SET last_error = $2, last_error_at = now(), updated_at = now()
       WHERE chain = $1`,
      [chain, message.slice(0, 500)],
    );
    await db.query('INSERT INTO chain_watch_errors (chain, message) VALUES ($1, $2)', [
      chain,
      message.slice(0, 500),
    ]);
    await db.query(
      `DELETE FROM chain_watch_errors WHERE chain = $1 AND at < now() - interval '1 day'`,
      [chain],
    );
  },

  /**
   * A payout problem (a settlement that failed and was undone alone, a nonce gap, a typed
   * hash that expired): counted apart from the node's failures (`PAYOUT_PROBLEM_PREFIX`),
   * never on the cursor, so the watcher that goes on is not reported failing. In the block's
   * transaction when it comes from one (it locks the cursor: a second connection would wait).
   */
  async notePayoutProblem(db: pg.Pool | TxClient, chain: ChainName, message: string) {
    await db.query('INSERT INTO chain_watch_errors (chain, message) VALUES ($1, $2)', [
      chain,
      `${PAYOUT_PROBLEM_PREFIX}${message}`.slice(0, 500),
    ]);
  },
};
