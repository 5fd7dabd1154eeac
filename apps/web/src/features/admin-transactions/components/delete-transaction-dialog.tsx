import { ADMIN_TX_MSG, type TAdminTransactionSummary } from '@coffer/shared';
import { type FormEvent, useId, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Textarea } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { errorMessage } from '../../../lib/api-client';
import { useDeleteAdminTransaction } from '../api/delete-admin-transaction';

/** The spec's confirmation, plus the reason the audit log keeps (DEVIATIONS M7). */
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
  const del = useDeleteAdminTransaction();

  function close(open: boolean) {
    if (!open) {
      setReason('');
      setError(null);
    }
    onOpenChange(open);
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!transaction) return;
    if (reason.trim() === '') {
      setError(ADMIN_TX_MSG.reasonRequired);
      return;
    }
    try {
      await del.mutateAsync({ id: transaction.id, reason: reason.trim() });
      toast.success(ADMIN_TX_MSG.deleted);
      close(false);
    } catch (err) {
      const message = errorMessage(err, 'Please try again.');
      setError(message);
      toast.error(ADMIN_TX_MSG.deleteFailed, { description: message });
    }
  }

  return (
    <Dialog open={transaction !== null} onOpenChange={close}>
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
            <Button type="submit" variant="danger" disabled={del.isPending}>
              {del.isPending ? 'Deleting...' : 'Delete'}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
