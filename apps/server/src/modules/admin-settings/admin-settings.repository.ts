import type { TSyncPrices } from '@coffer/shared';
import type { ColumnsOf } from '@server/db/rows';
import type { appSettingChanges, auditLog } from '@server/db/schema/index';
import type { TxClient } from '@server/db/tx';
import type pg from 'pg';

/** A proposed change of a risk setting, with who proposed it (four eyes). */
export type SettingChangeRow = ColumnsOf<
  typeof appSettingChanges,
  'id' | 'setting_key' | 'value' | 'status' | 'proposed_by' | 'proposed_at'
> & { proposer_email: string };

const CHANGE_COLUMNS = `c.id, c.setting_key, c.value, c.status, c.proposed_by, c.proposed_at,
  u.email AS proposer_email`;

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

  /** The changes waiting for a second admin, oldest first. */
  async pendingChanges(db: pg.Pool | TxClient): Promise<SettingChangeRow[]> {
    const { rows } = await db.query<SettingChangeRow>(
      `SELECT ${CHANGE_COLUMNS} FROM app_setting_changes c JOIN users u ON u.id = c.proposed_by
        WHERE c.status = 'pending' ORDER BY c.proposed_at, c.id`,
    );
    return rows;
  },

  /**
   * Marks the setting's pending change, if any, replaced by a newer proposal; its id, or
   * null. The caller holds the setting's row lock, so two proposals replace in turn.
   */
  async replacePending(client: TxClient, key: string, by: string): Promise<string | null> {
    const { rows } = await client.query<{ id: string }>(
      `UPDATE app_setting_changes SET status = 'replaced', decided_by = $2, decided_at = now()
        WHERE setting_key = $1 AND status = 'pending' RETURNING id`,
      [key, by],
    );
    return rows[0]?.id ?? null;
  },

  async propose(
    client: TxClient,
    key: string,
    value: string,
    by: string,
  ): Promise<SettingChangeRow> {
    const { rows } = await client.query<SettingChangeRow>(
      `WITH c AS (
         INSERT INTO app_setting_changes (setting_key, value, proposed_by) VALUES ($1, $2, $3)
         RETURNING *
       ) SELECT ${CHANGE_COLUMNS} FROM c JOIN users u ON u.id = c.proposed_by`,
      [key, value, by],
    );
    const row = rows[0];
    if (!row) throw new Error('the proposed change was not stored');
    return row;
  },

  /** A change by id, unlocked: to learn which setting to lock first. */
  async findChange(client: TxClient, id: string): Promise<SettingChangeRow | null> {
    const { rows } = await client.query<SettingChangeRow>(
      `SELECT ${CHANGE_COLUMNS} FROM app_setting_changes c JOIN users u ON u.id = c.proposed_by
        WHERE c.id = $1`,
      [id],
    );
    return rows[0] ?? null;
  },

  /**
   * The change locked until the transaction ends, read after the wait: of two parallel
   * decisions the second sees the first one's status.
   */
  async lockChange(client: TxClient, id: string): Promise<SettingChangeRow | null> {
    const { rows } = await client.query<SettingChangeRow>(
      `SELECT ${CHANGE_COLUMNS} FROM app_setting_changes c JOIN users u ON u.id = c.proposed_by
        WHERE c.id = $1 FOR UPDATE OF c`,
      [id],
    );
    return rows[0] ?? null;
  },

  async decide(
    client: TxClient,
    id: string,
    status: 'approved' | 'rejected',
    by: string,
  ): Promise<void> {
    await client.query(
      `UPDATE app_setting_changes SET status = $2, decided_by = $3, decided_at = now()
        WHERE id = $1 AND status = 'pending'`,
      [id, status, by],
    );
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
