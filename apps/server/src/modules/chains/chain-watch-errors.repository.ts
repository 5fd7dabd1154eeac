import type pg from 'pg';
import type { ChainName } from './chain-adapter';

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
};
