import { ADMIN_TX_MSG, type TAdminTransactionSummary, type TStepUp } from '@coffer/shared';
import { type FormEvent, useId, useState } from 'react';
import { toast } from 'sonner';
import { StepUpDialog } from '../../../components/step-up/step-up-dialog';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Textarea } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { errorMessage } from '../../../lib/api-client';
import { useDeleteAdminTransaction } from '../api/delete-admin-transaction';

/**
 * The confirmation, the reason the audit log keeps, then the admin's own step-up: a
 * deletion reverses the row's effect on a balance.
 */
export function DeleteTransactionDialog({
  transaction,
  onOpenChange,
}: {
  transaction: TAdminTransactionSummary | null;
  onOpenChange: (open: boolean) => void;
}) {
  const id = useId();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  /** The reason, once given: the step-up dialog is open to confirm it. */
  const [asking, setAsking] = useState<string | null>(null);
  const del = useDeleteAdminTransaction();

  function close(open: boolean) {
    if (!open) {
      setReason('');
      setError(null);
      setAsking(null);
    }
    onOpenChange(open);
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!transaction) return;
    if (reason.trim() === '') {
      setError(ADMIN_TX_MSG.reasonRequired);
      return;
    }
    setError(null);
    setAsking(reason.trim());
  }

  async function confirm(stepUp: TStepUp) {
    if (!transaction || asking === null) return;
    await del.mutateAsync({ id: transaction.id, body: { reason: asking, stepUp } });
    toast.success(ADMIN_TX_MSG.deleted);
    close(false);
  }

  function failed(err: unknown) {
    // Back to the form with the server's reason (final history, a hold).
    setAsking(null);
    const message = errorMessage(err, 'Please try again.');
    setError(message);
    toast.error(ADMIN_TX_MSG.deleteFailed, { description: message });
  }

  return (
    <>
      <StepUpDialog
        open={transaction !== null && asking !== null}
        title="Confirm the deletion"
        description="The transaction is marked deleted and its effect on the customer's balance is reversed."
        confirmLabel="Confirm and delete"
        pendingLabel="Deleting..."
        danger
        onCancel={() => setAsking(null)}
        onConfirm={confirm}
        onFailure={failed}
      />
      <Dialog open={transaction !== null && asking === null} onOpenChange={close}>
        <DialogContent title="Delete transaction" description={ADMIN_TX_MSG.deleteConfirm}>
          <form onSubmit={submit} noValidate className="space-y-4">
            <p className="text-sm text-muted">
              Its effect on the customer's balance is reversed; the row stays in the audit log.
            </p>
            <div className="space-y-1.5">
              <Label htmlFor={`${id}-reason`}>Reason</Label>
              <Textarea
                id={`${id}-reason`}
                rows={2}
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
              <Button type="button" variant="outline" onClick={() => close(false)}>
                Cancel
              </Button>
              <Button type="submit" variant="danger">
                Delete
              </Button>
            </div>
          </form>
        </DialogContent>
      </Dialog>
    </>
  );
}
