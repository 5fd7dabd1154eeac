import type { ColumnsOf, RowOf } from '@server/db/rows';
import type { transactions, userWallets } from '@server/db/schema/index';
import type { TxClient } from '@server/db/tx';

export type WalletRow = ColumnsOf<
  typeof userWallets,
  'id' | 'user_id' | 'asset_id' | 'network' | 'balance_crypto' | 'held'
>;

/**
 * A ledger row as `RETURNING *` gives it. `editor_ids`: every admin who edited the row,
 * oldest first (four-eyes checks them all); `price_usd`: USD per unit of the asset that
 * funded a bank payout, when it was held.
 */
export type TransactionRow = RowOf<typeof transactions>;

export type NewTransaction = {
  userId: string;
  walletId: string | null;
  transactionType: string;
  direction: 'credit' | 'debit' | 'none';
  assetId: string;
  network: string | null;
  cryptoAmount: string;
  fee: string;
  usdAmount: string | null;
  audAmount: string | null;
  currency: string | null;
  exchangeRate: string | null;
  withdrawalAddress: string | null;
  memo: string | null;
  transactionHash: string | null;
  status: 'pending' | 'completed' | 'failed';
  reason: string | null;
  createdBy: string | null;
  stakingCycleStart: Date | null;
  transactionDate: Date | null;
  priceUsd: string | null;
  /** The row an adjustment corrects, when it corrects one. */
  correctsTransactionId?: string | null;
};

/** The editable columns of a row, as an admin edit leaves them. */
export type RowRevision = {
  transactionType: string;
  direction: 'credit' | 'debit' | 'none';
  assetId: string;
  network: string | null;
  walletId: string | null;
  cryptoAmount: string;
  usdAmount: string | null;
  audAmount: string | null;
  currency: string | null;
  exchangeRate: string | null;
  status: 'pending' | 'completed' | 'failed';
  transactionDate: Date;
  withdrawalAddress: string | null;
  transactionHash: string | null;
  updatedBy: string | null;
};

/**
 * The ledger's SQL for one row and its wallet. Every function runs on a connection inside
 * the caller's transaction.
 */
export const ledgerRepository = {
  /** Locks the user's wallet of an asset, creating it first if it does not exist yet. */
  async lockWallet(
    client: TxClient,
    userId: string,
    assetId: string,
    network: string,
  ): Promise<WalletRow> {
    await client.query(
      `INSERT INTO user_wallets (user_id, asset_id, network) VALUES ($1, $2, $3)
       ON CONFLICT (user_id, asset_id) DO NOTHING`,
      [userId, assetId, network],
    );
    const { rows } = await client.query<WalletRow>(
      `SELECT id, user_id, asset_id, network, balance_crypto, held FROM user_wallets
        WHERE user_id = $1 AND asset_id = $2 FOR UPDATE`,
      [userId, assetId],
    );
    const wallet = rows[0];
    if (!wallet) throw new Error(`wallet ${assetId} of ${userId} vanished`);
    return wallet;
  },

  async setWalletAmounts(
    client: TxClient,
    walletId: string,
    balance: string,
    held: string,
  ): Promise<void> {
    await client.query(
      'UPDATE user_wallets SET balance_crypto = $2, held = $3, updated_at = now() WHERE id = $1',
      [walletId, balance, held],
    );
  },

  async insertTransaction(client: TxClient, t: NewTransaction): Promise<TransactionRow> {
    const { rows } = await client.query<TransactionRow>(
      `INSERT INTO transactions (user_id, wallet_id, transaction_type, direction, asset_id, network, crypto_amount, fee,
         usd_amount, aud_amount, currency, exchange_rate, withdrawal_address, memo, transaction_hash, status, reason,
         created_by, staking_cycle_start, transaction_date, completed_at, price_usd,
         corrects_transaction_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19,
         COALESCE($20, now()), CASE WHEN $16 = 'completed' THEN now() END, $21, $22)
       RETURNING *`,
      [
        t.userId,
        t.walletId,
        t.transactionType,
        t.direction,
        t.assetId,
        t.network,
        t.cryptoAmount,
        t.fee,
        t.usdAmount,
        t.audAmount,
        t.currency,
        t.exchangeRate,
        t.withdrawalAddress,
        t.memo,
        t.transactionHash,
        t.status,
        t.reason,
        t.createdBy,
        t.stakingCycleStart,
        t.transactionDate,
        t.priceUsd,
        t.correctsTransactionId ?? null,
      ],
    );
    const row = rows[0];
    if (!row) throw new Error('insert returned no row');
    return row;
  },

  async lockTransaction(client: TxClient, id: string): Promise<TransactionRow | null> {
    const { rows } = await client.query<TransactionRow>(
      'SELECT * FROM transactions WHERE id = $1 FOR UPDATE',
      [id],
    );
    return rows[0] ?? null;
  },

  async updateStatus(
    client: TxClient,
    id: string,
    change: {
      status: string;
      transactionHash: string | null;
      reason: string | null;
      processedBy: string | null;
    },
  ): Promise<TransactionRow> {
    const { rows } = await client.query<TransactionRow>(
      `UPDATE transactions SET status = $2, transaction_hash = COALESCE($3, transaction_hash),
         reason = COALESCE($4, reason), processed_by = COALESCE($5, processed_by),
         completed_at = CASE WHEN $2 = 'completed' THEN now() ELSE completed_at END
       WHERE id = $1 RETURNING *`,
      [id, change.status, change.transactionHash, change.reason, change.processedBy],
    );
    const row = rows[0];
    if (!row) throw new Error(`transaction ${id} vanished`);
    return row;
  },

  /**
   * Rewrites a row's editable columns (an admin edit, product.md M7). `completed_at` follows
   * the status: kept while it stays completed, set when it becomes completed, else cleared.
   */
  async updateRow(client: TxClient, id: string, r: RowRevision): Promise<TransactionRow> {
    const { rows } = await client.query<TransactionRow>(
      `UPDATE transactions SET transaction_type = $2, direction = $3, asset_id = $4, network = $5,
         wallet_id = $6, crypto_amount = $7, usd_amount = $8, aud_amount = $9, currency = $10,
         exchange_rate = $11, status = $12, transaction_date = $13, withdrawal_address = $14,
         transaction_hash = $15, updated_by = $16,
         editor_ids = CASE WHEN $16::uuid IS NULL OR $16::uuid = ANY(editor_ids) THEN editor_ids
                           ELSE array_append(editor_ids, $16::uuid) END,
         completed_at = CASE WHEN $12 <> 'completed' THEN NULL
                             WHEN status = 'completed' THEN completed_at ELSE now() END
       WHERE id = $1 RETURNING *`,
      [
        id,
        r.transactionType,
        r.direction,
        r.assetId,
        r.network,
        r.walletId,
        r.cryptoAmount,
        r.usdAmount,
        r.audAmount,
        r.currency,
        r.exchangeRate,
        r.status,
        r.transactionDate,
        r.withdrawalAddress,
        r.transactionHash,
        r.updatedBy,
      ],
    );
    const row = rows[0];
    if (!row) throw new Error(`transaction ${id} vanished`);
    return row;
  },

  /** Rows are never deleted: an admin deletion marks the row, and its effect is reversed. */
  async markDeleted(client: TxClient, id: string, by: string | null): Promise<TransactionRow> {
    const { rows } = await client.query<TransactionRow>(
      'UPDATE transactions SET deleted_at = now(), updated_by = $2 WHERE id = $1 RETURNING *',
      [id, by],
    );
    const row = rows[0];
    if (!row) throw new Error(`transaction ${id} vanished`);
    return row;
  },
};
