import type { TAdminTransaction, TStepUp } from '@coffer/shared';
import {
  type Actor,
  type AdminTransactionsContext,
  audited,
  confirmStepUp,
  view,
} from './admin-transactions-context';

/** Refuses a payout: the hold is released and the customer is told why. */
export async function rejectPayout(
  ctx: AdminTransactionsContext,
  actor: Actor,
  id: string,
  reason: string,
  stepUp: TStepUp,
): Promise<TAdminTransaction> {
  await ctx.withdrawals.reject(id, {
    reason,
    processedBy: actor.id,
    // Once a batch may pay it, the chain decides: never rejected then. Before that, the
    // approval goes with the rejection.
    check: (client, locked) => ctx.payouts.beforeReject(client, locked),
    record: async (client, before, after) => {
      await confirmStepUp(ctx, client, actor, stepUp);
      await ctx.audit.record(client, {
        actorId: actor.id,
        action: 'withdrawal.reject',
        targetType: 'transaction',
        targetId: id,
        targetUserId: after.user_id,
        before: await audited(ctx, client, before),
        after: await audited(ctx, client, after),
        reason,
        ip: actor.ip,
      });
    },
  });
  return view(ctx, ctx.pool, id);
}
