import type { TSyncPrices } from '@coffer/shared';
import type { ColumnsOf } from '@server/db/rows';
import type { auditLog } from '@server/db/schema/index';
import type { TxClient } from '@server/db/tx';
import type pg from 'pg';

/** What a price sync's audit row keeps in `after`, as the sync writes it. */
type PriceSyncFacts = { prices?: Partial<TSyncPrices>; walletsUpdated?: number };

/** The newest price sync's audit row, with its actor's e-mail (gone if the actor was removed). */
type LastSyncRow = ColumnsOf<typeof auditLog, 'created_at'> & {
  email: string | null;
  after: PriceSyncFacts | null;
};

export const adminSettingsRepository = {
  /**
   * Every wallet's USD value at the given prices, in one statement however many customers
   * there are; rows already at that value are not rewritten. Rounded to the cent like the
   * column (numeric(20, 2)); the arithmetic is PostgreSQL's exact numeric.
   */
  async revalueWallets(
    client: TxClient,
    prices: Array<{ assetId: string; priceUsd: string }>,
  ): Promise<number> {
    const result = await client.query(
      `UPDATE user_wallets w SET balance_fiat = round(w.balance_crypto * p.price, 2)
         FROM unnest($1::text[], $2::numeric[]) AS p(asset_id, price)
        WHERE w.asset_id = p.asset_id
          AND w.balance_fiat IS DISTINCT FROM round(w.balance_crypto * p.price, 2)`,
      [prices.map((p) => p.assetId), prices.map((p) => p.priceUsd)],
    );
    return result.rowCount ?? 0;
  },

  /** The newest price sync in the audit log (the action index finds it). */
  async lastSync(pool: pg.Pool) {
    const { rows } = await pool.query<LastSyncRow>(
      `SELECT a.created_at, u.email, a.after
         FROM audit_log a LEFT JOIN users u ON u.id = a.actor_id
        WHERE a.action = 'prices.sync' ORDER BY a.created_at DESC LIMIT 1`,
    );
    const row = rows[0];
    if (!row) return null;
    const p = row.after?.prices ?? {};
    return {
      at: row.created_at.toISOString(),
      actorEmail: row.email,
      prices: { BTC: p.BTC ?? '', ETH: p.ETH ?? '', USDT: p.USDT ?? '' },
      walletsUpdated: row.after?.walletsUpdated ?? 0,
    };
  },
};
