import type { TAdminTransaction } from '@coffer/shared';
import { STACKED } from '@web/components/admin/stacked-table';
import { Card, CardContent } from '@web/components/ui/card';
import { Spinner } from '@web/components/ui/spinner';
import { useState } from 'react';
import { usePendingPayouts } from '../api/get-pending-payouts';
import { ApproveDialog } from './approve-payout-dialog';
import { CompleteDialog } from './complete-payout-dialog';
import { PendingPayoutRow } from './pending-payout-row';
import { RejectDialog } from './reject-payout-dialog';

/**
 * Pending withdrawals (product.md M6): the payouts waiting for staff, oldest first. The
 * server enforces four-eyes: whoever recorded or edited a request cannot approve or complete
 * it.
 */
export function PendingPayouts() {
  const pending = usePendingPayouts();
  const [approving, setApproving] = useState<TAdminTransaction | null>(null);
  // Why the last approval was refused, kept on screen (a toast goes away).
  const [refusal, setRefusal] = useState<string | null>(null);
  const [completing, setCompleting] = useState<TAdminTransaction | null>(null);
  const [rejecting, setRejecting] = useState<TAdminTransaction | null>(null);

  if (pending.isPending) {
    return (
      <div className="flex justify-center py-10">
        <Spinner className="h-8 w-8" label="Loading pending withdrawals" />
      </div>
    );
  }
  if (pending.isError) {
    return (
      <p role="alert" className="text-sm text-danger">
        Could not load pending withdrawals: {pending.error.message}
      </p>
    );
  }
  const items = pending.data.items;
  return (
    <Card>
      <CardContent className="space-y-4 pt-5">
        {refusal ? (
          <p role="alert" className="text-sm text-danger">
            Not approved: {refusal}
          </p>
        ) : null}
        {items.length === 0 ? (
          <p className="py-6 text-center text-sm text-muted">No withdrawals are waiting.</p>
        ) : (
          <table className={STACKED.table}>
            <caption className="sr-only">Pending withdrawals, oldest first</caption>
            <thead className={STACKED.head}>
              <tr>
                <th className={STACKED.headCell}>Requested</th>
                <th className={STACKED.headCell}>Customer</th>
                <th className={STACKED.headCell}>Type</th>
                <th className={STACKED.headCell}>Amount</th>
                <th className={STACKED.headCell}>Destination</th>
                <th className={STACKED.headCell}>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className={STACKED.body}>
              {items.map((tx) => (
                <PendingPayoutRow
                  key={tx.id}
                  tx={tx}
                  onApprove={() => {
                    setRefusal(null);
                    setApproving(tx);
                  }}
                  onComplete={() => setCompleting(tx)}
                  onReject={() => setRejecting(tx)}
                />
              ))}
            </tbody>
          </table>
        )}
      </CardContent>
      <ApproveDialog
        transaction={approving}
        onClose={() => setApproving(null)}
        onRefused={setRefusal}
      />
      <CompleteDialog transaction={completing} onClose={() => setCompleting(null)} />
      <RejectDialog transaction={rejecting} onClose={() => setRejecting(null)} />
    </Card>
  );
}
