import type { ColumnsOf } from '@server/db/rows';
import type { transactions, users } from '@server/db/schema/index';
import type { TxClient } from '@server/db/tx';

/**
 * What the watcher reads beyond its own tables while it records and credits: the ledger's
 * deposits by chain hash (staff may have credited one by hand), the locks a manual credit
 * takes, and the customers' e-mail addresses for the "deposit arrived" mail.
 */
export const chainLedgerRepository = {
  /** A ledger deposit row already carrying this chain hash for the asset (a manual credit). */
  async ledgerDepositWithHash(
    client: TxClient,
    assetId: string,
    hash: string,
  ): Promise<ColumnsOf<typeof transactions, 'id' | 'user_id'> | null> {
    const { rows } = await client.query<ColumnsOf<typeof transactions, 'id' | 'user_id'>>(
      `SELECT id, user_id FROM transactions
        WHERE transaction_type = 'deposit' AND asset_id = $1 AND transaction_hash IS NOT NULL
          AND lower(regexp_replace(transaction_hash, '^0[xX]', '')) = lower(regexp_replace($2, '^0[xX]', ''))
          AND deleted_at IS NULL LIMIT 1`,
      [assetId, hash],
    );
    return rows[0] ?? null;
  },

  /**
   * Which of these (asset, hash) pairs have a ledger deposit (the same test as
   * ledgerDepositWithHash), as `asset/hash` keys.
   */
  async ledgerDepositHashes(
    client: TxClient,
    pairs: Array<{ assetId: string; hash: string }>,
  ): Promise<Set<string>> {
    const { rows } = await client.query<{ asset_id: string; hash: string }>(
      `SELECT p.asset_id, p.hash FROM unnest($1::text[], $2::text[]) AS p(asset_id, hash)
        WHERE EXISTS (SELECT 1 FROM transactions t
          WHERE t.transaction_type = 'deposit' AND t.asset_id = p.asset_id
            AND t.transaction_hash IS NOT NULL AND t.deleted_at IS NULL
            AND lower(regexp_replace(t.transaction_hash, '^0[xX]', '')) = lower(regexp_replace(p.hash, '^0[xX]', '')))`,
      [pairs.map((p) => p.assetId), pairs.map((p) => p.hash)],
    );
    return new Set(rows.map((r) => `${r.asset_id}/${r.hash}`));
  },

  /** Takes transaction-scoped advisory locks on these keys, in key order. */
  async lockKeys(client: TxClient, keys: string[]): Promise<void> {
    await client.query(
      `SELECT pg_advisory_xact_lock(hashtextextended(k, 0))
         FROM (SELECT k FROM unnest($1::text[]) AS k ORDER BY k) AS ordered`,
      [keys],
    );
  },

  /** The e-mail address of each of these customers, by id. */
  async emailsOf(client: TxClient, userIds: string[]): Promise<Map<string, string>> {
    const { rows } = await client.query<ColumnsOf<typeof users, 'id' | 'email'>>(
      'SELECT id, email FROM users WHERE id = ANY($1::uuid[])',
      [userIds],
    );
    return new Map(rows.map((r) => [r.id, r.email]));
  },
};
