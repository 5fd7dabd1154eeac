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

/** A sum of ledger effects in one bucket of time, for one asset. */
export type BucketEffect = { asset_id: string; bucket: number; delta: string };

/** A snapshot price at a point of the chart (null when none was stored before it). */
export type BucketPrice = { bucket: number; price_id: string; price: string | null };

// The dashboard's hot path: a named statement, planned once per connection.
const WALLETS_OF_USER = `SELECT id, asset_id, network, balance_crypto, held, balance_fiat
  FROM user_wallets WHERE user_id = $1`;

export const walletsRepository = {
  /** The customer's wallets of catalogue assets, amounts in minor units. */
  async list(pool: pg.Pool, userId: string): Promise<WalletBalanceRow[]> {
    const { rows } = await pool.query<WalletRecord>({
      name: 'wallets_of_user',
      text: WALLETS_OF_USER,
      values: [userId],
    });
    return rows.flatMap(({ balance_crypto, held, ...row }) => {
      const asset = assetById(row.asset_id);
      if (!asset) return [];
      return [
        { ...row, balance: toMinor(asset.id, balance_crypto), held: toMinor(asset.id, held) },
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
   * The customer's completed ledger effects after `from`, summed per asset and per chart
   * interval: bucket j holds the effects in (from + j·step, from + (j+1)·step], the last
   * bucket everything later. An effect counts from the row's date as the history shows it
   * (a withdrawal from its request, when its amount left the customer's hands; a deposit
   * staff dated back from that date), or from its completion if that was earlier; a
   * deleted row also stops counting when it was deleted.
   * PostgreSQL does the summing, so 100,000 rows come back as at most buckets × assets.
   */
  async effectsByBucket(
    pool: pg.Pool,
    userId: string,
    from: Date,
    stepSeconds: number,
    buckets: number,
  ): Promise<BucketEffect[]> {
    const { rows } = await pool.query<BucketEffect>(
      `WITH applied AS (
         SELECT asset_id,
                CASE WHEN direction = 'credit' THEN crypto_amount ELSE -(crypto_amount + fee) END AS delta,
                LEAST(completed_at, transaction_date) AS applied_at,
                deleted_at
           FROM transactions
          WHERE user_id = $1 AND status = 'completed' AND direction <> 'none' AND wallet_id IS NOT NULL
            AND (LEAST(completed_at, transaction_date) > $2 OR deleted_at > $2)
       ), events AS (
         SELECT asset_id, delta, applied_at AS at FROM applied WHERE applied_at > $2
         UNION ALL
         SELECT asset_id, -delta, deleted_at FROM applied WHERE deleted_at > $2
       )
       SELECT asset_id,
              LEAST(ceil(extract(epoch FROM at - $2::timestamptz) / $3::numeric)::int - 1, $4::int - 1) AS bucket,
              SUM(delta)::text AS delta
         FROM events GROUP BY 1, 2`,
      [userId, from, stepSeconds, buckets],
    );
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
