import {
  ADMIN_TX_MSG,
  normalizeBankReference,
  normalizeTxHash,
  type TTransaction,
} from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import type pg from 'pg';
import { presentTransaction, type TransactionRow } from '../ledger';
import { isBank } from './withdrawal-mail';
import { lockPending, type StaffHooks, tell, type WithdrawalsContext } from './withdrawals-context';

/**
 * Staff paid the payout out: the hold becomes a debit and the reference is kept (the
 * chain transaction of a withdrawal, the bank's of a bank payout; the caller checked
 * its form). The customer's mail is queued in the same transaction.
 */
export async function completeWithdrawal(
  ctx: WithdrawalsContext,
  transactionId: string,
  input: { transactionHash: string; processedBy: string } & StaffHooks,
): Promise<TTransaction> {
  const row = await withTransaction(ctx.pool, async (client) => {
    const before = await lockPending(client, transactionId, input.guard);
    await input.check?.(client, before);
    // A customer's bank transfer from before payouts were funded holds nothing: paying
    // it out would be money leaving the books (decision 0010). It can only be rejected.
    if (isBank(before) && before.wallet_id === null && before.created_by === before.user_id) {
      throw new AppError('CONFLICT', ADMIN_TX_MSG.unfundedPayout);
    }
    // The proof that the money left, in its one form: a bank's reference for a bank
    // payout, the chain transaction of the asset's network for a withdrawal.
    if (input.transactionHash.trim() === '') {
      throw new AppError(
        'VALIDATION_FAILED',
        isBank(before) ? ADMIN_TX_MSG.bankReferenceRequired : ADMIN_TX_MSG.hashRequired,
      );
    }
    const reference = isBank(before)
      ? normalizeBankReference(input.transactionHash)
      : normalizeTxHash(before.asset_id, input.transactionHash);
    if (!reference.ok) throw new AppError('VALIDATION_FAILED', reference.message);
    const after = await ctx.ledger.changeStatus(client, transactionId, 'completed', {
      transactionHash: reference.value,
      processedBy: input.processedBy,
    });
    await input.record?.(client, before, after);
    await tell(ctx, client, after);
    return after;
  });
  await ctx.outbox.deliver();
  return presentTransaction(row);
}

/**
 * The chain proved a crypto payout (or staff's hash on a chain Coffer does not watch):
 * the hold becomes a debit and the customer's mail is queued, in the caller's
 * transaction. The payouts module decides when; this is the one way it is written.
 */
export async function settleWithdrawal(
  ctx: WithdrawalsContext,
  client: pg.PoolClient,
  transactionId: string,
  input: { transactionHash: string; processedBy: string | null },
): Promise<TransactionRow> {
  const before = await lockPending(client, transactionId);
  const reference = normalizeTxHash(before.asset_id, input.transactionHash);
  if (!reference.ok) throw new AppError('VALIDATION_FAILED', reference.message);
  const after = await ctx.ledger.changeStatus(client, transactionId, 'completed', {
    transactionHash: reference.value,
    processedBy: input.processedBy,
  });
  await tell(ctx, client, after);
  return after;
}
