import type { TTransaction } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import { presentTransaction } from '../ledger';
import { lockPending, type StaffHooks, tell, type WithdrawalsContext } from './withdrawals-context';

/** Staff refused the payout: the hold is released and the customer is told why. */
export async function rejectWithdrawal(
  ctx: WithdrawalsContext,
  transactionId: string,
  input: { reason: string; processedBy: string } & StaffHooks,
): Promise<TTransaction> {
  const reason = input.reason.trim();
  if (reason === '' || reason.length > 500) {
    throw new AppError('VALIDATION_FAILED', 'Enter the reason the customer will see.');
  }
  const row = await withTransaction(ctx.pool, async (client) => {
    const before = await lockPending(client, transactionId, input.guard);
    await input.check?.(client, before);
    const after = await ctx.ledger.changeStatus(client, transactionId, 'failed', {
      reason,
      processedBy: input.processedBy,
    });
    await input.record?.(client, before, after);
    await tell(ctx, client, after);
    return after;
  });
  await ctx.outbox.deliver();
  return presentTransaction(row);
}
