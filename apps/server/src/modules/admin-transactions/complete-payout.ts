import type { TPendingChange, TStepUp } from '@coffer/shared';
import { AppError } from '@server/lib/app-error';
import type pg from 'pg';
import type { TransactionRow } from '../ledger';
import type { ChangeKind, StaffActor } from '../staff-changes';
import { adminTransactionsRepository as repo } from './admin-transactions.repository';
import { type AdminTransactionsContext, bankFacts } from './admin-transactions-context';
import { PAYOUT_TYPES, UUID } from './admin-transactions-rules';
import { rowWords, shownPair } from './transaction-change-view';

export const PAYOUT_COMPLETE = 'payout.complete';

export type CompletePayload = { id: string; reference: string };

/**
 * A payout completed by hand, checked for everyone in `staff` (the proposer; at approval
 * the approver too): for a crypto withdrawal, approved and its hash paying the payout's
 * address exactly its amount where the chain is watched (payouts); for a bank transfer,
 * its reference's form and a hold behind it (withdrawals). Neither of them may be the
 * customer, the payout's creator or an editor (four eyes), or a recent funder of the
 * customer (the 30-day rule). Writes when `write` is given (the approval), else nothing.
 */
async function handCompletion(
  ctx: AdminTransactionsContext,
  client: pg.PoolClient,
  payload: CompletePayload,
  staff: readonly string[],
  write: { processedBy: string } | null,
): Promise<{ before: TransactionRow; after: TransactionRow }> {
  const { id, reference } = payload;
  const current = UUID.test(id) ? await repo.findById(client, id) : null;
  if (!current || !PAYOUT_TYPES.has(current.transaction_type)) {
    throw new AppError('NOT_FOUND', 'Withdrawal not found.');
  }
  if (current.transaction_type === 'withdrawal') {
    const done = await ctx.payouts.checkByHash(client, id, reference, staff);
    if (!write) return { before: current, after: current };
    return ctx.payouts.completeByHashIn(client, id, done, write.processedBy);
  }
  const check = async (c: pg.PoolClient, locked: TransactionRow) => {
    for (const staffId of staff) await ctx.payouts.assertMayDecide(c, staffId, locked);
    // A crypto withdrawal that became one after the read above is refused here.
    await ctx.payouts.assertOffChain(c, locked, true);
  };
  if (!write) {
    await ctx.withdrawals.checkCompletion(client, id, { transactionHash: reference, check });
    return { before: current, after: current };
  }
  let before: TransactionRow = current;
  const after = await ctx.withdrawals.completeIn(client, id, {
    transactionHash: reference,
    processedBy: write.processedBy,
    check,
    record: async (_c, locked) => {
      before = locked;
    },
  });
  return { before, after };
}

/**
 * Completing a payout by hand (a chain hash or a bank reference typed in) takes two people
 * (decision 0036): one proposes it, with their step-up, and nothing moves (the hold stays);
 * another approves it, every check running again then. The proposer is who paid it
 * (`processed_by`); the customer's mail leaves with the approval's commit.
 */
export function completePayoutKind(ctx: AdminTransactionsContext): ChangeKind<CompletePayload> {
  return {
    kind: PAYOUT_COMPLETE,
    approvedWith: 'payouts.approve',
    auditAction: 'withdrawal.complete',
    async describe(client, payload, proposer) {
      const reference = payload.reference.trim();
      const { before } = await handCompletion(
        ctx,
        client,
        { id: payload.id, reference },
        [proposer.userId],
        null,
      );
      const full = await repo.findById(client, payload.id);
      const bank = full ? bankFacts(ctx, full) : null;
      const shown = shownPair(ctx, before, bank, before, bank);
      return {
        summary: `Complete ${rowWords(before)} of ${full?.email ?? before.user_id}, paid with ${reference}`,
        before: shown.before,
        after: {
          ...shown.after,
          status: 'completed',
          transactionHash: reference,
          processedBy: proposer.userId,
        },
        subjectUserId: before.user_id,
        targetKey: `payout:${payload.id}`,
        payload: { id: payload.id, reference },
      };
    },
    async apply(client, payload, { change, approver }) {
      const { after } = await handCompletion(
        ctx,
        client,
        payload,
        [change.proposed_by, approver.userId],
        { processedBy: change.proposed_by },
      );
      return {
        transactionId: payload.id,
        status: after.status,
        transactionHash: after.transaction_hash,
      };
    },
  };
}

/** Proposes a hand completion, with the proposer's step-up after every check. */
export function proposeCompletion(
  ctx: AdminTransactionsContext,
  actor: StaffActor,
  id: string,
  reference: string,
  stepUp: TStepUp,
): Promise<TPendingChange> {
  return ctx.changes.propose(actor, PAYOUT_COMPLETE, { id, reference }, stepUp);
}
