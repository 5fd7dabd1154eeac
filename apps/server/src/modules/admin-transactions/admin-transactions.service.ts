import type {
  TAdminTransaction,
  TCreateAdminTransaction,
  TDeleteAdminTransactionRequest,
  TPendingPayoutsQuery,
  TPendingPayoutsResponse,
  TStepUp,
  TUpdateAdminTransaction,
} from '@coffer/shared';
import { type Actor, type AdminTransactionsContext, view } from './admin-transactions-context';
import { completePayout } from './complete-payout';
import { createTransaction } from './create-transaction';
import { deleteTransaction } from './delete-transaction';
import { exportTransactions } from './export-transactions';
import {
  type ListFilterQuery,
  type ListQuery,
  listTransactions,
  pendingPayouts,
} from './list-transactions';
import { rejectPayout } from './reject-payout';
import { updateTransaction } from './update-transaction';

/**
 * Admin transactions, composed: each use case (list, add, edit, delete, complete, reject) is
 * its own file taking the shared context (`admin-transactions-context.ts`).
 */

export type { Actor } from './admin-transactions-context';

/** Transactions and withdrawal processing for staff. */
export function createAdminTransactionsService(s: AdminTransactionsContext) {
  const ctx = s;
  return {
    list: (query: ListQuery) => listTransactions(ctx, query),

    /** The list's search and filters as CSV, streamed a batch at a time. */
    csv: (query: ListFilterQuery) => exportTransactions(ctx, query),

    get: (id: string) => view(ctx, ctx.pool, id),

    pending: (query: TPendingPayoutsQuery): Promise<TPendingPayoutsResponse> =>
      pendingPayouts(ctx, query),

    create: (
      actor: Actor,
      body: TCreateAdminTransaction,
      idempotencyKey: string | undefined,
    ): Promise<TAdminTransaction> => createTransaction(ctx, actor, body, idempotencyKey),

    update: (actor: Actor, id: string, body: TUpdateAdminTransaction): Promise<TAdminTransaction> =>
      updateTransaction(ctx, actor, id, body),

    remove: (actor: Actor, id: string, body: TDeleteAdminTransactionRequest): Promise<void> =>
      deleteTransaction(ctx, actor, id, body),

    complete: (
      actor: Actor,
      id: string,
      reference: string,
      stepUp: TStepUp,
    ): Promise<TAdminTransaction> => completePayout(ctx, actor, id, reference, stepUp),

    /** Four eyes: another admin approves a crypto withdrawal for payment on chain. */
    async approve(actor: Actor, id: string, stepUp: TStepUp): Promise<TAdminTransaction> {
      await ctx.payouts.approve(actor, id, stepUp);
      return view(ctx, ctx.pool, id);
    },

    reject: (
      actor: Actor,
      id: string,
      reason: string,
      stepUp: TStepUp,
    ): Promise<TAdminTransaction> => rejectPayout(ctx, actor, id, reason, stepUp),
  };
}

export type AdminTransactionsService = ReturnType<typeof createAdminTransactionsService>;
