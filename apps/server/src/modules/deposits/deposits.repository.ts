import { type TAnyAssetId, toMinor } from '@coffer/shared';
import type { ColumnsOf } from '@server/db/rows';
import type { depositAddresses, transactions, users, userWallets } from '@server/db/schema/index';
import type pg from 'pg';

/** A customer's address as listed; `chain` is null for one staff entered. */
export type DepositAddressRow = ColumnsOf<
  typeof depositAddresses,
  'id' | 'asset_symbol' | 'network' | 'address' | 'chain' | 'created_at'
>;

/** An earlier credit of a chain transaction: its row, customer and amount (minor units). */
export type EarlierCredit = ColumnsOf<typeof transactions, 'id' | 'user_id'> & { amount: bigint };

/** What a derived address is stored as: the chain's native asset (USDT on TRON). */
export type NewDerivedAddress = {
  chain: string;
  assetSymbol: string;
  network: string;
  address: string;
  index: number;
};

export const depositsRepository = {
  /** The customer's active addresses, newest first. */
  async activeAddresses(
    pool: pg.Pool | pg.PoolClient,
    userId: string,
  ): Promise<DepositAddressRow[]> {
    const { rows } = await pool.query<DepositAddressRow>(
      `SELECT id, asset_symbol, network, address, chain, created_at FROM deposit_addresses
        WHERE user_id = $1 AND is_active ORDER BY created_at DESC, id DESC`,
      [userId],
    );
    return rows;
  },

  /**
   * Makes parallel first requests of one customer on one chain (any instance) wait for each
   * other, so the second finds the first's address instead of taking an index of its own.
   */
  async lockCustomerChain(client: pg.PoolClient, userId: string, chain: string): Promise<void> {
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
      `deposit-address:${userId}:${chain}`,
    ]);
  },

  /** The chains the customer already has a derived address on (active or not). */
  async derivedChains(pool: pg.Pool | pg.PoolClient, userId: string): Promise<Set<string>> {
    const { rows } = await pool.query<ColumnsOf<typeof depositAddresses, 'chain'>>(
      `SELECT chain FROM deposit_addresses
        WHERE user_id = $1 AND derivation_index IS NOT NULL`,
      [userId],
    );
    return new Set(rows.flatMap((r) => (r.chain === null ? [] : [r.chain])));
  },

  /**
   * The chain's next derivation index, taken for good when the transaction commits: one
   * UPDATE … RETURNING, whose row lock makes parallel allocations (any instance) wait their
   * turn, so no index is handed out twice. The counter row is made on first use.
   */
  async takeIndex(client: pg.PoolClient, chain: string): Promise<number> {
    await client.query(
      'INSERT INTO chain_address_counters (chain, next_index) VALUES ($1, 0) ON CONFLICT (chain) DO NOTHING',
      [chain],
    );
    const { rows } = await client.query<{ index: number }>(
      `UPDATE chain_address_counters SET next_index = next_index + 1
        WHERE chain = $1 RETURNING next_index - 1 AS index`,
      [chain],
    );
    const index = rows[0]?.index;
    if (index === undefined) throw new Error(`no address counter for ${chain}`);
    return index;
  },

  /**
   * Stores a derived address; false when a unique index refused it (staff entered this very
   * address for someone; the caller holds lockCustomerChain): nothing written.
   */
  async insertDerived(
    client: pg.PoolClient,
    userId: string,
    a: NewDerivedAddress,
  ): Promise<boolean> {
    const { rowCount } = await client.query(
      `INSERT INTO deposit_addresses (user_id, asset_symbol, network, address, chain, derivation_index)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
      [userId, a.assetSymbol, a.network, a.address, a.chain, a.index],
    );
    return rowCount === 1;
  },

  async userIdByEmail(client: pg.PoolClient, email: string): Promise<string | null> {
    const { rows } = await client.query<ColumnsOf<typeof users, 'id'>>(
      'SELECT id FROM users WHERE email = $1',
      [email],
    );
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
    assetId: TAnyAssetId,
    hash: string,
  ): Promise<EarlierCredit | null> {
    const { rows } = await client.query<
      ColumnsOf<typeof transactions, 'id' | 'user_id' | 'crypto_amount'>
    >(
      `SELECT id, user_id, crypto_amount::text FROM transactions
        WHERE transaction_type = 'deposit' AND asset_id = $1 AND transaction_hash IS NOT NULL
          AND lower(regexp_replace(transaction_hash, '^0[xX]', '')) = lower(regexp_replace($2, '^0[xX]', ''))
          AND deleted_at IS NULL LIMIT 1`,
      [assetId, hash],
    );
    const row = rows[0];
    return row
      ? { id: row.id, user_id: row.user_id, amount: toMinor(assetId, row.crypto_amount) }
      : null;
  },

  /** The customer's balance of an asset in minor units, 0 without a wallet. */
  async balanceOf(client: pg.PoolClient, userId: string, assetId: TAnyAssetId): Promise<bigint> {
    const { rows } = await client.query<ColumnsOf<typeof userWallets, 'balance_crypto'>>(
      'SELECT balance_crypto FROM user_wallets WHERE user_id = $1 AND asset_id = $2',
      [userId, assetId],
    );
    const balance = rows[0]?.balance_crypto;
    return balance === undefined ? 0n : toMinor(assetId, balance);
  },
};
