import type pg from 'pg';

/** A connection inside an open database transaction. */
export type TxClient = pg.PoolClient;

/**
 * Runs `fn` in one database transaction: committed when it returns, rolled back when it
 * throws. Money movements use this so a ledger row and its balance change land together.
 */
export async function withTransaction<T>(
  pool: pg.Pool,
  fn: (client: TxClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}
