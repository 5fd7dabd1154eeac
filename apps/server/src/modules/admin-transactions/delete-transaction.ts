import {
  ADMIN_TX_MSG,
  type TDeleteAdminTransactionRequest,
  type TPendingChange,
} from '@coffer/shared';
import { AppError } from '@server/lib/app-error';
import type pg from 'pg';
import type { ChangeKind, StaffActor } from '../staff-changes';
import { adminTransactionsRepository as repo } from './admin-transactions.repository';
import { type AdminTransactionsContext, bankFacts, trial } from './admin-transactions-context';
import { finalRowMessage, isFinalRow, PAYOUT_TYPES } from './admin-transactions-rules';
import { mailLedgerChange } from './customer-mail';
import { rowWords, shownPair } from './transaction-change-view';

export const TRANSACTION_DELETE = 'transaction.delete';

export type DeletePayload = { id: string; reason: string };

/**
 * A deletion marks the row deleted and reverses its effect, in the caller's transaction,
 * as the staff member who proposed it (`by`); nothing is erased. Final history is never
 * deleted: a completed or rejected payout, a completed deposit, buy or sell, or an
 * adjustment (each corrected by a new adjustment instead).
 */
async function remove(
  ctx: AdminTransactionsContext,
  client: pg.PoolClient,
  by: string,
  id: string,
) {
  const current = await repo.findById(client, id, true);
  if (!current) throw new AppError('NOT_FOUND', 'Transaction not found.');
  const final = finalRowMessage(current);
  if (final) throw new AppError('CONFLICT', final);
  // A request the customer made is answered, not erased: Reject tells them why.
  if (PAYOUT_TYPES.has(current.transaction_type) && current.created_by === current.user_id) {
    throw new AppError('CONFLICT', ADMIN_TX_MSG.customerPayoutNoDelete);
  }
  const bank = bankFacts(ctx, current);
  try {
    const change = await ctx.ledger.remove(client, id, by);
    return { change, bank, email: current.email };
  } catch (err) {
    if (isFinalRow(err)) throw new AppError('CONFLICT', ADMIN_TX_MSG.finalRow);
    throw err;
  }
}

/**
 * Deleting a ledger row takes two people (decision 0036): proposed with a reason and the
 * proposer's step-up (202, nothing changed), applied when another staff member approves it,
 * checked again then. A deletion gives back only what the row took, so it funds nobody.
 */
export function deleteTransactionKind(ctx: AdminTransactionsContext): ChangeKind<DeletePayload> {
  return {
    kind: TRANSACTION_DELETE,
    auditAction: 'transaction.delete',
    async describe(client, payload, proposer) {
      const shown = await trial(client, async () => {
        const { change, bank, email } = await remove(ctx, client, proposer.userId, payload.id);
        return {
          ...shownPair(ctx, change.before, bank, change.after, bank),
          email,
          words: rowWords(change.before),
          userId: change.before.user_id,
        };
      });
      return {
        summary: `Delete ${shown.words} of ${shown.email} (${payload.id}): ${payload.reason}`,
        before: shown.before,
        after: shown.after,
        subjectUserId: shown.userId,
        targetKey: payload.id,
        payload: { id: payload.id, reason: payload.reason },
      };
    },
    async apply(client, payload, { change }) {
      const done = await remove(ctx, client, change.proposed_by, payload.id);
      await mailLedgerChange(
        ctx,
        client,
        done.email,
        'removed',
        done.change.before,
        payload.reason,
      );
      return { transactionId: payload.id };
    },
  };
}

/** Proposes a deletion, with its reason and the proposer's step-up after every check. */
export function proposeDelete(
  ctx: AdminTransactionsContext,
  actor: StaffActor,
  id: string,
  { reason, stepUp }: TDeleteAdminTransactionRequest,
): Promise<TPendingChange> {
  return ctx.changes.propose(actor, TRANSACTION_DELETE, { id, reason }, stepUp);
}
