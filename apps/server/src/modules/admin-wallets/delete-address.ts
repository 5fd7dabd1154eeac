import type { TStepUp } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { adminWalletsRepository as repo } from './admin-wallets.repository';
import {
  type Actor,
  type AdminWalletsContext,
  addressFacts,
  lockAddress,
} from './admin-wallets-context';

/** Deleting a deposit address stops deposits to it: the admin's step-up confirms it. */
export async function deleteAddress(
  ctx: AdminWalletsContext,
  actor: Actor,
  id: string,
  stepUp: TStepUp,
): Promise<void> {
  await withTransaction(ctx.pool, async (client) => {
    const before = await lockAddress(client, id);
    await repo.deleteAddress(client, id);
    await ctx.stepUp.confirm(client, actor.session, stepUp, actor.client);
    await ctx.audit.record(client, {
      actorId: actor.adminId,
      action: 'deposit_address.delete',
      targetType: 'deposit_address',
      targetId: id,
      targetUserId: before.user_id,
      before: addressFacts(before),
      ip: actor.ip,
    });
    await ctx.addressRequests.announce(client, before.user_id);
  });
}
