import {
  ADMIN_WALLET_MSG,
  type TAdminDepositAddress,
  type TUpdateDepositAddressRequest,
} from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import { adminWalletsRepository as repo } from './admin-wallets.repository';
import {
  type Actor,
  type AdminWalletsContext,
  addressFacts,
  assertAddressFree,
  checkedAddress,
  fulfilRequestWith,
  isUniqueViolation,
  lockAddress,
  presentAddress,
} from './admin-wallets-context';

/** An edit of a deposit address: the fields not sent stay; the address keeps one owner. */
export async function updateAddress(
  ctx: AdminWalletsContext,
  actor: Actor,
  id: string,
  body: TUpdateDepositAddressRequest,
): Promise<TAdminDepositAddress> {
  try {
    const { result, fulfilled } = await withTransaction(ctx.pool, async (client) => {
      const before = await lockAddress(client, id);
      const network = body.network ?? before.network;
      const address = checkedAddress(network, body.address ?? before.address);
      await assertAddressFree(client, address, id);
      await repo.updateAddress(client, id, {
        assetSymbol: body.assetSymbol ?? before.asset_symbol,
        network,
        address,
        isActive: body.isActive ?? before.is_active,
      });
      const after = await repo.addressById(client, id);
      if (!after) throw new Error(`deposit address ${id} vanished`);
      await ctx.audit.record(client, {
        actorId: actor.adminId,
        action: 'deposit_address.update',
        targetType: 'deposit_address',
        targetId: id,
        targetUserId: before.user_id,
        before: addressFacts(before),
        after: addressFacts(after),
        ip: actor.ip,
      });
      // Switched on, or made the asset asked for: the customer's request is answered too.
      const fulfilled = await fulfilRequestWith(ctx, client, after, actor);
      await ctx.addressRequests.announce(client, after.user_id);
      return { result: presentAddress(after), fulfilled };
    });
    if (fulfilled) await ctx.addressRequests.sendMail();
    return result;
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('CONFLICT', ADMIN_WALLET_MSG.addressTaken);
    throw err;
  }
}
