import type pg from 'pg';

export type Snapshot = { priceId: string; priceUsd: string; change24hPct: string | null };

export function createPricesRepository(pool: pg.Pool) {
  return {
    /**
     * Stores a sync's prices, unless another instance stored some within the last 20 s:
     * several instances refreshing on their own timers must not multiply the history.
     */
    async insertSnapshots(rows: Snapshot[]): Promise<void> {
      if (rows.length === 0) return;
      await pool.query(
        `INSERT INTO price_snapshots (price_id, price_usd, change_24h_pct)
         SELECT * FROM unnest($1::text[], $2::numeric[], $3::numeric[])
          WHERE NOT EXISTS (SELECT 1 FROM price_snapshots WHERE taken_at > now() - interval '20 seconds')`,
        [rows.map((r) => r.priceId), rows.map((r) => r.priceUsd), rows.map((r) => r.change24hPct)],
      );
    },

    async latest(): Promise<Array<Snapshot & { takenAt: Date }>> {
      const { rows } = await pool.query<{
        price_id: string;
        price_usd: string;
        change_24h_pct: string | null;
        taken_at: Date;
      }>(
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

    async priceAt(priceId: string, at: Date): Promise<string | null> {
      const { rows } = await pool.query<{ price_usd: string }>(
        `SELECT price_usd::text FROM price_snapshots WHERE price_id = $1 AND taken_at <= $2
          ORDER BY taken_at DESC LIMIT 1`,
        [priceId, at],
      );
      return rows[0]?.price_usd ?? null;
    },
  };
}
