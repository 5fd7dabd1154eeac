import type { ColumnsOf } from '@server/db/rows';
import type { userWallets } from '@server/db/schema/index';
import type { TxClient } from '@server/db/tx';
import type { TransactionRow, WalletRow } from './ledger.repository';

/**
 * The SQL of a chain block's deposits: many rows and wallets per statement. Every function
 * runs on a connection inside the caller's transaction.
 */
export const chainDepositsRepository = {
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
    const { rows } = await client.query<
      ColumnsOf<typeof userWallets, 'id' | 'user_id' | 'asset_id'>
    >(
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
};
