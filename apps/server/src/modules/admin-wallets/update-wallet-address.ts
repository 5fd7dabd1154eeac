import type { TAdminWallet } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { adminWalletsRepository as repo } from './admin-wallets.repository';
import {
  type Actor,
  type AdminWalletsContext,
  checkedAddress,
  lockWallet,
  presentWallet,
} from './admin-wallets-context';

/** A wallet's shown address, checked by its network's rule; audited. */
export async function updateWalletAddress(
  ctx: AdminWalletsContext,
  actor: Actor,
  walletId: string,
  input: string,
): Promise<TAdminWallet> {
  return withTransaction(ctx.pool, async (client) => {
    const before = await lockWallet(client, walletId);
    const address = checkedAddress(before.network, input);
    const after = await repo.setWalletAddress(client, walletId, address);
    await ctx.audit.record(client, {
      actorId: actor.adminId,
      action: 'wallet.address.update',
      targetType: 'wallet',
      targetId: walletId,
      targetUserId: before.user_id,
      before: { assetId: before.asset_id, address: before.wallet_address },
      after: { assetId: after.asset_id, address: after.wallet_address },
      ip: actor.ip,
    });
    return presentWallet(ctx, after);
  });
}
