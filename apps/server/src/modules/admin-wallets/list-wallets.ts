import {
  ADMIN_ADDRESS_LIST_LIMIT,
  type TAdminDepositAddress,
  type TAdminDepositAddressesResponse,
  type TAdminWallet,
} from '@coffer/shared';
import { adminWalletsRepository as repo } from './admin-wallets.repository';
import {
  type AdminWalletsContext,
  presentAddress,
  presentWallet,
  requireUser,
} from './admin-wallets-context';

/** A customer's wallets by asset, valued at the current prices. */
export async function walletsOf(ctx: AdminWalletsContext, userId: string): Promise<TAdminWallet[]> {
  await requireUser(ctx.pool, userId);
  return (await repo.walletsOf(ctx.pool, userId)).map((w) => presentWallet(ctx, w));
}

/** Every deposit address (or those matching `q`), newest first, and how many match. */
export async function listAddresses(
  ctx: AdminWalletsContext,
  q: string | undefined,
): Promise<TAdminDepositAddressesResponse> {
  const { rows, total } = await repo.listAddresses(
    ctx.pool,
    q ? q : undefined,
    ADMIN_ADDRESS_LIST_LIMIT,
  );
  return { addresses: rows.map(presentAddress), total };
}

/** One customer's deposit addresses, active or not. */
export async function addressesOf(
  ctx: AdminWalletsContext,
  userId: string,
): Promise<TAdminDepositAddress[]> {
  await requireUser(ctx.pool, userId);
  return (await repo.addressesOf(ctx.pool, userId)).map(presentAddress);
}
