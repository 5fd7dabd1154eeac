import type pg from 'pg';

export type DepositAddressRow = {
  id: string;
  asset_symbol: string;
  network: string;
  address: string;
  created_at: Date;
};

export const depositsRepository = {
  /** The customer's active addresses, newest first (customer.md §7). */
  async activeAddresses(pool: pg.Pool, userId: string): Promise<DepositAddressRow[]> {
    const { rows } = await pool.query<DepositAddressRow>(
      `SELECT id, asset_symbol, network, address, created_at FROM deposit_addresses
        WHERE user_id = $1 AND is_active ORDER BY created_at DESC, id DESC`,
      [userId],
    );
    return rows;
  },

  async userIdByEmail(client: pg.PoolClient, email: string): Promise<string | null> {
    const { rows } = await client.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [
      email,
    ]);
    return rows[0]?.id ?? null;
  },

  /**
   * Makes concurrent credits of one chain transaction wait for each other, so the check
   * for an earlier credit below cannot race a credit still being written.
   */
  async lockChainTransaction(client: pg.PoolClient, assetId: string, hash: string): Promise<void> {
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
      `deposit:${assetId}:${hash.toLowerCase()}`,
    ]);
  },

  /**
   * An earlier credit of this chain transaction to this asset: hashes compare as the unique
   * index compares them (without case, with or without 0x), so the index answers it.
   */
  async findCredit(
    client: pg.PoolClient,
    assetId: string,
    hash: string,
  ): Promise<{ id: string; user_id: string; crypto_amount: string } | null> {
    const { rows } = await client.query<{ id: string; user_id: string; crypto_amount: string }>(
      `SELECT id, user_id, crypto_amount::text FROM transactions
        WHERE transaction_type = 'deposit' AND asset_id = $1 AND transaction_hash IS NOT NULL
          AND lower(regexp_replace(transaction_hash, '^0[xX]', '')) = lower(regexp_replace($2, '^0[xX]', ''))
          AND deleted_at IS NULL LIMIT 1`,
      [assetId, hash],
    );
    return rows[0] ?? null;
  },

  async balanceOf(client: pg.PoolClient, userId: string, assetId: string): Promise<string | null> {
    const { rows } = await client.query<{ balance: string }>(
      'SELECT balance_crypto::text AS balance FROM user_wallets WHERE user_id = $1 AND asset_id = $2',
      [userId, assetId],
    );
    return rows[0]?.balance ?? null;
  },
};
