import { ADMIN_TX_MSG, type TAdminTransaction, type TStepUp } from '@coffer/shared';
import { AppError } from '@server/lib/app-error';
import type pg from 'pg';
import type { TransactionRow } from '../ledger';
import { adminTransactionsRepository as repo } from './admin-transactions.repository';
import {
  type Actor,
  type AdminTransactionsContext,
  bankFacts,
  confirmStepUp,
  view,
} from './admin-transactions-context';
import { auditView, UUID } from './admin-transactions-rules';

/**
 * Pays a withdrawal or bank transfer out. The reference must be what proves it left: a
 * chain transaction hash of the payout's network (kept normalised) or a bank reference.
 * Four-eyes, judged on the row locked inside the completion: neither the admin who
 * recorded the request nor anyone who ever edited it may complete it.
 */
/**
 * Pays a withdrawal or bank transfer out by hand. A bank payout takes the bank's
 * reference, four eyes judged on the locked row. A crypto withdrawal must be approved
 * first (four eyes there); its hash is checked against the chain by the payouts module,
 * which settles it when the chain shows it paying the address exactly its amount.
 */
export async function completePayout(
  ctx: AdminTransactionsContext,
  actor: Actor,
  id: string,
  reference: string,
  stepUp: TStepUp,
): Promise<TAdminTransaction> {
  const record = async (client: pg.PoolClient, before: TransactionRow, after: TransactionRow) => {
    const bankNow =
      after.transaction_type === 'bank_transfer'
        ? bankFacts(ctx, await repo.bankAccountOf(client, id))
        : null;
    await ctx.audit.record(client, {
      actorId: actor.id,
      action: 'withdrawal.complete',
      targetType: 'transaction',
      targetId: id,
      targetUserId: after.user_id,
      before: auditView(before, bankNow),
      after: { ...auditView(after, bankNow), typedHash: reference.trim() || null },
      reason: null,
      ip: actor.ip,
    });
  };
  const current = UUID.test(id) ? await repo.findById(ctx.pool, id) : null;
  if (current?.transaction_type === 'withdrawal') {
    await ctx.payouts.completeByHash(actor, id, reference, stepUp, record);
    return view(ctx, ctx.pool, id);
  }
  // withdrawals.complete checks the reference's form against the locked row: the
  // network's transaction hash, or a bank's reference for a bank payout.
  await ctx.withdrawals.complete(id, {
    transactionHash: reference,
    processedBy: actor.id,
    guard: (locked) => {
      if (
        locked.created_by === actor.id ||
        locked.updated_by === actor.id ||
        locked.editor_ids.includes(actor.id)
      ) {
        throw new AppError('FORBIDDEN', ADMIN_TX_MSG.fourEyes);
      }
    },
    // A crypto withdrawal that became one after this read is refused here.
    check: (client, locked) => ctx.payouts.assertOffChain(client, locked, true),
    record: async (client, before, after) => {
      await confirmStepUp(ctx, client, actor, stepUp);
      await record(client, before, after);
    },
  });
  return view(ctx, ctx.pool, id);
}
