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
  const row = await withTransaction(ctx.pool, (client) =>
    completeWithdrawalIn(ctx, client, transactionId, input),
  );
  await ctx.outbox.deliver();
  return presentTransaction(row);
}

/**
 * The same completion in the caller's transaction (a two-person hand completion applies
 * in its approval's): the caller delivers the outbox after its commit, or the job does.
 */
export async function completeWithdrawalIn(
  ctx: WithdrawalsContext,
  client: pg.PoolClient,
  transactionId: string,
  input: { transactionHash: string; processedBy: string } & StaffHooks,
): Promise<TransactionRow> {
  const before = await lockPending(client, transactionId, input.guard);
  const reference = await checkCompletion(client, before, input);
  const after = await ctx.ledger.changeStatus(client, transactionId, 'completed', {
    transactionHash: reference,
    processedBy: input.processedBy,
  });
  await input.record?.(client, before, after);
  await tell(ctx, client, after);
  return after;
}

/**
 * What a completion checks on the locked row, before anything is written: the caller's
 * check, a payout that holds something, and the reference in its one form (returned).
 */
export async function checkCompletion(
  client: pg.PoolClient,
  before: TransactionRow,
  input: { transactionHash: string } & Pick<StaffHooks, 'check'>,
): Promise<string> {
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
  return reference.value;
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
