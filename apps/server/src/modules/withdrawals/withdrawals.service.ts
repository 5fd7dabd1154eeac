import type { TCreateWithdrawalRequest, TTransaction } from '@coffer/shared';
import type { Client } from '@server/lib/client-of';
import type pg from 'pg';
import type { TransactionRow } from '../ledger';
import type { StepUpSubject } from '../step-up';
import { cancelWithdrawal } from './cancel-withdrawal';
import {
  checkCompletion,
  completeWithdrawal,
  completeWithdrawalIn,
  settleWithdrawal,
} from './complete-withdrawal';
import { rejectWithdrawal } from './reject-withdrawal';
import { requestWithdrawal } from './request-withdrawal';
import { assertStaffPayoutWithinLimit, type StaffPayout } from './staff-limit';
import { lockPending, type StaffHooks, type WithdrawalsContext } from './withdrawals-context';

/**
 * Withdrawals, composed: the customer's request and cancellation, staff's completion or
 * rejection, and the chain's settlement are each their own file taking the shared context
 * (`withdrawals-context.ts`); the customer's mails are in `withdrawal-mail.ts`.
 */

export type { StaffPayout } from './staff-limit';
export type { StaffHooks } from './withdrawals-context';

export function createWithdrawalsService(deps: WithdrawalsContext) {
  const ctx = deps;
  return {
    /** A customer's withdrawal request (product.md M6): one pending row holding amount + fee. */
    request: (
      s: StepUpSubject,
      body: TCreateWithdrawalRequest,
      idempotencyKey: string | undefined,
      who: Client,
    ): Promise<TTransaction> => requestWithdrawal(ctx, s, body, idempotencyKey, who),

    /** Staff paid the payout out: the hold becomes a debit and the reference is kept. */
    complete: (
      transactionId: string,
      input: { transactionHash: string; processedBy: string } & StaffHooks,
    ): Promise<TTransaction> => completeWithdrawal(ctx, transactionId, input),

    /**
     * Staff's completion in the caller's transaction: a two-person completion applies in
     * its approval's (the caller's commit sends the mail's delivery to the outbox job).
     */
    completeIn: (
      client: pg.PoolClient,
      transactionId: string,
      input: { transactionHash: string; processedBy: string } & StaffHooks,
    ): Promise<TransactionRow> => completeWithdrawalIn(ctx, client, transactionId, input),

    /**
     * What a completion would check, writing nothing: the payout locked and pending, the
     * caller's guard and check, funded, and its reference's form (returned normalised).
     */
    async checkCompletion(
      client: pg.PoolClient,
      transactionId: string,
      input: { transactionHash: string } & Pick<StaffHooks, 'guard' | 'check'>,
    ): Promise<string> {
      const row = await lockPending(client, transactionId, input.guard);
      return checkCompletion(client, row, input);
    },

    /** The customer's daily limit on a payout staff record for them (staff-limit.ts). */
    assertStaffPayoutWithinLimit: (
      client: pg.PoolClient,
      payout: StaffPayout,
      alreadyCountedUsd?: string,
    ): Promise<void> => assertStaffPayoutWithinLimit(ctx, client, payout, alreadyCountedUsd),

    /** The chain proved a crypto payout, in the caller's transaction (the payouts module). */
    settle: (
      client: pg.PoolClient,
      transactionId: string,
      input: { transactionHash: string; processedBy: string | null },
    ): Promise<TransactionRow> => settleWithdrawal(ctx, client, transactionId, input),

    /** Staff refused the payout: the hold is released and the customer is told why. */
    reject: (
      transactionId: string,
      input: { reason: string; processedBy: string } & StaffHooks,
    ): Promise<TTransaction> => rejectWithdrawal(ctx, transactionId, input),

    /** The customer took back their own payout before anyone took it: the hold is released. */
    cancel: (
      userId: string,
      transactionId: string,
      idempotencyKey: string | undefined,
      who: Client,
    ): Promise<TTransaction> => cancelWithdrawal(ctx, userId, transactionId, idempotencyKey, who),
  };
}

export type WithdrawalsService = ReturnType<typeof createWithdrawalsService>;
