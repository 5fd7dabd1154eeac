import { ADMIN_TX_MSG, type TDeleteAdminTransactionRequest } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import { adminTransactionsRepository as repo } from './admin-transactions.repository';
import {
  type Actor,
  type AdminTransactionsContext,
  bankFacts,
  confirmStepUp,
} from './admin-transactions-context';
import { auditView, finalRowMessage, isFinalRow, PAYOUT_TYPES } from './admin-transactions-rules';

/**
 * A deletion marks the row deleted and reverses its effect (a balance moves, so the admin's
 * step-up confirms it, as an edit's does); nothing is erased. Final
 * history is never deleted: a completed or rejected payout, or an adjustment (corrected
 * by a reversing adjustment instead).
 */
export async function deleteTransaction(
  ctx: AdminTransactionsContext,
  actor: Actor,
  id: string,
  { reason, stepUp }: TDeleteAdminTransactionRequest,
): Promise<void> {
  try {
    await withTransaction(ctx.pool, async (client) => {
      const current = await repo.findById(client, id, true);
      if (!current) throw new AppError('NOT_FOUND', 'Transaction not found.');
      const final = finalRowMessage(current);
      if (final) throw new AppError('CONFLICT', final);
      // A request the customer made is answered, not erased: Reject tells them why.
      if (PAYOUT_TYPES.has(current.transaction_type) && current.created_by === current.user_id) {
        throw new AppError('CONFLICT', ADMIN_TX_MSG.customerPayoutNoDelete);
      }
      const bank = bankFacts(ctx, current);
      const change = await ctx.ledger.remove(client, id, actor.id);
      await confirmStepUp(ctx, client, actor, stepUp);
      await ctx.audit.record(client, {
        actorId: actor.id,
        action: 'transaction.delete',
        targetType: 'transaction',
        targetId: id,
        targetUserId: change.after.user_id,
        before: auditView(change.before, bank),
        after: auditView(change.after, bank),
        reason,
        ip: actor.ip,
      });
    });
  } catch (err) {
    if (isFinalRow(err)) throw new AppError('CONFLICT', ADMIN_TX_MSG.finalRow);
    throw err;
  }
}
