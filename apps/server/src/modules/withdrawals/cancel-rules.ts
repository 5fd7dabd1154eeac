import { HISTORY_MSG } from '@coffer/shared';
import type { TransactionRow } from '../ledger';

/**
 * When a customer may cancel their own payout request, in one place: the cancellation
 * itself judges the locked row with it, and the history asks it to offer Cancel or not.
 */

type PayoutFacts = Pick<
  TransactionRow,
  | 'transaction_type'
  | 'user_id'
  | 'created_by'
  | 'processed_by'
  | 'updated_by'
  | 'editor_ids'
  | 'status'
  | 'reason'
>;

/** What staff are told when they act on a payout its customer cancelled first. */
export const CANCELLED_FOR_STAFF =
  'The customer cancelled this request: nothing is held for it any more.';

const isPayout = (row: Pick<TransactionRow, 'transaction_type'>) =>
  row.transaction_type === 'withdrawal' || row.transaction_type === 'bank_transfer';

/**
 * A payout its customer cancelled: failed, closed by the customer who asked for it, with
 * the cancellation's reason (the ledger has no status of its own for it: like a rejection,
 * nothing left and the hold went back).
 */
export function isCancelledByOwner(row: PayoutFacts): boolean {
  return (
    isPayout(row) &&
    row.status === 'failed' &&
    row.created_by === row.user_id &&
    row.processed_by === row.user_id &&
    row.reason === HISTORY_MSG.cancelledReason
  );
}

/**
 * Why `userId` may not cancel this payout now, or null when they may: a row that is not
 * their payout is not found; one that is not pending, was recorded by staff, was edited by
 * staff or approved for payment (`approved`: it has a row in payouts, so a batch or staff
 * may pay it) is no longer theirs to take back.
 */
export function cancelRefusal(
  row: PayoutFacts | null,
  userId: string,
  approved: boolean,
): { code: 'NOT_FOUND' | 'CONFLICT'; message: string } | null {
  if (!row || !isPayout(row) || row.user_id !== userId) {
    return { code: 'NOT_FOUND', message: HISTORY_MSG.cancelNotFound };
  }
  if (row.status === 'completed') return { code: 'CONFLICT', message: HISTORY_MSG.cancelCompleted };
  if (row.status === 'failed') {
    return {
      code: 'CONFLICT',
      message: isCancelledByOwner(row) ? HISTORY_MSG.cancelCancelled : HISTORY_MSG.cancelRejected,
    };
  }
  if (row.created_by !== userId) {
    return { code: 'CONFLICT', message: HISTORY_MSG.cancelStaffRecorded };
  }
  if (approved || row.updated_by !== null || row.editor_ids.length > 0) {
    return { code: 'CONFLICT', message: HISTORY_MSG.cancelTaken };
  }
  return null;
}
