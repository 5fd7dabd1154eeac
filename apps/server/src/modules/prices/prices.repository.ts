import type { ColumnsOf } from '@server/db/rows';
import type { priceSnapshots } from '@server/db/schema/index';
import type pg from 'pg';

/** A pool, or the connection of an open transaction. */
type Queryable = pg.Pool | pg.PoolClient;

export type Snapshot = { priceId: string; priceUsd: string; change24hPct: string | null };

type SnapshotRow = ColumnsOf<
  typeof priceSnapshots,
  'price_id' | 'price_usd' | 'change_24h_pct' | 'taken_at'
>;

/** The only code that touches `price_snapshots`. */
export const pricesRepository = {
  /**
   * Stores a sync's prices, unless another instance stored some within the last 20 s:
   * several instances refreshing on their own timers must not multiply the history.
   */
  async insertSnapshots(db: Queryable, rows: Snapshot[]): Promise<void> {
    if (rows.length === 0) return;
    await db.query(
      `INSERT INTO price_snapshots (price_id, price_usd, change_24h_pct)
       SELECT * FROM unnest($1::text[], $2::numeric[], $3::numeric[])
        WHERE NOT EXISTS (SELECT 1 FROM price_snapshots WHERE taken_at > now() - interval '20 seconds')`,
      [rows.map((r) => r.priceId), rows.map((r) => r.priceUsd), rows.map((r) => r.change24hPct)],
    );
  },

  async latest(db: Queryable): Promise<Array<Snapshot & { takenAt: Date }>> {
    const { rows } = await db.query<SnapshotRow>(
      `SELECT DISTINCT ON (price_id) price_id, price_usd::text, change_24h_pct::text, taken_at
         FROM price_snapshots ORDER BY price_id, taken_at DESC`,
    );
    return rows.map((r) => ({
      priceId: r.price_id,
      priceUsd: r.price_usd,
      change24hPct: r.change_24h_pct,
      takenAt: r.taken_at,
    }));
  },

  async priceAt(db: Queryable, priceId: string, at: Date): Promise<string | null> {
    const { rows } = await db.query<ColumnsOf<typeof priceSnapshots, 'price_usd'>>(
      `SELECT price_usd::text FROM price_snapshots WHERE price_id = $1 AND taken_at <= $2
        ORDER BY taken_at DESC LIMIT 1`,
      [priceId, at],
    );
    return rows[0]?.price_usd ?? null;
  },
};
