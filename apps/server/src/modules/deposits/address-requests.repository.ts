import { CUSTOMER_ASSET_IDS, type TAssetId } from '@coffer/shared';
import type { ColumnsOf } from '@server/db/rows';
import type { depositAddressRequests, userProfiles, users } from '@server/db/schema/index';
import type { TxClient } from '@server/db/tx';
import type pg from 'pg';

type Db = pg.Pool | TxClient;

type RequestRow = ColumnsOf<
  typeof depositAddressRequests,
  'id' | 'user_id' | 'asset_id' | 'network' | 'requested_at'
>;

/** An open request: the customer, the wallet's asset and network, and since when. */
export type AddressRequest = {
  id: string;
  userId: string;
  assetId: TAssetId;
  network: string;
  requestedAt: Date;
};

/** An open request with its customer, as staff list it. */
export type AddressRequestWithOwner = AddressRequest & {
  owner: { email: string; fullName: string | null; username: string | null };
};

/** A request just fulfilled, with the e-mail its customer is told at. */
export type FulfilledRequest = AddressRequest & { email: string };

const COLUMNS = 'r.id, r.user_id, r.asset_id, r.network, r.requested_at';

function toRequest(row: RequestRow): AddressRequest {
  // The table's check allows the customer wallets only; anything else is a broken row.
  const assetId = CUSTOMER_ASSET_IDS.find((id) => id === row.asset_id);
  if (!assetId) throw new Error(`address request ${row.id} names an unknown asset ${row.asset_id}`);
  return {
    id: row.id,
    userId: row.user_id,
    assetId,
    network: row.network,
    requestedAt: row.requested_at,
  };
}

/** The SQL of deposit address requests. */
export const addressRequestsRepository = {
  /**
   * Makes a customer's parallel asks for one asset, and staff adding that asset's address
   * for them, wait for each other (any instance), so an ask never slips past an address
   * being added, nor two asks past each other.
   */
  async lockCustomerAsset(client: TxClient, userId: string, assetId: TAssetId): Promise<void> {
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
      `deposit-address-request:${userId}:${assetId}`,
    ]);
  },

  /** The customer's open request for an asset. */
  async openOf(db: Db, userId: string, assetId: TAssetId): Promise<AddressRequest | null> {
    const { rows } = await db.query<RequestRow>(
      `SELECT ${COLUMNS} FROM deposit_address_requests r
        WHERE r.user_id = $1 AND r.asset_id = $2 AND r.fulfilled_at IS NULL`,
      [userId, assetId],
    );
    return rows[0] ? toRequest(rows[0]) : null;
  },

  /** Every open request of the customer. */
  async openOfUser(db: Db, userId: string): Promise<AddressRequest[]> {
    const { rows } = await db.query<RequestRow>(
      `SELECT ${COLUMNS} FROM deposit_address_requests r
        WHERE r.user_id = $1 AND r.fulfilled_at IS NULL`,
      [userId],
    );
    return rows.map(toRequest);
  },

  /**
   * Stores a new open request; null when one is already open (the unique index answers,
   * should a caller not hold lockCustomerAsset): nothing written then.
   */
  async insert(
    client: TxClient,
    userId: string,
    assetId: TAssetId,
    network: string,
  ): Promise<AddressRequest | null> {
    const { rows } = await client.query<RequestRow>(
      `INSERT INTO deposit_address_requests AS r (user_id, asset_id, network)
       VALUES ($1, $2, $3)
       ON CONFLICT (user_id, asset_id) WHERE fulfilled_at IS NULL DO NOTHING
       RETURNING ${COLUMNS}`,
      [userId, assetId, network],
    );
    return rows[0] ? toRequest(rows[0]) : null;
  },

  /** Every open request with its customer, oldest first (who waited longest comes first). */
  async openWithOwners(db: Db): Promise<AddressRequestWithOwner[]> {
    const { rows } = await db.query<
      RequestRow &
        ColumnsOf<typeof users, 'email'> &
        ColumnsOf<typeof userProfiles, 'full_name' | 'username'>
    >(
      `SELECT ${COLUMNS}, u.email, p.full_name, p.username
         FROM deposit_address_requests r
         JOIN users u ON u.id = r.user_id
         LEFT JOIN user_profiles p ON p.id = r.user_id
        WHERE r.fulfilled_at IS NULL
        ORDER BY r.requested_at, r.id`,
    );
    return rows.map((row) => ({
      ...toRequest(row),
      owner: { email: row.email, fullName: row.full_name, username: row.username },
    }));
  },

  /**
   * Marks the customer's open request for the asset fulfilled by this address; null when
   * none was open.
   */
  async fulfil(
    client: TxClient,
    input: { userId: string; assetId: TAssetId; adminId: string; depositAddressId: string },
  ): Promise<FulfilledRequest | null> {
    const { rows } = await client.query<RequestRow & ColumnsOf<typeof users, 'email'>>(
      `WITH done AS (
         UPDATE deposit_address_requests r
            SET fulfilled_at = now(), fulfilled_by = $3, deposit_address_id = $4
          WHERE r.user_id = $1 AND r.asset_id = $2 AND r.fulfilled_at IS NULL
          RETURNING ${COLUMNS}
       )
       SELECT done.*, u.email FROM done JOIN users u ON u.id = done.user_id`,
      [input.userId, input.assetId, input.adminId, input.depositAddressId],
    );
    const row = rows[0];
    return row ? { ...toRequest(row), email: row.email } : null;
  },
};
