import {
  ADMIN_WALLET_MSG,
  type TAdminDepositAddress,
  type TCreateDepositAddressRequest,
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
  presentAddress,
  requireUser,
} from './admin-wallets-context';

/**
 * A deposit address staff enter for a customer: one customer per address; audited. An active
 * one fulfils the customer's open request for its asset (mail and audit row) in the same
 * transaction.
 */
export async function createAddress(
  ctx: AdminWalletsContext,
  actor: Actor,
  body: TCreateDepositAddressRequest,
): Promise<TAdminDepositAddress> {
  try {
    const { result, fulfilled } = await withTransaction(ctx.pool, async (client) => {
      await requireUser(client, body.userId);
      const address = checkedAddress(body.network, body.address);
      await assertAddressFree(client, address, null);
      const id = await repo.insertAddress(client, {
        userId: body.userId,
        assetSymbol: body.assetSymbol,
        network: body.network,
        address,
        isActive: body.isActive ?? true,
      });
      const row = await repo.addressById(client, id);
      if (!row) throw new Error(`deposit address ${id} vanished`);
      await ctx.audit.record(client, {
        actorId: actor.adminId,
        action: 'deposit_address.create',
        targetType: 'deposit_address',
        targetId: id,
        targetUserId: body.userId,
        after: addressFacts(row),
        ip: actor.ip,
      });
      const fulfilled = await fulfilRequestWith(ctx, client, row, actor);
      await ctx.addressRequests.announce(client, body.userId);
      return { result: presentAddress(row), fulfilled };
    });
    if (fulfilled) await ctx.addressRequests.sendMail();
    return result;
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('CONFLICT', ADMIN_WALLET_MSG.addressTaken);
    throw err;
  }
}
