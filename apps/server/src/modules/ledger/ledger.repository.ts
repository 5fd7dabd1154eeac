import type { ColumnsOf, RowOf } from '@server/db/rows';
import type { transactions, userWallets } from '@server/db/schema/index';
import type { TxClient } from '@server/db/tx';
import type pg from 'pg';

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

/** The ledger's SQL. Every function runs on a connection inside the caller's transaction. */
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
         created_by, staking_cycle_start, transaction_date, completed_at, price_usd)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19,
         COALESCE($20, now()), CASE WHEN $16 = 'completed' THEN now() END, $21)
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
      ],
    );
    const row = rows[0];
    if (!row) throw new Error('insert returned no row');
    return row;
  },

  /** The wallets of these (customer, asset) pairs, made when missing; not locked. */
  async ensureWallets(
    client: TxClient,
    pairs: Array<{ userId: string; assetId: string; network: string }>,
  ): Promise<Map<string, string>> {
    const users = pairs.map((p) => p.userId);
    const assets = pairs.map((p) => p.assetId);
    await client.query(
      `INSERT INTO user_wallets (user_id, asset_id, network)
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[])
       ON CONFLICT (user_id, asset_id) DO NOTHING`,
      [users, assets, pairs.map((p) => p.network)],
    );
    const { rows } = await client.query<{ id: string; user_id: string; asset_id: string }>(
      `SELECT w.id, w.user_id, w.asset_id FROM user_wallets w
         JOIN unnest($1::uuid[], $2::text[]) AS p(user_id, asset_id)
           ON w.user_id = p.user_id AND w.asset_id = p.asset_id`,
      [users, assets],
    );
    return new Map(rows.map((r) => [`${r.user_id}/${r.asset_id}`, r.id]));
  },

  /** Pending chain deposits, one statement for many (ledger.postPendingDeposits). */
  async insertPendingDeposits(
    client: TxClient,
    rows: Array<{
      id: string;
      userId: string;
      walletId: string;
      assetId: string;
      network: string;
      cryptoAmount: string;
      usdAmount: string | null;
      memo: string | null;
      transactionHash: string | null;
    }>,
  ): Promise<TransactionRow[]> {
    const column = <K extends keyof (typeof rows)[number]>(k: K) => rows.map((r) => r[k]);
    const { rows: inserted } = await client.query<TransactionRow>(
      `INSERT INTO transactions (id, user_id, wallet_id, transaction_type, direction, asset_id, network,
         crypto_amount, fee, usd_amount, currency, memo, transaction_hash, status, transaction_date)
       SELECT id, user_id, wallet_id, 'deposit', 'credit', asset_id, network, crypto_amount, 0,
              usd_amount, 'USD', memo, transaction_hash, 'pending', now()
         FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::numeric[],
                     $7::numeric[], $8::text[], $9::text[])
           AS t(id, user_id, wallet_id, asset_id, network, crypto_amount, usd_amount, memo, transaction_hash)
       RETURNING *`,
      [
        column('id'),
        column('userId'),
        column('walletId'),
        column('assetId'),
        column('network'),
        column('cryptoAmount'),
        column('usdAmount'),
        column('memo'),
        column('transactionHash'),
      ],
    );
    return inserted;
  },

  async lockTransactions(client: TxClient, ids: string[]): Promise<TransactionRow[]> {
    const { rows } = await client.query<TransactionRow>(
      'SELECT * FROM transactions WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE',
      [ids],
    );
    return rows;
  },

  async lockWalletsById(client: TxClient, ids: string[]): Promise<WalletRow[]> {
    const { rows } = await client.query<WalletRow>(
      `SELECT id, user_id, asset_id, network, balance_crypto, held FROM user_wallets
        WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`,
      [ids],
    );
    return rows;
  },

  async setWalletBalances(
    client: TxClient,
    balances: Array<{ id: string; balance: string }>,
  ): Promise<void> {
    await client.query(
      `UPDATE user_wallets w SET balance_crypto = b.balance, updated_at = now()
         FROM unnest($1::uuid[], $2::numeric[]) AS b(id, balance) WHERE w.id = b.id`,
      [balances.map((b) => b.id), balances.map((b) => b.balance)],
    );
  },

  async completeAll(client: TxClient, ids: string[]): Promise<TransactionRow[]> {
    const { rows } = await client.query<TransactionRow>(
      `UPDATE transactions SET status = 'completed', completed_at = now()
        WHERE id = ANY($1::uuid[]) RETURNING *`,
      [ids],
    );
    return rows;
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

  /** Every wallet whose balance or hold is not the sum of its ledger rows (empty = clean). */
  async reconcile(db: pg.Pool | TxClient): Promise<ReconcileRow[]> {
    const { rows } = await db.query<ReconcileRow>(RECONCILE_SQL);
    return rows;
  },

  /**
   * Stores an idempotency key with no answer yet, unless (user, key) is there already: true
   * when this call stored it. A concurrent insert of the same key waits until the first
   * transaction ends.
   */
  async claimIdempotencyKey(
    client: TxClient,
    userId: string,
    key: string,
    requestHash: string,
  ): Promise<boolean> {
    const inserted = await client.query(
      `INSERT INTO idempotency_keys (user_id, key, request_hash, response_status, response_body)
       VALUES ($1, $2, $3, 0, 'null') ON CONFLICT (user_id, key) DO NOTHING`,
      [userId, key, requestHash],
    );
    return inserted.rowCount === 1;
  },

  async storeIdempotentAnswer(
    client: TxClient,
    userId: string,
    key: string,
    answer: { status: number; body: unknown },
  ): Promise<void> {
    await client.query(
      'UPDATE idempotency_keys SET response_status = $3, response_body = $4 WHERE user_id = $1 AND key = $2',
      [userId, key, answer.status, JSON.stringify(answer.body)],
    );
  },

  /** The stored request hash and answer of (user, key), or null. */
  async idempotentAnswer<T>(
    client: TxClient,
    userId: string,
    key: string,
  ): Promise<{ request_hash: string; response_status: number; response_body: T } | null> {
    const { rows } = await client.query<{
      request_hash: string;
      response_status: number;
      response_body: T;
    }>(
      'SELECT request_hash, response_status, response_body FROM idempotency_keys WHERE user_id = $1 AND key = $2',
      [userId, key],
    );
    return rows[0] ?? null;
  },
};

export type ReconcileRow = {
  wallet_id: string;
  user_id: string;
  asset_id: string;
  balance_crypto: string;
  held: string;
  expected_balance: string;
  expected_held: string;
};

/** Wallets whose stored balance or hold differs from the sum of their ledger rows. */
const RECONCILE_SQL = `
WITH effects AS (
  SELECT wallet_id,
         SUM(CASE WHEN direction = 'credit' AND status = 'completed' THEN crypto_amount
                  WHEN direction = 'debit' AND status = 'completed' THEN -(crypto_amount + fee)
                  ELSE 0 END) AS balance,
         SUM(CASE WHEN direction = 'debit' AND status = 'pending' THEN crypto_amount + fee ELSE 0 END) AS held
    FROM transactions
   WHERE deleted_at IS NULL AND wallet_id IS NOT NULL
   GROUP BY wallet_id)
SELECT w.id AS wallet_id, w.user_id, w.asset_id, w.balance_crypto, w.held,
       COALESCE(e.balance, 0) AS expected_balance, COALESCE(e.held, 0) AS expected_held
  FROM user_wallets w LEFT JOIN effects e ON e.wallet_id = w.id
 WHERE w.balance_crypto <> COALESCE(e.balance, 0) OR w.held <> COALESCE(e.held, 0)`;
