import type {
  TAdminTransaction,
  TCreateAdminTransaction,
  TDeleteAdminTransactionRequest,
  TPendingChange,
  TPendingPayoutsQuery,
  TPendingPayoutsResponse,
  TStepUp,
  TUpdateAdminTransaction,
} from '@coffer/shared';
import type { StaffActor } from '../staff-changes';
import { type Actor, type AdminTransactionsContext, view } from './admin-transactions-context';
import { auditBankReads, type BankReadPlace } from './bank-reads';
import { completePayoutKind, proposeCompletion } from './complete-payout';
import { createTransactionKinds, proposeTransaction } from './create-transaction';
import { deleteTransactionKind, proposeDelete } from './delete-transaction';
import { exportTransactions } from './export-transactions';
import {
  type ListFilterQuery,
  type ListQuery,
  listTransactions,
  pendingPayouts,
} from './list-transactions';
import { rejectPayout } from './reject-payout';
import { proposeUpdate, updateTransactionKind } from './update-transaction';

/**
 * Admin transactions, composed: each use case (list, add, edit, delete, complete, reject) is
 * its own file taking the shared context (`admin-transactions-context.ts`). Adding, editing
 * and deleting a ledger row and completing a payout by hand are two-person changes
 * (decision 0036): their kinds are registered here, once, and their routes propose them.
 */

export type { Actor } from './admin-transactions-context';

/** Transactions and withdrawal processing for staff. */
export function createAdminTransactionsService(s: AdminTransactionsContext) {
  const ctx = s;
  for (const kind of createTransactionKinds(ctx)) ctx.changes.register(kind);
  ctx.changes.register(updateTransactionKind(ctx));
  ctx.changes.register(deleteTransactionKind(ctx));
  ctx.changes.register(completePayoutKind(ctx));
  return {
    list: (query: ListQuery) => listTransactions(ctx, query),

    /** The list's search and filters as CSV, streamed a batch at a time. */
    csv: (query: ListFilterQuery) => exportTransactions(ctx, query),

    get: (id: string) => view(ctx, ctx.pool, id),

    /** Staff read the bank accounts in an answer: audited, one row per request. */
    auditBankReads: (
      actor: { id: string; ip: string | null },
      items: Parameters<typeof auditBankReads>[2],
      place: BankReadPlace,
    ) => auditBankReads(ctx, actor, items, place),

    pending: (query: TPendingPayoutsQuery): Promise<TPendingPayoutsResponse> =>
      pendingPayouts(ctx, query),

    /** Proposes a new ledger row: recorded when another staff member approves it. */
    create: (
      actor: StaffActor,
      body: TCreateAdminTransaction,
      idempotencyKey: string | undefined,
    ): Promise<TPendingChange> => proposeTransaction(ctx, actor, body, idempotencyKey),

    /** Proposes an edit of a row. */
    update: (
      actor: StaffActor,
      id: string,
      body: TUpdateAdminTransaction,
    ): Promise<TPendingChange> => proposeUpdate(ctx, actor, id, body),

    /** Proposes a deletion of a row. */
    remove: (
      actor: StaffActor,
      id: string,
      body: TDeleteAdminTransactionRequest,
    ): Promise<TPendingChange> => proposeDelete(ctx, actor, id, body),

    /** Proposes a payout's completion by hand (a chain hash or a bank reference). */
    complete: (
      actor: StaffActor,
      id: string,
      reference: string,
      stepUp: TStepUp,
    ): Promise<TPendingChange> => proposeCompletion(ctx, actor, id, reference, stepUp),

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
