import { assetById, toMinor } from '@coffer/shared';
import type { ColumnsOf } from '@server/db/rows';
import type { userWallets } from '@server/db/schema/index';
import type pg from 'pg';

type WalletRecord = ColumnsOf<
  typeof userWallets,
  'id' | 'asset_id' | 'network' | 'balance_crypto' | 'held' | 'balance_fiat'
>;

/** A wallet as the dashboard reads it: balance and hold in the asset's minor units. */
export type WalletBalanceRow = Omit<WalletRecord, 'balance_crypto' | 'held'> & {
  balance: bigint;
  held: bigint;
};

/**
 * A sum of ledger effects for one asset: `hour` — in one bucket of time, counting for every
 * point before it; `point` — after point `bucket` within its hour, counting for it alone.
 */
export type BucketEffect = {
  kind: 'hour' | 'point';
  asset_id: string;
  bucket: number;
  delta: string;
};

/** A snapshot price at a point of the chart (null when none was stored before it). */
export type BucketPrice = { bucket: number; price_id: string; price: string | null };

// The dashboard's hot path: a named statement, planned once per connection.
const WALLETS_OF_USER = `SELECT id, asset_id, network, balance_crypto, held, balance_fiat
  FROM user_wallets WHERE user_id = $1`;

// The chart's points are $2 + k·$3 seconds, k < $4. The bounds are each point plus a
// microsecond (PostgreSQL's resolution), so that width_bucket, which counts a bound into the
// bucket it starts, puts an hour starting exactly at a point in the bucket ending there.
// The signed effect of a completed row and the time it counts from are the ones the hourly
// sums' triggers use (migration 0018). The bounds are MATERIALIZED: inlined, PostgreSQL may
// build the array again for every hour it buckets (a busy customer's 30 days: 2,856 times,
// 28 ms of a 29 ms statement).
const EFFECTS_BY_BUCKET = `
WITH bounds AS MATERIALIZED (
  SELECT array_agg($2::timestamptz + k * $3::numeric * interval '1 second' + interval '1 microsecond' ORDER BY k) AS at
    FROM generate_series(0, $4::int) AS k
), hours AS (
  -- A binary search in the bounds per hour, rather than arithmetic on its epoch as numeric:
  -- a year of hours is 8,760 rows a wallet.
  SELECT w.asset_id,
         LEAST(width_bucket(e.hour, b.at) - 1, $4::int - 1) AS bucket,
         e.delta
    FROM bounds b CROSS JOIN user_wallets w JOIN wallet_hourly_effects e ON e.wallet_id = w.id
   WHERE w.user_id = $1 AND e.hour > $2::timestamptz
), points AS (
  SELECT g.k, p.at, date_bin('1 hour', p.at, timestamptz '2000-01-01 00:00:00+00') + interval '1 hour' AS hour_end
    FROM generate_series(0, $4::int - 1) AS g(k)
   CROSS JOIN LATERAL (SELECT $2::timestamptz + g.k * $3::numeric * interval '1 second' AS at) p
), inside AS (
  -- LATERAL: each window is an index range of its own, whatever plan the statement gets.
  SELECT p.k, w.asset_id, w.delta
    FROM points p CROSS JOIN LATERAL (
      SELECT t.asset_id, CASE WHEN t.direction = 'credit' THEN t.crypto_amount ELSE -(t.crypto_amount + t.fee) END AS delta
        FROM transactions t
       WHERE t.user_id = $1 AND t.status = 'completed' AND t.direction <> 'none' AND t.wallet_id IS NOT NULL
         AND LEAST(t.completed_at, t.transaction_date) > p.at AND LEAST(t.completed_at, t.transaction_date) < p.hour_end
      UNION ALL
      SELECT t.asset_id, -(CASE WHEN t.direction = 'credit' THEN t.crypto_amount ELSE -(t.crypto_amount + t.fee) END)
        FROM transactions t
       WHERE t.user_id = $1 AND t.deleted_at > p.at AND t.deleted_at < p.hour_end
         AND t.status = 'completed' AND t.direction <> 'none' AND t.wallet_id IS NOT NULL
    ) w
)
SELECT 'hour' AS kind, asset_id, bucket, SUM(delta)::text AS delta FROM hours GROUP BY 2, 3
UNION ALL
SELECT 'point', asset_id, k, SUM(delta)::text FROM inside GROUP BY 2, 3`;

export const walletsRepository = {
  /** The customer's wallets of catalogue assets, amounts in minor units. */
  async list(pool: pg.Pool, userId: string): Promise<WalletBalanceRow[]> {
    const { rows } = await pool.query<WalletRecord>({
      name: 'wallets_of_user',
      text: WALLETS_OF_USER,
      values: [userId],
    });
    // Field by field: a rest-and-spread copy of each row cost more than the rest of the read.
    return rows.flatMap((row) => {
      const asset = assetById(row.asset_id);
      if (!asset) return [];
      return [
        {
          id: row.id,
          asset_id: row.asset_id,
          network: row.network,
          balance_fiat: row.balance_fiat,
          balance: toMinor(asset.id, row.balance_crypto),
          held: toMinor(asset.id, row.held),
        },
      ];
    });
  },

  /** Opens the customer's missing catalogue wallets at zero (once; later calls find them). */
  async createMissing(
    pool: pg.Pool,
    userId: string,
    wallets: Array<{ assetId: string; network: string }>,
  ): Promise<void> {
    await pool.query(
      `INSERT INTO user_wallets (user_id, asset_id, network)
       SELECT $1, a, n FROM unnest($2::text[], $3::text[]) AS w(a, n)
       ON CONFLICT (user_id, asset_id) DO NOTHING`,
      [userId, wallets.map((w) => w.assetId), wallets.map((w) => w.network)],
    );
  },

  /**
   * The customer's completed ledger effects after the chart's points, per asset, in two
   * kinds of rows. `hour` rows: the hourly sums (wallet_hourly_effects) of the hours that
   * start after `from`, each in the bucket of the last point before its hour starts; they
   * count, as the running sum goes back, for every point before that hour. `point` rows:
   * for point k alone, the effects inside its own hour after it, read from the ledger rows
   * of that sub-hour window (an index range each). So the statement reads at most one row
   * per wallet and hour of the range plus a few minutes of rows per point, however long
   * the history. An effect counts from the row's date as the history shows it (a
   * withdrawal from its request; a deposit staff dated back from that date), or from its
   * completion if that was earlier; a deleted row stops counting when it was deleted.
   */
  async effectsByBucket(
    pool: pg.Pool,
    userId: string,
    from: Date,
    stepSeconds: number,
    buckets: number,
  ): Promise<BucketEffect[]> {
    const { rows } = await pool.query<BucketEffect>({
      name: 'portfolio_effects',
      text: EFFECTS_BY_BUCKET,
      values: [userId, from, stepSeconds, buckets],
    });
    return rows;
  },

  /** For each chart point and price id, the newest snapshot at or before it (index look-ups). */
  async pricesAtPoints(
    pool: pg.Pool,
    priceIds: string[],
    from: Date,
    stepSeconds: number,
    points: number,
  ): Promise<BucketPrice[]> {
    const { rows } = await pool.query<BucketPrice>(
      `SELECT g.i AS bucket, p.id AS price_id,
              (SELECT s.price_usd::text FROM price_snapshots s
                WHERE s.price_id = p.id AND s.taken_at <= $2::timestamptz + g.i * $3::int * interval '1 second'
                ORDER BY s.taken_at DESC LIMIT 1) AS price
         FROM generate_series(0, $4::int - 1) AS g(i) CROSS JOIN unnest($1::text[]) AS p(id)`,
      [priceIds, from, stepSeconds, points],
    );
    return rows;
  },
};
