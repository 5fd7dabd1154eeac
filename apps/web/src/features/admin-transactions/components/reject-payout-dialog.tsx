import type { TAdminTransaction, TStepUp } from '@coffer/shared';
import { StepUpDialog } from '@web/components/step-up/step-up-dialog';
import { Button } from '@web/components/ui/button';
import { Dialog, DialogContent } from '@web/components/ui/dialog';
import { Textarea } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { errorMessage } from '@web/lib/api-client';
import { type FormEvent, useId, useState } from 'react';
import { toast } from 'sonner';
import { useRejectPayout } from '../api/reject-payout';
import { amountOf } from './pending-payout-present';
import { customerText } from './present';

export function RejectDialog({
  transaction,
  onClose,
}: {
  transaction: TAdminTransaction | null;
  onClose: () => void;
}) {
  const id = useId();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const reject = useRejectPayout();

  function close() {
    setReason('');
    setError(null);
    setAsking(false);
    onClose();
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!transaction) return;
    if (reason.trim() === '') {
      setError('Enter the reason the customer will see.');
      return;
    }
    setAsking(true);
  }

  async function confirm(stepUp: TStepUp) {
    if (!transaction) return;
    await reject.mutateAsync({ id: transaction.id, reason: reason.trim(), stepUp });
    toast.success('Request rejected');
    close();
  }

  function failed(err: unknown) {
    setAsking(false);
    const message = errorMessage(err, 'Please try again.');
    setError(message);
    toast.error('Failed to reject the request', { description: message });
  }

  return (
    <>
      <StepUpDialog
        open={transaction !== null && asking}
        title="Confirm the rejection"
        description={
          transaction
            ? `Reject ${amountOf(transaction)} for ${customerText(transaction)}: the hold is released and the customer is e-mailed.`
            : ''
        }
        confirmLabel="Confirm and reject"
        pendingLabel="Rejecting..."
        danger
        onCancel={() => setAsking(false)}
        onConfirm={confirm}
        onFailure={failed}
      />
      <Dialog
        open={transaction !== null && !asking}
        onOpenChange={(open) => (open ? null : close())}
      >
        <DialogContent
          title="Reject request"
          description="The hold is released and the customer is e-mailed with your reason."
        >
          <form onSubmit={submit} noValidate className="space-y-4">
            <div className="space-y-1.5">
              <Label htmlFor={`${id}-reason`}>Reason (shown to the customer)</Label>
              <Textarea
                id={`${id}-reason`}
                rows={3}
                value={reason}
                onChange={(e) => setReason(e.target.value)}
              />
            </div>
            {error ? (
              <p role="alert" className="text-sm text-danger">
                {error}
              </p>
            ) : null}
            <div className="flex justify-end gap-2">
              <Button type="button" variant="outline" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" variant="danger" disabled={reject.isPending}>
                {reject.isPending ? 'Rejecting...' : 'Reject'}
              </Button>
            </div>
          </form>
        </DialogContent>
      </Dialog>
    </>
  );
}
