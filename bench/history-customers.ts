/**
 * The customers whose history grows, one per size in BENCH_ROWS (default 1,000, 100,000 and
 * 1,000,000 ledger rows): deposits in the four wallets, one in ten a rejected withdrawal,
 * staking rewards in ETH.
 *
 * - **Grown** (one per size): the same last year for all of them, a row every 8 h 45 min
 *   (1,000 rows), and the rest of their history before it, a row every 37 seconds. They are
 *   one customer at three ages: what differs is only how long the history behind them is,
 *   which is what "cost flat as the history grows" compares.
 * - **Busy** (the largest size): a row every 37 seconds back from now (428 days for a
 *   million), so every hour of the charts' ranges holds rows: what the busiest customer
 *   costs, printed beside the others.
 *
 * Made by PostgreSQL (generate_series) once per database; later runs find them.
 */
import type pg from 'pg';

export const HISTORY_SIZES = (process.env.BENCH_ROWS ?? '1000,100000,1000000')
  .split(',')
  .map((n) => Number(n.trim()))
  .filter((n) => Number.isInteger(n) && n > 0);

export type HistoryShape = 'grown' | 'busy';

/** Rows in the grown customers' last year, whatever their size. */
const LAST_YEAR_ROWS = 1000;

export const historyEmail = (rows: number, shape: HistoryShape) =>
  `${shape}-${rows}@load.coffer.test`;

/** When row g (1 = newest) is dated, as SQL over g. */
const DATED: Record<HistoryShape, string> = {
  grown: `CASE WHEN g <= ${LAST_YEAR_ROWS} THEN now() - g * interval '8 hours 45 minutes'
               ELSE now() - interval '366 days' - (g - ${LAST_YEAR_ROWS}) * interval '37 seconds' END`,
  busy: `now() - g * interval '37 seconds'`,
};

export async function seedHistoryCustomer(
  pool: pg.Pool,
  rows: number,
  shape: HistoryShape,
): Promise<string> {
  const email = historyEmail(rows, shape);
  const found = await pool.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [email]);
  if (found.rows[0]) return found.rows[0].id;
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const { rows: made } = await client.query<{ id: string }>(
      `INSERT INTO users (email, password_hash, email_verified_at) VALUES ($1, 'x', now()) RETURNING id`,
      [email],
    );
    const id = made[0]?.id;
    if (!id) throw new Error('no user');
    await client.query(
      `INSERT INTO user_profiles (id, full_name, username, registration_date, created_at)
       VALUES ($1, 'History ' || $2::text, 'history.' || $2::text, now() - interval '2 years', now())`,
      [id, rows],
    );
    await client.query(
      `INSERT INTO user_wallets (user_id, asset_id, network)
       SELECT $1, a, n FROM (VALUES ('BTC', 'bitcoin'), ('ETH', 'ethereum'), ('USDT-ERC20', 'erc20'), ('USDT-TRC20', 'trc20')) AS w(a, n)`,
      [id],
    );
    await client.query(
      `INSERT INTO transactions (user_id, wallet_id, transaction_type, direction, asset_id, network, crypto_amount,
         fee, usd_amount, currency, status, transaction_date, completed_at, transaction_hash)
       SELECT $1, w.id,
              CASE WHEN g % 10 = 0 THEN 'withdrawal' WHEN g % 10 = 1 AND w.asset_id = 'ETH' THEN 'staking_reward' ELSE 'deposit' END,
              CASE WHEN g % 10 = 0 THEN 'debit' ELSE 'credit' END,
              w.asset_id, w.network,
              round((random() * 2)::numeric, 6), CASE WHEN g % 10 = 0 THEN 0.0001 ELSE 0 END,
              round((random() * 5000)::numeric, 2), 'USD',
              CASE WHEN g % 10 = 0 THEN 'failed' ELSE 'completed' END,
              ${DATED[shape]}, ${DATED[shape]},
              md5('${shape}:' || $2::text || ':' || g)
         FROM generate_series(1, $2::int) AS g
         JOIN user_wallets w ON w.user_id = $1
          AND w.asset_id = (ARRAY['BTC', 'ETH', 'USDT-ERC20', 'USDT-TRC20'])[1 + g % 4]`,
      [id, rows],
    );
    await client.query(
      `UPDATE user_wallets w SET balance_crypto = s.balance
         FROM (SELECT wallet_id, SUM(crypto_amount) AS balance FROM transactions
                WHERE user_id = $1 AND direction = 'credit' AND status = 'completed' GROUP BY wallet_id) s
        WHERE s.wallet_id = w.id`,
      [id],
    );
    await client.query('COMMIT');
    return id;
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  } finally {
    client.release();
  }
}

/** A history page half-way down the customer's list (date order), as its cursor. */
export async function deepCursor(pool: pg.Pool, userId: string, rows: number): Promise<string> {
  const { rows: found } = await pool.query<{ key: string; id: string }>(
    `SELECT (extract(epoch FROM transaction_date) * 1000000)::bigint::text AS key, id FROM transactions
      WHERE user_id = $1 AND deleted_at IS NULL
      ORDER BY transaction_date DESC, id DESC OFFSET $2 LIMIT 1`,
    [userId, Math.floor(rows / 2)],
  );
  const row = found[0];
  if (!row) throw new Error(`no row half-way down ${rows}`);
  return Buffer.from(`${row.key}:${row.id}`).toString('base64url');
}
