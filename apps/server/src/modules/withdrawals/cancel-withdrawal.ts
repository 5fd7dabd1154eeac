import { HISTORY_MSG, type TTransaction } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import type { Client } from '@server/lib/client-of';
import { presentTransaction, requestHash, runOnce, trimDecimal } from '../ledger';
import { cancelRefusal } from './cancel-rules';
import { cancelMail } from './withdrawal-mail';
import { withdrawalsRepository as repo } from './withdrawals.repository';
import { UUID, type WithdrawalsContext } from './withdrawals-context';

const CANCEL_ROUTE = 'POST /api/withdrawals/:id/cancel';

/**
 * The customer takes back their own withdrawal or bank payout while nobody has taken it:
 * pending, not approved for payment and never edited by staff. One database transaction,
 * judged on the row under its lock (the lock staff's completion, rejection and approval
 * take first too, so whichever comes first wins and the other is refused): the ledger
 * closes it as failed, which releases the held amount and fee; the customer's mail is
 * queued; the audit row, with the customer as actor, is written last. With an
 * Idempotency-Key, a repeat gets the first answer.
 */
export async function cancelWithdrawal(
  ctx: WithdrawalsContext,
  userId: string,
  transactionId: string,
  idempotencyKey: string | undefined,
  who: Client,
): Promise<TTransaction> {
  const hash = requestHash(CANCEL_ROUTE, { id: transactionId });
  const answer = await withTransaction(ctx.pool, (client) =>
    runOnce(client, { userId, key: idempotencyKey, hash }, async () => {
      const row = UUID.test(transactionId)
        ? await repo.lockWithdrawal(client, transactionId)
        : null;
      const approved = row ? await repo.hasPayout(client, transactionId) : false;
      const refusal = cancelRefusal(row, userId, approved);
      if (refusal || !row) {
        throw new AppError(
          refusal?.code ?? 'NOT_FOUND',
          refusal?.message ?? HISTORY_MSG.cancelNotFound,
        );
      }
      const after = await ctx.ledger.changeStatus(client, transactionId, 'failed', {
        reason: HISTORY_MSG.cancelledReason,
        processedBy: userId,
      });
      const to = await repo.emailOf(client, userId);
      if (to) await ctx.outbox.mail(client, { to, ...cancelMail(after, ctx.publicUrl) });
      await ctx.audit.record(client, {
        actorId: userId,
        action: 'withdrawal.cancel',
        targetType: 'transaction',
        targetId: transactionId,
        targetUserId: userId,
        before: { status: row.status },
        after: {
          status: after.status,
          type: after.transaction_type,
          assetId: after.asset_id,
          amount: trimDecimal(after.crypto_amount),
          fee: trimDecimal(after.fee),
          released: after.wallet_id !== null,
        },
        reason: HISTORY_MSG.cancelledReason,
        ip: who.ip,
      });
      return { status: 200, body: { ...presentTransaction(after), cancelled: true } };
    }),
  );
  await ctx.outbox.deliver();
  return answer.body;
}
