import type { TAdminTransaction } from '@coffer/shared';
import { Age } from '@web/components/admin/age';
import { PayoutStateBadge } from '@web/components/admin/payout-state-badge';
import { STACKED } from '@web/components/admin/stacked-table';
import { userEmailBesideName } from '@web/components/admin/user-picker';
import { Button } from '@web/components/ui/button';
import { EmailText } from '@web/components/ui/email-text';
import { useCan } from '@web/lib/staff';
import { Amount, Destination, isBank } from './pending-payout-present';
import { assetText, CustomerName, dateText, isFundedBankPayout, typeText } from './present';

/**
 * What staff may do with a pending payout now. A bank transfer is completed with the bank's
 * reference. A crypto withdrawal is approved first (by a second admin); once approved it is
 * paid by a batch on Payouts or completed with the hash of a payment made outside Coffer.
 * Once a batch may pay it, the chain decides: it is neither rejected nor completed by hand.
 */
function actionsOf(tx: TAdminTransaction): 'complete' | 'approve' | 'none' {
  if (isBank(tx)) return 'complete';
  const state = tx.payoutState ?? null;
  if (state === null) return 'approve';
  return state === 'approved' ? 'complete' : 'none';
}

function Actions({
  tx,
  onApprove,
  onComplete,
  onReject,
}: {
  tx: TAdminTransaction;
  onApprove: () => void;
  onComplete: () => void;
  onReject: () => void;
}) {
  const actions = actionsOf(tx);
  // What the staff member's roles allow: approving and rejecting is an approver's, proposing
  // a completion a treasurer's (the server checks again).
  const can = useCan();
  const approve = actions === 'approve' && can('payouts.approve');
  const complete = actions === 'complete' && can('money.propose');
  const reject = actions !== 'none' && can('payouts.approve');
  return (
    // Stacked (phone): the badge and buttons share a line. Wide: the badge above the buttons,
    // which stay side by side.
    <div className="flex flex-wrap items-center gap-2 md:flex-col md:items-end">
      {tx.payoutState ? <PayoutStateBadge state={tx.payoutState} /> : null}
      <div className="flex gap-2 empty:hidden">
        {approve ? (
          <Button size="sm" onClick={onApprove}>
            Approve
          </Button>
        ) : null}
        {complete ? (
          <Button size="sm" onClick={onComplete}>
            Complete
          </Button>
        ) : null}
        {reject ? (
          <Button size="sm" variant="outline" onClick={onReject}>
            Reject
          </Button>
        ) : null}
      </div>
    </div>
  );
}

/** One pending payout: when, who, what, where to, and what staff may do with it now. */
export function PendingPayoutRow({
  tx,
  onApprove,
  onComplete,
  onReject,
}: {
  tx: TAdminTransaction;
  onApprove: () => void;
  onComplete: () => void;
  onReject: () => void;
}) {
  return (
    <tr className={STACKED.row}>
      <td data-label="Requested" className={STACKED.cell}>
        {dateText(tx.date)}
      </td>
      <td data-label="Age" className={STACKED.cell}>
        <Age since={tx.date} title={dateText(tx.date)} />
      </td>
      <td data-label="Customer" className={STACKED.cell}>
        <span className="min-w-0 break-words">
          {userEmailBesideName(tx.customer) ? (
            <>
              <CustomerName tx={tx} className="block" />
              <EmailText email={tx.customer.email} className="block text-xs text-muted" />
            </>
          ) : (
            <EmailText email={tx.customer.email} />
          )}
        </span>
      </td>
      <td data-label="Type" className={STACKED.cell}>
        <span className="min-w-0">
          {typeText(tx.type)}
          {isFundedBankPayout(tx) ? (
            <span className="block text-xs text-muted">from {assetText(tx)}</span>
          ) : null}
        </span>
      </td>
      <td data-label="Amount" className={`${STACKED.cell} tabular-nums`}>
        <Amount tx={tx} />
      </td>
      <td data-label="Destination" className={STACKED.cell}>
        <Destination tx={tx} />
      </td>
      <td className={STACKED.wideCell}>
        <Actions tx={tx} onApprove={onApprove} onComplete={onComplete} onReject={onReject} />
      </td>
    </tr>
  );
}
