import type { TAdminTransaction, TStepUp } from '@coffer/shared';
import { StepUpDialog } from '@web/components/step-up/step-up-dialog';
import { CustomerText } from '@web/components/ui/customer-text';
import { errorMessage } from '@web/lib/api-client';
import { toast } from 'sonner';
import { useApprovePayout } from '../api/approve-payout';
import { amountOf } from './pending-payout-present';
import { CustomerName } from './present';

/**
 * Approves a crypto withdrawal for payment on chain with the admin's step-up. A refusal
 * (four eyes, already approved, an address Coffer cannot pay) goes to `onRefused`, and the
 * request stays as it was.
 */
export function ApproveDialog({
  transaction,
  onClose,
  onRefused,
}: {
  transaction: TAdminTransaction | null;
  onClose: () => void;
  onRefused: (message: string) => void;
}) {
  const approve = useApprovePayout();

  async function confirm(stepUp: TStepUp) {
    if (!transaction) return;
    await approve.mutateAsync({ id: transaction.id, stepUp });
    toast.success('Withdrawal approved', {
      description: 'It can now be paid in a batch on Payouts, or completed with its hash.',
    });
    onClose();
  }

  function failed(err: unknown) {
    onClose();
    const message = errorMessage(err, 'Please try again.');
    onRefused(message);
    toast.error('Failed to approve the withdrawal', { description: message });
  }

  return (
    <StepUpDialog
      open={transaction !== null}
      title="Approve withdrawal"
      description={
        transaction ? (
          <>
            Approve {amountOf(transaction)} for <CustomerName tx={transaction} /> to{' '}
            {transaction.withdrawalAddress ? (
              <CustomerText text={transaction.withdrawalAddress} className="font-mono" />
            ) : (
              'its address'
            )}
            {transaction.memo ? (
              <>
                {' '}
                with memo <CustomerText text={transaction.memo} className="font-mono" />
              </>
            ) : null}
            : it can then be paid on chain.
          </>
        ) : (
          ''
        )
      }
      confirmLabel="Confirm and approve"
      pendingLabel="Approving..."
      onCancel={onClose}
      onConfirm={confirm}
      onFailure={failed}
    />
  );
}
