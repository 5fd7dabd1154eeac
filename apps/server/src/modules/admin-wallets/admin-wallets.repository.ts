import { assetById, parseAmount, type TAsset } from '@coffer/shared';
import type { ColumnsOf } from '@server/db/rows';
import type { depositAddresses, userProfiles, users, userWallets } from '@server/db/schema/index';
import type { TxClient } from '@server/db/tx';
import type pg from 'pg';

type Db = pg.Pool | TxClient;

type WalletRow = ColumnsOf<
  typeof userWallets,
  | 'id'
  | 'user_id'
  | 'asset_id'
  | 'network'
  | 'balance_crypto'
  | 'held'
  | 'wallet_address'
  | 'nickname'
  | 'is_active'
  | 'updated_at'
>;

/**
 * A wallet as staff manage it: its asset from the catalogue, and its balance and the amount
 * pending withdrawals hold in the asset's smallest unit.
 */
export type AdminWallet = Omit<WalletRow, 'balance_crypto' | 'held'> & {
  asset: TAsset;
  balance: bigint;
  held: bigint;
};

/** A deposit address with its customer. */
export type AdminDepositAddressRow = ColumnsOf<
  typeof depositAddresses,
  | 'id'
  | 'user_id'
  | 'asset_symbol'
  | 'network'
  | 'address'
  | 'is_active'
  | 'created_at'
  | 'updated_at'
> &
  ColumnsOf<typeof users, 'email'> &
  ColumnsOf<typeof userProfiles, 'full_name' | 'username'>;

const WALLET_COLUMNS = `id, user_id, asset_id, network, balance_crypto::text AS balance_crypto,
  held::text AS held, wallet_address, nickname, is_active, updated_at`;

function toWallet({ balance_crypto, held, ...row }: WalletRow): AdminWallet {
  const asset = assetById(row.asset_id);
  if (!asset) throw new Error(`wallet ${row.id} holds an unknown asset ${row.asset_id}`);
  return {
    ...row,
    asset,
    balance: parseAmount(balance_crypto, asset.decimals),
    held: parseAmount(held, asset.decimals),
  };
}

const ADDRESS_SELECT = `SELECT a.id, a.user_id, a.asset_symbol, a.network, a.address, a.is_active,
       a.created_at, a.updated_at, u.email, p.full_name, p.username
  FROM deposit_addresses a
  JOIN users u ON u.id = a.user_id
  LEFT JOIN user_profiles p ON p.id = a.user_id`;

/** `%` and `_` typed into a search box are literal characters, not patterns. */
function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The SQL of wallet management and deposit addresses; balances are changed only by the ledger. */
export const adminWalletsRepository = {
  /** The user's e-mail, or null when there is no such user. */
  async userEmail(db: Db, userId: string): Promise<string | null> {
    const { rows } = await db.query<ColumnsOf<typeof users, 'email'>>(
      'SELECT email FROM users WHERE id = $1',
      [userId],
    );
    return rows[0]?.email ?? null;
  },

  /** A user's wallets by asset. */
  async walletsOf(db: Db, userId: string): Promise<AdminWallet[]> {
    const { rows } = await db.query<WalletRow>(
      `SELECT ${WALLET_COLUMNS} FROM user_wallets WHERE user_id = $1 ORDER BY asset_id`,
      [userId],
    );
    return rows.map(toWallet);
  },

  /** Locks a wallet for an edit; the ledger locks the same row again when it posts. */
  async lockWallet(client: TxClient, id: string): Promise<AdminWallet | null> {
    const { rows } = await client.query<WalletRow>(
      `SELECT ${WALLET_COLUMNS} FROM user_wallets WHERE id = $1 FOR UPDATE`,
      [id],
    );
    return rows[0] ? toWallet(rows[0]) : null;
  },

  async walletById(db: Db, id: string): Promise<AdminWallet | null> {
    const { rows } = await db.query<WalletRow>(
      `SELECT ${WALLET_COLUMNS} FROM user_wallets WHERE id = $1`,
      [id],
    );
    return rows[0] ? toWallet(rows[0]) : null;
  },

  async setWalletAddress(client: TxClient, id: string, address: string): Promise<AdminWallet> {
    const { rows } = await client.query<WalletRow>(
      `UPDATE user_wallets SET wallet_address = $2, updated_at = now() WHERE id = $1
       RETURNING ${WALLET_COLUMNS}`,
      [id, address],
    );
    const row = rows[0];
    if (!row) throw new Error(`wallet ${id} vanished`);
    return toWallet(row);
  },

  /** Every address (or those matching `q`), newest first, with its customer. */
  async listAddresses(
    db: Db,
    q: string | undefined,
    limit: number,
  ): Promise<{ rows: AdminDepositAddressRow[]; total: number }> {
    const where = q
      ? `WHERE a.address ILIKE $1 OR a.asset_symbol ILIKE $1 OR a.network ILIKE $1
            OR u.email ILIKE $1 OR p.full_name ILIKE $1 OR p.username ILIKE $1`
      : '';
    const params = q ? [likePattern(q)] : [];
    const [list, count] = await Promise.all([
      db.query<AdminDepositAddressRow>(
        `${ADDRESS_SELECT} ${where} ORDER BY a.created_at DESC, a.id DESC LIMIT ${Number(limit)}`,
        params,
      ),
      db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM deposit_addresses a JOIN users u ON u.id = a.user_id
           LEFT JOIN user_profiles p ON p.id = a.user_id ${where}`,
        params,
      ),
    ]);
    return { rows: list.rows, total: count.rows[0]?.n ?? 0 };
  },

  /** One customer's addresses, active or not, newest first. */
  async addressesOf(db: Db, userId: string): Promise<AdminDepositAddressRow[]> {
    const { rows } = await db.query<AdminDepositAddressRow>(
      `${ADDRESS_SELECT} WHERE a.user_id = $1 ORDER BY a.created_at DESC, a.id DESC`,
      [userId],
    );
    return rows;
  },

  async addressById(db: Db, id: string, lock = false): Promise<AdminDepositAddressRow | null> {
    const { rows } = await db.query<AdminDepositAddressRow>(
      `${ADDRESS_SELECT} WHERE a.id = $1${lock ? ' FOR UPDATE OF a' : ''}`,
      [id],
    );
    return rows[0] ?? null;
  },

  /** The id of the address row holding `address`, other than `exceptId`. */
  async addressOwner(
    db: Db,
    address: string,
    exceptId: string | null,
  ): Promise<ColumnsOf<typeof depositAddresses, 'id' | 'user_id'> | null> {
    const { rows } = await db.query<ColumnsOf<typeof depositAddresses, 'id' | 'user_id'>>(
      'SELECT id, user_id FROM deposit_addresses WHERE lower(address) = lower($1) AND id IS DISTINCT FROM $2',
      [address, exceptId],
    );
    return rows[0] ?? null;
  },

  async insertAddress(
    client: TxClient,
    a: { userId: string; assetSymbol: string; network: string; address: string; isActive: boolean },
  ): Promise<string> {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO deposit_addresses (user_id, asset_symbol, network, address, is_active)
       VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [a.userId, a.assetSymbol, a.network, a.address, a.isActive],
    );
    const row = rows[0];
    if (!row) throw new Error('insert returned no row');
    return row.id;
  },

  async updateAddress(
    client: TxClient,
    id: string,
    a: { assetSymbol: string; network: string; address: string; isActive: boolean },
  ): Promise<void> {
    await client.query(
      `UPDATE deposit_addresses SET asset_symbol = $2, network = $3, address = $4, is_active = $5,
         updated_at = now() WHERE id = $1`,
      [id, a.assetSymbol, a.network, a.address, a.isActive],
    );
  },

  async deleteAddress(client: TxClient, id: string): Promise<void> {
    await client.query('DELETE FROM deposit_addresses WHERE id = $1', [id]);
  },
};
